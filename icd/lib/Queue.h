//===- Queue.h - The queue's thread -----------------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_QUEUE_H
#define SPVBRIDGE_ICD_LIB_QUEUE_H

#include "Objects.h"

#include <chrono>

namespace spvb::icd {

/// Starts the thread that runs \p device's submissions in order.
void startQueueThread(Device &device);
/// Lets it finish what is pending and joins it.
void stopQueueThread(Device &device);

/// Waits on \p device until \p done holds (called with the device's mutex
/// held) or the device is lost, at most \p timeout nanoseconds (UINT64_MAX:
/// forever): VK_SUCCESS, VK_TIMEOUT or VK_ERROR_DEVICE_LOST.
template <typename Done>
VkResult waitFor(Device &device, uint64_t timeout, Done done) {
  std::unique_lock<std::mutex> lock(device.mutex);
  auto finished = [&] { return device.lost || done(); };
  if (timeout == UINT64_MAX)
    device.changed.wait(lock, finished);
  else if (!device.changed.wait_for(lock, std::chrono::nanoseconds(timeout),
                                    finished))
    return VK_TIMEOUT;
  return device.lost ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_QUEUE_H
