//===- StageCompile.cpp - One pipeline stage's shader compiled -----------===//
#include "StageCompile.h"

#include "spvbridge/spirv/Reflection.h"

#include <cstdio>
#include <cstring>

using namespace spvb;
using namespace spvb::icd;

/// The VkSpecializationInfo's values as the compiler takes them: each
/// constant's bytes read as the type the module gives its SpecId.
static llvm::Expected<std::vector<SpecConstantValue>>
getSpecializations(const SpirvBinary &binary,
                   const VkSpecializationInfo *info) {
  std::vector<SpecConstantValue> values;
  if (!info)
    return values;
  llvm::Expected<std::vector<SpecConstantInfo>> specs =
      listSpecConstants(binary);
  if (!specs)
    return specs.takeError();
  for (uint32_t i = 0; i < info->mapEntryCount; ++i) {
    const VkSpecializationMapEntry &entry = info->pMapEntries[i];
    const SpecConstantInfo *spec = nullptr;
    for (const SpecConstantInfo &candidate : *specs)
      if (candidate.specId == entry.constantID)
        spec = &candidate;
    // Vulkan ignores entries for ids the module lacks.
    if (!spec)
      continue;
    if (entry.offset + entry.size > info->dataSize)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "error: VkSpecializationInfo: constant %u at offset %u, %zu bytes, "
          "is past its data of %zu bytes",
          entry.constantID, entry.offset, entry.size, info->dataSize);
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const uint8_t *>(info->pData) + entry.offset,
                std::min<size_t>(entry.size, sizeof(bits)));
    SpecConstantValue value;
    value.id = entry.constantID;
    value.type = spec->type;
    if (spec->type == "bool")
      value.words = {bits != 0 ? 1u : 0u};
    else if (entry.size == 8)
      value.words = {static_cast<uint32_t>(bits),
                     static_cast<uint32_t>(bits >> 32)};
    else
      value.words = {static_cast<uint32_t>(bits)};
    values.push_back(std::move(value));
  }
  return values;
}

/// SPVB_DEBUG=1 on a module without debug info: the user breaks in its
/// disassembly, and has to learn where that is.
static void noteListing(const SpirvBinary &binary, const Kernel &kernel,
                        const Kernel *other = nullptr) {
  if (!kernel.listingPath.empty() &&
      (!other || kernel.listingPath != other->listingPath))
    std::fprintf(stderr,
                 "note: %s has no debug info; stepping through its "
                 "disassembly %s\n",
                 binary.name.c_str(), kernel.listingPath.c_str());
}

llvm::Expected<CompiledStage>
spvb::icd::compileStage(Device &device,
                        const VkPipelineShaderStageCreateInfo &stage,
                        spv::ExecutionModel model) {
  SpirvBinary binary = fromHandle<ShaderModule>(stage.module)->binary;
  {
    std::lock_guard<std::mutex> lock(device.namesMutex);
    auto name =
        device.objectNames.find(reinterpret_cast<uint64_t>(stage.module));
    if (name != device.objectNames.end())
      binary.name = name->second;
  }
  CompileOptions options = device.compileOptions;
  options.entryPoint = stage.pName;
  options.executionModel = model;
  CompiledStage compiled;
  if (auto *required = findInChain<
          VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          stage.pNext,
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO))
    compiled.requiredSubgroupSize = required->requiredSubgroupSize;
  options.subgroupSize = compiled.requiredSubgroupSize
                             ? compiled.requiredSubgroupSize
                             : device.physicalDevice->environment.subgroupSize;
  llvm::Expected<std::vector<SpecConstantValue>> values =
      getSpecializations(binary, stage.pSpecializationInfo);
  if (!values)
    return values.takeError();
  options.specializations = std::move(*values);
  llvm::Expected<std::shared_ptr<const Kernel>> kernel =
      device.compiler->compile(binary, options);
  if (!kernel)
    return kernel.takeError();
  compiled.kernel = std::move(*kernel);
  noteListing(binary, *compiled.kernel);
  if (device.debugCompiler) {
    CompileOptions debugOptions = options;
    debugOptions.debug = true;
    llvm::Expected<std::shared_ptr<const Kernel>> debugKernel =
        device.debugCompiler->compile(binary, debugOptions);
    if (!debugKernel)
      return debugKernel.takeError();
    compiled.debugKernel = std::move(*debugKernel);
    noteListing(binary, *compiled.debugKernel, compiled.kernel.get());
  }
  return compiled;
}
