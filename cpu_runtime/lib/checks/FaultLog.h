//===- FaultLog.h - The first fault of a dispatch ---------------*- C++ -*-===//
//
// Faults are found by generated code (spvb_rt_fault) and by the runtime on
// any worker thread; the dispatch fails with the first in dispatch order:
// that of the earliest workgroup (x fastest) with one, and of that
// workgroup the first found, which its single thread makes the first in
// its invocations' order. So the error is the same whatever the threads
// and their timing.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FAULTLOG_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FAULTLOG_H

#include "spvbridge/cpu_runtime/Launcher.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace spvb::runtime {

class FaultLog {
public:
  /// The place of \p workgroup in \p dispatch's order.
  static uint64_t getOrder(const spvb_dispatch &dispatch,
                           const uint32_t workgroup[3]);

  /// Whether a fault of the workgroup at \p order would be kept (none has
  /// come from it or an earlier one): asked before a message is formatted.
  bool isFirst(uint64_t order) const {
    return order < earliest.load(std::memory_order_relaxed);
  }
  /// Keeps `message` if it is the dispatch's first fault.
  void report(uint64_t order, std::string message,
              ShaderFault::Kind kind = ShaderFault::Kind::Other);
  /// The order of the earliest workgroup with a fault (UINT64_MAX: none);
  /// later workgroups need not run.
  uint64_t getEarliest() const {
    return earliest.load(std::memory_order_relaxed);
  }
  /// The first fault as a ShaderFault, or success.
  llvm::Error takeError();

private:
  std::mutex mutex;
  std::atomic<uint64_t> earliest{UINT64_MAX};
  std::string first;
  ShaderFault::Kind firstKind = ShaderFault::Kind::Other;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FAULTLOG_H
