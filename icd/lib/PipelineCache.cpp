//===- PipelineCache.cpp - VkPipelineCache over the kernel cache ----------===//
//
// Compiled pipelines already persist: every device compiles through the
// kernel disk cache (bridge/KernelCache.h, $SPVBRIDGE_KERNEL_CACHE or
// ~/.cache/spvbridge), keyed by the module, entry point, specialization and
// options, so a later process skips the compile whatever it does with a
// VkPipelineCache. A cache object's data is therefore the header alone,
// with the UUID that says which build it came from.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"

#include <cstring>
#include <new>

using namespace spvb;
using namespace spvb::icd;

namespace {
struct PipelineCache {};
} // namespace

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreatePipelineCache(
    VkDevice, const VkPipelineCacheCreateInfo *, const VkAllocationCallbacks *,
    VkPipelineCache *pPipelineCache) {
  auto *cache = new (std::nothrow) PipelineCache();
  if (!cache)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pPipelineCache = toHandle<VkPipelineCache>(cache);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyPipelineCache(
    VkDevice, VkPipelineCache pipelineCache, const VkAllocationCallbacks *) {
  delete fromHandle<PipelineCache>(pipelineCache);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPipelineCacheData(VkDevice device,
                                                         VkPipelineCache,
                                                         size_t *pDataSize,
                                                         void *pData) {
  VkPipelineCacheHeaderVersionOne header = {};
  header.headerSize = sizeof(header);
  header.headerVersion = VK_PIPELINE_CACHE_HEADER_VERSION_ONE;
  VkPhysicalDeviceProperties properties;
  spvb_GetPhysicalDeviceProperties(
      toHandle<VkPhysicalDevice>(fromHandle<Device>(device)->physicalDevice),
      &properties);
  header.vendorID = properties.vendorID;
  header.deviceID = properties.deviceID;
  std::memcpy(header.pipelineCacheUUID, properties.pipelineCacheUUID,
              VK_UUID_SIZE);
  if (!pData) {
    *pDataSize = sizeof(header);
    return VK_SUCCESS;
  }
  if (*pDataSize < sizeof(header)) {
    *pDataSize = 0;
    return VK_INCOMPLETE;
  }
  std::memcpy(pData, &header, sizeof(header));
  *pDataSize = sizeof(header);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_MergePipelineCaches(
    VkDevice, VkPipelineCache, uint32_t, const VkPipelineCache *) {
  return VK_SUCCESS;
}

} // extern "C"
