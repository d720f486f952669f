//===- Synchronization.cpp - Fences, semaphores and events ----------------===//
//
// All three are values under the device's mutex; whoever changes one
// notifies the device's condition variable, on which the queue thread and
// host waits sleep.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Queue.h"

#include "llvm/ADT/STLExtras.h"

#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateFence(VkDevice device, const VkFenceCreateInfo *pCreateInfo,
                 const VkAllocationCallbacks *, VkFence *pFence) {
  auto *fence = new (std::nothrow) Fence();
  if (!fence)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  fence->device = fromHandle<Device>(device);
  fence->signaled = pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT;
  *pFence = toHandle<VkFence>(fence);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyFence(VkDevice, VkFence fence,
                                             const VkAllocationCallbacks *) {
  delete fromHandle<Fence>(fence);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetFences(VkDevice device,
                                                uint32_t fenceCount,
                                                const VkFence *pFences) {
  std::lock_guard<std::mutex> lock(fromHandle<Device>(device)->mutex);
  for (uint32_t i = 0; i < fenceCount; ++i)
    fromHandle<Fence>(pFences[i])->signaled = false;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetFenceStatus(VkDevice device,
                                                   VkFence fence) {
  Device &owner = *fromHandle<Device>(device);
  std::lock_guard<std::mutex> lock(owner.mutex);
  if (owner.lost)
    return VK_ERROR_DEVICE_LOST;
  return fromHandle<Fence>(fence)->signaled ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_WaitForFences(VkDevice device,
                                                  uint32_t fenceCount,
                                                  const VkFence *pFences,
                                                  VkBool32 waitAll,
                                                  uint64_t timeout) {
  return waitFor(*fromHandle<Device>(device), timeout, [&] {
    auto signaled = [](VkFence fence) {
      return fromHandle<Fence>(fence)->signaled;
    };
    llvm::ArrayRef<VkFence> fences(pFences, fenceCount);
    return waitAll ? llvm::all_of(fences, signaled)
                   : llvm::any_of(fences, signaled);
  });
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *, VkSemaphore *pSemaphore) {
  auto *semaphore = new (std::nothrow) Semaphore();
  if (!semaphore)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  semaphore->device = fromHandle<Device>(device);
  if (auto *type = findInChain<VkSemaphoreTypeCreateInfo>(
          pCreateInfo->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO)) {
    semaphore->timeline = type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
    semaphore->value = semaphore->timeline ? type->initialValue : 0;
  }
  *pSemaphore = toHandle<VkSemaphore>(semaphore);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySemaphore(
    VkDevice, VkSemaphore semaphore, const VkAllocationCallbacks *) {
  delete fromHandle<Semaphore>(semaphore);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetSemaphoreCounterValue(
    VkDevice device, VkSemaphore semaphore, uint64_t *pValue) {
  Device &owner = *fromHandle<Device>(device);
  std::lock_guard<std::mutex> lock(owner.mutex);
  *pValue = fromHandle<Semaphore>(semaphore)->value;
  return owner.lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_WaitSemaphores(
    VkDevice device, const VkSemaphoreWaitInfo *pWaitInfo, uint64_t timeout) {
  return waitFor(*fromHandle<Device>(device), timeout, [&] {
    uint32_t reached = 0;
    for (uint32_t i = 0; i < pWaitInfo->semaphoreCount; ++i)
      reached += fromHandle<Semaphore>(pWaitInfo->pSemaphores[i])->value >=
                 pWaitInfo->pValues[i];
    return pWaitInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT
               ? reached > 0
               : reached == pWaitInfo->semaphoreCount;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_SignalSemaphore(
    VkDevice device, const VkSemaphoreSignalInfo *pSignalInfo) {
  Device &owner = *fromHandle<Device>(device);
  {
    std::lock_guard<std::mutex> lock(owner.mutex);
    Semaphore *semaphore = fromHandle<Semaphore>(pSignalInfo->semaphore);
    semaphore->value = std::max(semaphore->value, pSignalInfo->value);
  }
  owner.changed.notify_all();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateEvent(VkDevice device,
                                                const VkEventCreateInfo *,
                                                const VkAllocationCallbacks *,
                                                VkEvent *pEvent) {
  auto *event = new (std::nothrow) Event();
  if (!event)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  event->device = fromHandle<Device>(device);
  *pEvent = toHandle<VkEvent>(event);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyEvent(VkDevice device, VkEvent event,
                                             const VkAllocationCallbacks *) {
  fromHandle<Device>(device)->quarantine.retire(fromHandle<Event>(event));
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetEventStatus(VkDevice device,
                                                   VkEvent event) {
  Device &owner = *fromHandle<Device>(device);
  std::lock_guard<std::mutex> lock(owner.mutex);
  if (owner.lost)
    return VK_ERROR_DEVICE_LOST;
  return fromHandle<Event>(event)->set ? VK_EVENT_SET : VK_EVENT_RESET;
}

static VkResult setEvent(VkDevice device, VkEvent event, bool set) {
  Device &owner = *fromHandle<Device>(device);
  {
    std::lock_guard<std::mutex> lock(owner.mutex);
    fromHandle<Event>(event)->set = set;
  }
  owner.changed.notify_all();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_SetEvent(VkDevice device, VkEvent event) {
  return setEvent(device, event, true);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetEvent(VkDevice device, VkEvent event) {
  return setEvent(device, event, false);
}

} // extern "C"
