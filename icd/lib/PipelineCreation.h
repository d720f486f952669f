//===- PipelineCreation.h - The vkCreate*Pipelines loop ---------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_PIPELINECREATION_H
#define SPVBRIDGE_ICD_LIB_PIPELINECREATION_H

#include "DebugUtils.h"
#include "Objects.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <new>

namespace spvb::icd {

/// vkCreateComputePipelines and vkCreateGraphicsPipelines: \p make fills a
/// new pipeline from each create info. One that fails leaves its handle
/// null and the result VK_ERROR_UNKNOWN, its reason reported (the
/// application sees only the result code); the others are still made.
template <typename CreateInfo>
VkResult createPipelines(
    Device &device, uint32_t count, const CreateInfo *infos,
    VkPipeline *pipelines,
    llvm::function_ref<llvm::Error(const CreateInfo &, Pipeline &)> make) {
  VkResult result = VK_SUCCESS;
  for (uint32_t i = 0; i < count; ++i) {
    pipelines[i] = VK_NULL_HANDLE;
    // Whether a compile is needed is not known before compiling: say it is.
    if (infos[i].flags &
        VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
      result = VK_PIPELINE_COMPILE_REQUIRED;
      if (infos[i].flags & VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT)
        return result;
      continue;
    }
    std::unique_ptr<Pipeline> pipeline(new (std::nothrow) Pipeline());
    if (!pipeline)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    if (llvm::Error error = make(infos[i], *pipeline)) {
      reportError(device.physicalDevice->instance,
                  llvm::toString(std::move(error)));
      result = VK_ERROR_UNKNOWN;
      continue;
    }
    pipelines[i] = toHandle<VkPipeline>(pipeline.release());
  }
  return result;
}

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_PIPELINECREATION_H
