//===- VulkanFeatures.cpp - The device features a shader needs ------------===//
#include "VulkanFeatures.h"

#include <spirv/unified1/spirv.hpp>

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
