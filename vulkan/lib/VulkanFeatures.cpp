//===- VulkanFeatures.cpp - The device features a shader needs ------------===//
#include "VulkanFeatures.h"

#include <spirv/unified1/spirv.hpp>

#include <map>
#include <set>

using namespace spvb::vulkan;

namespace {

/// A capability and the feature Vulkan's "SPIR-V Environment" appendix
/// requires for it.
struct Requirement {
  spv::Capability capability;
  const char *capabilityName;
  const char *featureName;
  VkBool32 (*enabled)(const DeviceFeatures &);
};

#define REQUIRE(CAPABILITY, STRUCT, FEATURE)                                   \
  Requirement {                                                                \
    spv::Capability##CAPABILITY, #CAPABILITY, #FEATURE,                        \
        [](const DeviceFeatures &f) { return f.STRUCT.FEATURE; }               \
  }

const Requirement kRequirements[] = {
    REQUIRE(Geometry, core, geometryShader),
    REQUIRE(Tessellation, core, tessellationShader),
    REQUIRE(SampleRateShading, core, sampleRateShading),
    REQUIRE(Float64, core, shaderFloat64),
    REQUIRE(Int64, core, shaderInt64),
    REQUIRE(Int16, core, shaderInt16),
    REQUIRE(ImageCubeArray, core, imageCubeArray),
    REQUIRE(StorageImageMultisample, core, shaderStorageImageMultisample),
    REQUIRE(StorageImageExtendedFormats, core,
            shaderStorageImageExtendedFormats),
    REQUIRE(StorageImageReadWithoutFormat, core,
            shaderStorageImageReadWithoutFormat),
    REQUIRE(StorageImageWriteWithoutFormat, core,
            shaderStorageImageWriteWithoutFormat),
    REQUIRE(StorageBuffer16BitAccess, v11, storageBuffer16BitAccess),
    REQUIRE(UniformAndStorageBuffer16BitAccess, v11,
            uniformAndStorageBuffer16BitAccess),
    REQUIRE(StoragePushConstant16, v11, storagePushConstant16),
    REQUIRE(StorageInputOutput16, v11, storageInputOutput16),
    REQUIRE(Int8, v12, shaderInt8),
    REQUIRE(StorageBuffer8BitAccess, v12, storageBuffer8BitAccess),
    REQUIRE(UniformAndStorageBuffer8BitAccess, v12,
            uniformAndStorageBuffer8BitAccess),
    REQUIRE(StoragePushConstant8, v12, storagePushConstant8),
    REQUIRE(Float16, v12, shaderFloat16),
    REQUIRE(RuntimeDescriptorArray, v12, runtimeDescriptorArray),
    REQUIRE(UniformBufferArrayNonUniformIndexing, v12,
            shaderUniformBufferArrayNonUniformIndexing),
    REQUIRE(SampledImageArrayNonUniformIndexing, v12,
            shaderSampledImageArrayNonUniformIndexing),
    REQUIRE(StorageBufferArrayNonUniformIndexing, v12,
            shaderStorageBufferArrayNonUniformIndexing),
    REQUIRE(StorageImageArrayNonUniformIndexing, v12,
            shaderStorageImageArrayNonUniformIndexing),
    REQUIRE(UniformTexelBufferArrayNonUniformIndexing, v12,
            shaderUniformTexelBufferArrayNonUniformIndexing),
    REQUIRE(StorageTexelBufferArrayNonUniformIndexing, v12,
            shaderStorageTexelBufferArrayNonUniformIndexing),
    REQUIRE(VulkanMemoryModel, v12, vulkanMemoryModel),
    REQUIRE(PhysicalStorageBufferAddresses, v12, bufferDeviceAddress),
    REQUIRE(Int64Atomics, v12, shaderBufferInt64Atomics),
    REQUIRE(VariablePointersStorageBuffer, v11, variablePointersStorageBuffer),
    REQUIRE(VariablePointers, v11, variablePointers),
    REQUIRE(DotProduct, v13, shaderIntegerDotProduct),
};

#undef REQUIRE

} // namespace

std::optional<std::string>
spvb::vulkan::findMissingFeature(llvm::ArrayRef<uint32_t> words,
                                 const DeviceFeatures &features) {
  constexpr size_t kHeaderWords = 5;
  for (size_t i = kHeaderWords; i < words.size();) {
    uint32_t count = words[i] >> spv::WordCountShift;
    uint32_t opcode = words[i] & spv::OpCodeMask;
    if (count == 0 || i + count > words.size())
      return std::nullopt; // The validator has the last word on bad modules.
    if (opcode == spv::OpCapability && count >= 2)
      for (const Requirement &requirement : kRequirements)
        if (words[i + 1] == requirement.capability &&
            !requirement.enabled(features))
          return std::string("capability ") + requirement.capabilityName +
                 " needs " + requirement.featureName;
    // Capabilities come first in a module.
    if (opcode != spv::OpCapability && opcode != spv::OpNop)
      return std::nullopt;
    i += count;
  }
  return std::nullopt;
}

bool spvb::vulkan::writesStagePointSize(llvm::ArrayRef<uint32_t> words) {
  // A store to a variable decorated PointSize, or an access chain from an
  // Output variable through a PointSize member's index (a constant), in a
  // module with a tessellation or geometry entry point.
  constexpr size_t kHeaderWords = 5;
  bool stage = false;
  std::set<uint32_t> pointSizeVariables;
  std::map<uint32_t, uint32_t> pointSizeMembers; // struct -> member
  std::map<uint32_t, uint32_t> constants, pointees, outputVariables;
  auto forEach = [&](auto &&visit) {
    for (size_t i = kHeaderWords; i < words.size();) {
      uint32_t count = words[i] >> spv::WordCountShift;
      if (count == 0 || i + count > words.size())
        return;
      visit(words[i] & spv::OpCodeMask, words.slice(i + 1, count - 1));
      i += count;
    }
  };
  forEach([&](uint32_t opcode, llvm::ArrayRef<uint32_t> args) {
    if (opcode == spv::OpEntryPoint && !args.empty())
      stage |= args[0] == spv::ExecutionModelTessellationControl ||
               args[0] == spv::ExecutionModelTessellationEvaluation ||
               args[0] == spv::ExecutionModelGeometry;
    else if (opcode == spv::OpDecorate && args.size() == 3 &&
             args[1] == spv::DecorationBuiltIn &&
             args[2] == spv::BuiltInPointSize)
      pointSizeVariables.insert(args[0]);
    else if (opcode == spv::OpMemberDecorate && args.size() == 4 &&
             args[2] == spv::DecorationBuiltIn &&
             args[3] == spv::BuiltInPointSize)
      pointSizeMembers[args[0]] = args[1];
    else if (opcode == spv::OpConstant && args.size() == 3)
      constants[args[1]] = args[2];
    else if (opcode == spv::OpTypePointer && args.size() == 3)
      pointees[args[0]] = args[2];
    else if (opcode == spv::OpTypeArray && args.size() == 3)
      pointees[args[0]] = args[1]; // an array's element
    else if (opcode == spv::OpVariable && args.size() >= 3 &&
             args[2] == spv::StorageClassOutput)
      outputVariables[args[1]] = args[0];
  });
  if (!stage)
    return false;
  bool writes = false;
  forEach([&](uint32_t opcode, llvm::ArrayRef<uint32_t> args) {
    if (opcode == spv::OpStore && !args.empty())
      writes |= pointSizeVariables.count(args[0]) != 0;
    if ((opcode != spv::OpAccessChain &&
         opcode != spv::OpInBoundsAccessChain) ||
        args.size() < 4)
      return;
    auto base = outputVariables.find(args[2]);
    if (base == outputVariables.end())
      return;
    // The struct the indices reach: through the pointer and any arrays.
    uint32_t type = base->second;
    for (int depth = 0; depth < 4 && pointees.count(type); ++depth)
      type = pointees[type];
    auto member = pointSizeMembers.find(type);
    if (member == pointSizeMembers.end())
      return;
    for (uint32_t index : args.drop_front(3)) {
      auto value = constants.find(index);
      if (value != constants.end() && value->second == member->second)
        writes = true;
    }
  });
  return writes;
}
