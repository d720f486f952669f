//===- Device.cpp - vkCreateDevice and its queues -------------------------===//
#include "EntryPoints.h"
#include "Extensions.h"
#include "Objects.h"
#include "ProcAddr.h"

#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDevice(
    VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkDevice *pDevice) {
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i)
    if (!isExtensionSupported(pCreateInfo->ppEnabledExtensionNames[i],
                              /*instance=*/false))
      return VK_ERROR_EXTENSION_NOT_PRESENT;
  // Every requested feature must be one we report.
  if (const VkPhysicalDeviceFeatures *wanted = pCreateInfo->pEnabledFeatures) {
    VkPhysicalDeviceFeatures supported;
    spvb_GetPhysicalDeviceFeatures(physicalDevice, &supported);
    const auto *want = reinterpret_cast<const VkBool32 *>(wanted);
    const auto *have = reinterpret_cast<const VkBool32 *>(&supported);
    for (size_t i = 0; i < sizeof(supported) / sizeof(VkBool32); ++i)
      if (want[i] && !have[i])
        return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  auto *device = new (std::nothrow) Device();
  if (!device)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  device->physicalDevice = fromHandle<PhysicalDevice>(physicalDevice);
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo &info = pCreateInfo->pQueueCreateInfos[i];
    for (uint32_t q = 0; q < info.queueCount; ++q) {
      auto queue = std::make_unique<Queue>();
      queue->device = device;
      queue->family = info.queueFamilyIndex;
      queue->index = q;
      device->queues.push_back(std::move(queue));
    }
  }
  *pDevice = toHandle<VkDevice>(device);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyDevice(VkDevice device,
                                              const VkAllocationCallbacks *) {
  delete fromHandle<Device>(device);
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceQueue(VkDevice device,
                                               uint32_t queueFamilyIndex,
                                               uint32_t queueIndex,
                                               VkQueue *pQueue) {
  *pQueue = VK_NULL_HANDLE;
  for (const std::unique_ptr<Queue> &queue : fromHandle<Device>(device)->queues)
    if (queue->family == queueFamilyIndex && queue->index == queueIndex)
      *pQueue = toHandle<VkQueue>(queue.get());
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceQueue2(
    VkDevice device, const VkDeviceQueueInfo2 *pQueueInfo, VkQueue *pQueue) {
  spvb_GetDeviceQueue(device, pQueueInfo->queueFamilyIndex,
                      pQueueInfo->queueIndex, pQueue);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
spvb_GetDeviceProcAddr(VkDevice device, const char *pName) {
  return getDeviceProcAddr(device, pName);
}

/// Nothing runs asynchronously yet: submissions are not implemented.
VKAPI_ATTR VkResult VKAPI_CALL spvb_DeviceWaitIdle(VkDevice) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueWaitIdle(VkQueue) {
  return VK_SUCCESS;
}

} // extern "C"
