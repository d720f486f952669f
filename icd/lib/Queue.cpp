//===- Queue.cpp - Submissions and the queue's thread ---------------------===//
//
// vkQueueSubmit hands its batches to the device's queue thread and returns;
// the thread runs them in order, each once the semaphores it waits for
// have their values (a timeline semaphore may wait for the host), and
// signals their semaphores and the fence. A failure makes the device lost,
// as a GPU's does: the message goes to stderr and the debug messengers, and
// every later submission and wait returns VK_ERROR_DEVICE_LOST.
//
//===----------------------------------------------------------------------===//
#include "Queue.h"

#include "CommandExecution.h"
#include "DebugUtils.h"
#include "EntryPoints.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdio>

using namespace spvb;
using namespace spvb::icd;

static bool hasValues(llvm::ArrayRef<Device::SemaphoreValue> waits) {
  return llvm::all_of(waits, [](const Device::SemaphoreValue &wait) {
    return wait.semaphore->value >= wait.value;
  });
}

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
    std::string failure;
    for (const Device::Batch &batch : submission.batches) {
      device.changed.wait(
          lock, [&] { return device.stopping || hasValues(batch.waits); });
      if (!hasValues(batch.waits))
        break; // The device is being destroyed.
      // A binary semaphore's wait unsignals it.
      for (const Device::SemaphoreValue &wait : batch.waits)
        if (!wait.semaphore->timeline)
          wait.semaphore->value = 0;
      lock.unlock();
      for (const CommandBuffer *buffer : batch.commandBuffers)
        if (llvm::Error error = executeCommands(device, *buffer)) {
          failure = llvm::toString(std::move(error));
          break;
        }
      lock.lock();
      if (!failure.empty())
        break;
      for (const Device::SemaphoreValue &signal : batch.signals)
        signal.semaphore->value =
            signal.semaphore->timeline
                ? std::max(signal.semaphore->value, signal.value)
                : 1;
      device.changed.notify_all();
    }
    if (!failure.empty()) {
      lock.unlock();
      reportError(device.physicalDevice->instance, failure);
      lock.lock();
      device.lost = true;
    } else if (submission.fence) {
      submission.fence->signaled = true;
    }
    device.running = false;
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

static VkResult enqueue(VkQueue queue, Device::Submission submission) {
  Device &device = *fromHandle<Queue>(queue)->device;
  {
    std::lock_guard<std::mutex> lock(device.mutex);
    if (device.lost)
      return VK_ERROR_DEVICE_LOST;
    device.pending.push_back(std::move(submission));
  }
  device.changed.notify_all();
  return VK_SUCCESS;
}

/// The semaphores and values of one side of a VkSubmitInfo: a binary
/// semaphore's value is 1, a timeline's from VkTimelineSemaphoreSubmitInfo.
static std::vector<Device::SemaphoreValue>
getSemaphoreValues(uint32_t count, const VkSemaphore *semaphores,
                   const uint64_t *values) {
  std::vector<Device::SemaphoreValue> result;
  for (uint32_t i = 0; i < count; ++i) {
    auto *semaphore = fromHandle<Semaphore>(semaphores[i]);
    result.push_back(
        {semaphore, semaphore->timeline && values ? values[i] : 1});
  }
  return result;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueSubmit(VkQueue queue,
                                                uint32_t submitCount,
                                                const VkSubmitInfo *pSubmits,
                                                VkFence fence) {
  Device::Submission submission;
  for (const VkSubmitInfo &info : llvm::ArrayRef(pSubmits, submitCount)) {
    const uint64_t *waitValues = nullptr, *signalValues = nullptr;
    if (auto *timeline = findInChain<VkTimelineSemaphoreSubmitInfo>(
            info.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)) {
      waitValues = timeline->waitSemaphoreValueCount
                       ? timeline->pWaitSemaphoreValues
                       : nullptr;
      signalValues = timeline->signalSemaphoreValueCount
                         ? timeline->pSignalSemaphoreValues
                         : nullptr;
    }
    Device::Batch batch;
    batch.waits = getSemaphoreValues(info.waitSemaphoreCount,
                                     info.pWaitSemaphores, waitValues);
    for (uint32_t i = 0; i < info.commandBufferCount; ++i)
      batch.commandBuffers.push_back(
          fromHandle<CommandBuffer>(info.pCommandBuffers[i]));
    batch.signals = getSemaphoreValues(info.signalSemaphoreCount,
                                       info.pSignalSemaphores, signalValues);
    submission.batches.push_back(std::move(batch));
  }
  submission.fence = fromHandle<Fence>(fence);
  return enqueue(queue, std::move(submission));
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueSubmit2(VkQueue queue,
                                                 uint32_t submitCount,
                                                 const VkSubmitInfo2 *pSubmits,
                                                 VkFence fence) {
  auto values = [](uint32_t count, const VkSemaphoreSubmitInfo *infos) {
    std::vector<Device::SemaphoreValue> result;
    for (const VkSemaphoreSubmitInfo &info : llvm::ArrayRef(infos, count)) {
      auto *semaphore = fromHandle<Semaphore>(info.semaphore);
      result.push_back({semaphore, semaphore->timeline ? info.value : 1});
    }
    return result;
  };
  Device::Submission submission;
  for (const VkSubmitInfo2 &info : llvm::ArrayRef(pSubmits, submitCount)) {
    Device::Batch batch;
    batch.waits = values(info.waitSemaphoreInfoCount, info.pWaitSemaphoreInfos);
    for (uint32_t i = 0; i < info.commandBufferInfoCount; ++i)
      batch.commandBuffers.push_back(
          fromHandle<CommandBuffer>(info.pCommandBufferInfos[i].commandBuffer));
    batch.signals =
        values(info.signalSemaphoreInfoCount, info.pSignalSemaphoreInfos);
    submission.batches.push_back(std::move(batch));
  }
  submission.fence = fromHandle<Fence>(fence);
  return enqueue(queue, std::move(submission));
}

/// The queue family has no VK_QUEUE_SPARSE_BINDING_BIT and no feature
/// allows sparse resources: no valid call reaches this.
VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueBindSparse(VkQueue, uint32_t,
                                                    const VkBindSparseInfo *,
                                                    VkFence) {
  std::fprintf(stderr, "error: vkQueueBindSparse: the queue does not bind "
                       "sparse memory (no queue family has "
                       "VK_QUEUE_SPARSE_BINDING_BIT)\n");
  return VK_ERROR_DEVICE_LOST;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_QueueWaitIdle(VkQueue queue) {
  Device &device = *fromHandle<Queue>(queue)->device;
  return waitFor(device, UINT64_MAX,
                 [&] { return device.pending.empty() && !device.running; });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_DeviceWaitIdle(VkDevice device) {
  Device &owner = *fromHandle<Device>(device);
  return waitFor(owner, UINT64_MAX,
                 [&] { return owner.pending.empty() && !owner.running; });
}

} // extern "C"
