//===- Queue.cpp - Submission, fences and semaphores ----------------------===//
//
// A submission runs to completion before vkQueueSubmit returns, so fences
// are signalled there and semaphores order nothing further. A fault makes
// the device lost, as a GPU's does: the message goes to stderr, and this and
// every later submission and wait return VK_ERROR_DEVICE_LOST.
//
//===----------------------------------------------------------------------===//
#include "CommandExecution.h"
#include "DebugUtils.h"
#include "EntryPoints.h"
#include "Objects.h"

#include <cstdio>
#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueSubmit(VkQueue queue,
                                                uint32_t submitCount,
                                                const VkSubmitInfo *pSubmits,
                                                VkFence fence) {
  Device &device = *fromHandle<Queue>(queue)->device;
  std::lock_guard<std::mutex> lock(device.submitMutex);
  if (device.lost)
    return VK_ERROR_DEVICE_LOST;
  for (uint32_t i = 0; i < submitCount; ++i)
    for (uint32_t b = 0; b < pSubmits[i].commandBufferCount; ++b) {
      const CommandBuffer &buffer =
          *fromHandle<CommandBuffer>(pSubmits[i].pCommandBuffers[b]);
      if (llvm::Error error = executeCommands(device, buffer)) {
        reportError(device.physicalDevice->instance,
                    llvm::toString(std::move(error)));
        device.lost = true;
        return VK_ERROR_DEVICE_LOST;
      }
    }
  if (Fence *signalled = fromHandle<Fence>(fence))
    signalled->signaled = true;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateFence(VkDevice, const VkFenceCreateInfo *pCreateInfo,
                 const VkAllocationCallbacks *, VkFence *pFence) {
  auto *fence = new (std::nothrow) Fence();
  if (!fence)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  fence->signaled = pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT;
  *pFence = toHandle<VkFence>(fence);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyFence(VkDevice, VkFence fence,
                                             const VkAllocationCallbacks *) {
  delete fromHandle<Fence>(fence);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetFences(VkDevice, uint32_t fenceCount,
                                                const VkFence *pFences) {
  for (uint32_t i = 0; i < fenceCount; ++i)
    fromHandle<Fence>(pFences[i])->signaled = false;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetFenceStatus(VkDevice device,
                                                   VkFence fence) {
  if (fromHandle<Device>(device)->lost)
    return VK_ERROR_DEVICE_LOST;
  return fromHandle<Fence>(fence)->signaled ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_WaitForFences(VkDevice device,
                                                  uint32_t fenceCount,
                                                  const VkFence *pFences,
                                                  VkBool32 waitAll, uint64_t) {
  if (fromHandle<Device>(device)->lost)
    return VK_ERROR_DEVICE_LOST;
  // Nothing is in flight: an unsignalled fence was never submitted, and
  // waiting for it would never end.
  uint32_t signalled = 0;
  for (uint32_t i = 0; i < fenceCount; ++i)
    signalled += fromHandle<Fence>(pFences[i])->signaled;
  bool done = waitAll ? signalled == fenceCount : signalled > 0;
  return done ? VK_SUCCESS : VK_TIMEOUT;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateSemaphore(VkDevice, const VkSemaphoreCreateInfo *,
                     const VkAllocationCallbacks *, VkSemaphore *pSemaphore) {
  // Submissions complete in order: a semaphore has nothing to carry.
  auto *semaphore = new (std::nothrow) Fence();
  if (!semaphore)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pSemaphore = toHandle<VkSemaphore>(semaphore);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySemaphore(
    VkDevice, VkSemaphore semaphore, const VkAllocationCallbacks *) {
  delete fromHandle<Fence>(semaphore);
}

} // extern "C"
