//===- Queue.h - The queue's thread -----------------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_QUEUE_H
#define SPVBRIDGE_ICD_LIB_QUEUE_H

namespace spvb::icd {

struct Device;

/// Starts the thread that runs \p device's submissions in order.
void startQueueThread(Device &device);
/// Lets it finish what is pending and joins it.
void stopQueueThread(Device &device);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_QUEUE_H
