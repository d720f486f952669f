//===- Pipelines.cpp - Shader modules, layouts and compute pipelines ------===//
#include "EntryPoints.h"
#include "Objects.h"
#include "PipelineCreation.h"
#include "StageCompile.h"

#include "llvm/Support/Error.h"

#include <new>

using namespace spvb;
using namespace spvb::icd;

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
  Device &owner = *fromHandle<Device>(device);
  return createPipelines<VkComputePipelineCreateInfo>(
      owner, createInfoCount, pCreateInfos, pPipelines,
      [&](const VkComputePipelineCreateInfo &info,
          Pipeline &pipeline) -> llvm::Error {
        llvm::Expected<CompiledStage> compiled =
            compileStage(owner, info.stage, spv::ExecutionModelGLCompute);
        if (!compiled)
          return compiled.takeError();
        pipeline.kernel = std::move(compiled->kernel);
        pipeline.debugKernel = std::move(compiled->debugKernel);
        pipeline.subgroupSize = compiled->requiredSubgroupSize;
        return llvm::Error::success();
      });
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyPipeline(VkDevice device,
                                                VkPipeline pipeline,
                                                const VkAllocationCallbacks *) {
  // Its compiled code goes now; the marked object stays a while.
  if (Pipeline *object = fromHandle<Pipeline>(pipeline)) {
    object->kernel.reset();
    object->debugKernel.reset();
    object->graphics.reset();
    fromHandle<Device>(device)->quarantine.retire(object);
  }
}

} // extern "C"
