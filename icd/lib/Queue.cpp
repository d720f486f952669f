//===- Queue.cpp - Submission, fences and semaphores ----------------------===//
//
// vkQueueSubmit hands the command buffers to the device's queue thread and
// returns; the thread runs submissions in order, each to completion, and
// signals their fences. Semaphores between submissions of the one queue
// order nothing further. A failure makes the device lost, as a GPU's does:
// the message goes to stderr and the debug messengers, and every later
// submission and wait returns VK_ERROR_DEVICE_LOST.
//
//===----------------------------------------------------------------------===//
#include "Queue.h"

#include "CommandExecution.h"
#include "DebugUtils.h"
#include "EntryPoints.h"
#include "Objects.h"

#include <chrono>
#include <new>

using namespace spvb;
using namespace spvb::icd;

static void runSubmissions(Device &device) {
  std::unique_lock<std::mutex> lock(device.mutex);
  while (true) {
    device.changed.wait(lock, [&] {
      return device.stopping || (!device.pending.empty() && !device.lost);
    });
    if (device.pending.empty() || device.lost)
      return;
    Device::Submission submission = std::move(device.pending.front());
    device.pending.pop_front();
    device.running = true;
    lock.unlock();
    std::string failure;
    for (const CommandBuffer *buffer : submission.commandBuffers)
      if (llvm::Error error = executeCommands(device, *buffer)) {
        failure = llvm::toString(std::move(error));
        break;
      }
    if (!failure.empty())
      reportError(device.physicalDevice->instance, failure);
    lock.lock();
    device.running = false;
    if (!failure.empty())
      device.lost = true;
    else if (submission.fence)
      submission.fence->signaled = true;
    device.changed.notify_all();
  }
}

void spvb::icd::startQueueThread(Device &device) {
  device.queueThread = std::thread([&device] { runSubmissions(device); });
}

void spvb::icd::stopQueueThread(Device &device) {
  {
    std::lock_guard<std::mutex> lock(device.mutex);
    device.stopping = true;
  }
  device.changed.notify_all();
  if (device.queueThread.joinable())
    device.queueThread.join();
}

/// Waits on \p device until \p done holds or the device is lost, at most
/// \p timeout nanoseconds (UINT64_MAX: forever).
template <typename Done>
static VkResult waitFor(Device &device, uint64_t timeout, Done done) {
  std::unique_lock<std::mutex> lock(device.mutex);
  auto finished = [&] { return device.lost || done(); };
  if (timeout == UINT64_MAX)
    device.changed.wait(lock, finished);
  else if (!device.changed.wait_for(lock, std::chrono::nanoseconds(timeout),
                                    finished))
    return VK_TIMEOUT;
  return device.lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

static bool isIdle(const Device &device) {
  return device.pending.empty() && !device.running;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueSubmit(VkQueue queue,
                                                uint32_t submitCount,
                                                const VkSubmitInfo *pSubmits,
                                                VkFence fence) {
  Device &device = *fromHandle<Queue>(queue)->device;
  Device::Submission submission;
  for (uint32_t i = 0; i < submitCount; ++i)
    for (uint32_t b = 0; b < pSubmits[i].commandBufferCount; ++b)
      submission.commandBuffers.push_back(
          fromHandle<CommandBuffer>(pSubmits[i].pCommandBuffers[b]));
  submission.fence = fromHandle<Fence>(fence);
  {
    std::lock_guard<std::mutex> lock(device.mutex);
    if (device.lost)
      return VK_ERROR_DEVICE_LOST;
    device.pending.push_back(std::move(submission));
  }
  device.changed.notify_all();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueWaitIdle(VkQueue queue) {
  Device &device = *fromHandle<Queue>(queue)->device;
  return waitFor(device, UINT64_MAX, [&] { return isIdle(device); });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_DeviceWaitIdle(VkDevice device) {
  Device &owner = *fromHandle<Device>(device);
  return waitFor(owner, UINT64_MAX, [&] { return isIdle(owner); });
}

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
    uint32_t signalled = 0;
    for (uint32_t i = 0; i < fenceCount; ++i)
      signalled += fromHandle<Fence>(pFences[i])->signaled;
    return waitAll ? signalled == fenceCount : signalled > 0;
  });
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *,
                     const VkAllocationCallbacks *, VkSemaphore *pSemaphore) {
  // One queue runs submissions in order: a binary semaphore between them
  // has nothing to carry.
  auto *semaphore = new (std::nothrow) Fence();
  if (!semaphore)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  semaphore->device = fromHandle<Device>(device);
  *pSemaphore = toHandle<VkSemaphore>(semaphore);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySemaphore(
    VkDevice, VkSemaphore semaphore, const VkAllocationCallbacks *) {
  delete fromHandle<Fence>(semaphore);
}

} // extern "C"
