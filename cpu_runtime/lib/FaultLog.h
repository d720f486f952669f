//===- FaultLog.h - The first fault of a dispatch ---------------*- C++ -*-===//
//
// Faults are found by generated code (spvb_rt_fault) and by the runtime on
// any worker thread; the dispatch fails with the first one.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FAULTLOG_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FAULTLOG_H

#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/Support/Error.h"

#include <mutex>
#include <string>

namespace spvb::runtime {

class FaultLog {
public:
  /// Keeps `message` if it is the dispatch's first fault.
  void report(std::string message,
              ShaderFault::Kind kind = ShaderFault::Kind::Other);
  /// The first fault as a ShaderFault, or success.
  llvm::Error takeError();

private:
  std::mutex mutex;
  std::string first;
  ShaderFault::Kind firstKind = ShaderFault::Kind::Other;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FAULTLOG_H
