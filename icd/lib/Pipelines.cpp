//===- Pipelines.cpp - Shader modules, layouts and compute pipelines ------===//
#include "DebugUtils.h"
#include "EntryPoints.h"
#include "Objects.h"

#include "spvbridge/spirv/Reflection.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstring>
#include <new>

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

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateShaderModule(
    VkDevice device, const VkShaderModuleCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkShaderModule *pShaderModule) {
  auto *module = new (std::nothrow) ShaderModule();
  if (!module)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  module->binary.words.assign(pCreateInfo->pCode,
                              pCreateInfo->pCode + pCreateInfo->codeSize / 4);
  // Messages name the module by its number in the device until the
  // application names it (vkSetDebugUtilsObjectNameEXT).
  module->binary.name =
      "shader module " +
      std::to_string(++fromHandle<Device>(device)->shaderModuleCount);
  *pShaderModule = toHandle<VkShaderModule>(module);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyShaderModule(
    VkDevice, VkShaderModule shaderModule, const VkAllocationCallbacks *) {
  delete fromHandle<ShaderModule>(shaderModule);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreatePipelineLayout(
    VkDevice, const VkPipelineLayoutCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkPipelineLayout *pPipelineLayout) {
  auto *layout = new (std::nothrow) PipelineLayout();
  if (!layout)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < pCreateInfo->setLayoutCount; ++i)
    layout->setLayouts.push_back(
        fromHandle<DescriptorSetLayout>(pCreateInfo->pSetLayouts[i]));
  for (uint32_t i = 0; i < pCreateInfo->pushConstantRangeCount; ++i) {
    const VkPushConstantRange &range = pCreateInfo->pPushConstantRanges[i];
    layout->pushConstantSize =
        std::max(layout->pushConstantSize, range.offset + range.size);
  }
  *pPipelineLayout = toHandle<VkPipelineLayout>(layout);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyPipelineLayout(
    VkDevice, VkPipelineLayout pipelineLayout, const VkAllocationCallbacks *) {
  delete fromHandle<PipelineLayout>(pipelineLayout);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateComputePipelines(
    VkDevice device, VkPipelineCache, uint32_t createInfoCount,
    const VkComputePipelineCreateInfo *pCreateInfos,
    const VkAllocationCallbacks *, VkPipeline *pPipelines) {
  Device *owner = fromHandle<Device>(device);
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < createInfoCount; ++i) {
    pPipelines[i] = VK_NULL_HANDLE;
    // Whether a compile is needed is not known before compiling: say it is.
    if (pCreateInfos[i].flags &
        VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
      result = VK_PIPELINE_COMPILE_REQUIRED;
      if (pCreateInfos[i].flags &
          VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)
        return result;
      continue;
    }
    const VkPipelineShaderStageCreateInfo &stage = pCreateInfos[i].stage;
    SpirvBinary binary = fromHandle<ShaderModule>(stage.module)->binary;
    {
      std::lock_guard<std::mutex> lock(owner->namesMutex);
      auto name =
          owner->objectNames.find(reinterpret_cast<uint64_t>(stage.module));
      if (name != owner->objectNames.end())
        binary.name = name->second;
    }
    CompileOptions options = owner->compileOptions;
    options.entryPoint = stage.pName;
    options.executionModel = spv::ExecutionModelGLCompute;
    auto kernel = [&]() -> llvm::Expected<std::shared_ptr<const Kernel>> {
      llvm::Expected<std::vector<SpecConstantValue>> values =
          getSpecializations(binary, stage.pSpecializationInfo);
      if (!values)
        return values.takeError();
      options.specializations = std::move(*values);
      return owner->compiler->compile(binary, options);
    }();
    if (!kernel) {
      // The application sees only the result code: the reason goes to
      // stderr, as every spvbridge error does.
      reportError(owner->physicalDevice->instance,
                  llvm::toString(kernel.takeError()));
      result = VK_ERROR_UNKNOWN;
      continue;
    }
    // SPVB_DEBUG=1 on a module without debug info: the user breaks in its
    // disassembly, and has to learn where that is.
    if (!(*kernel)->listingPath.empty())
      std::fprintf(stderr,
                   "note: %s has no debug info; stepping through its "
                   "disassembly %s\n",
                   binary.name.c_str(), (*kernel)->listingPath.c_str());
    std::shared_ptr<const Kernel> debugKernel;
    if (owner->debugCompiler) {
      CompileOptions debugOptions = options;
      debugOptions.debug = true;
      llvm::Expected<std::shared_ptr<const Kernel>> compiled =
          owner->debugCompiler->compile(binary, debugOptions);
      if (!compiled) {
        reportError(owner->physicalDevice->instance,
                    llvm::toString(compiled.takeError()));
        result = VK_ERROR_UNKNOWN;
        continue;
      }
      debugKernel = std::move(*compiled);
      if (!debugKernel->listingPath.empty() &&
          debugKernel->listingPath != (*kernel)->listingPath)
        std::fprintf(stderr,
                     "note: %s has no debug info; stepping through its "
                     "disassembly %s\n",
                     binary.name.c_str(), debugKernel->listingPath.c_str());
    }
    auto *pipeline = new (std::nothrow) Pipeline();
    if (!pipeline)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    pipeline->kernel = std::move(*kernel);
    pipeline->debugKernel = std::move(debugKernel);
    if (auto *required = findInChain<
            VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
            stage.pNext,
            VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO))
      pipeline->subgroupSize = required->requiredSubgroupSize;
    pPipelines[i] = toHandle<VkPipeline>(pipeline);
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyPipeline(VkDevice device,
                                                VkPipeline pipeline,
                                                const VkAllocationCallbacks *) {
  // Its compiled code goes now; the marked object stays a while.
  if (Pipeline *object = fromHandle<Pipeline>(pipeline)) {
    object->kernel.reset();
    object->debugKernel.reset();
    fromHandle<Device>(device)->quarantine.retire(object);
  }
}

} // extern "C"
