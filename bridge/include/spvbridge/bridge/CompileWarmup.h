//===- CompileWarmup.h - A process's first compile, prepared ----*- C++ -*-===//
//
// A process's first compile spends a third of a small kernel's time on
// things no kernel decides: loading the MLIR dialects into a context and
// building the host target machine with its subtarget's tables. A second
// thread makes them from the start of the compiler's creation on, while
// the caller makes the JIT and reads its input, and the first compile
// takes them.
//
// Then the thread runs a small vector loop through LLVM's optimizer and
// code generator, ahead of the first kernel, which finds their code in
// memory: the first time a process runs a pass costs more than the pass.
// SPVBRIDGE_COMPILE_WARMUP=off leaves that step out (spv-amber does, when
// its scripts run side by side and the second core is busy).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_COMPILEWARMUP_H
#define SPVBRIDGE_BRIDGE_COMPILEWARMUP_H

#include "spvbridge/bridge/Compiler.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <atomic>
#include <future>
#include <memory>
#include <thread>

namespace spvb {

class CompileWarmup {
public:
  /// Starts preparing a compile at `level` on a second thread.
  explicit CompileWarmup(OptLevel level);
  /// Stops the thread after its current step, and waits for it.
  ~CompileWarmup();

  /// Tells the thread to stop after its current step: the first compile
  /// is done, or its kernel came from a cache.
  void cancel() { cancelled = true; }

  /// The warm-up's own compile: its loop optimized at `level` and emitted,
  /// stopping between passes once `cancelled` is set.
  static llvm::Error compileLoop(OptLevel level,
                                 const std::atomic<bool> &cancelled);

  /// The MLIR context with the compiler's dialects loaded, if it is ready
  /// (the caller makes its own sooner than it would wait); once.
  std::unique_ptr<mlir::MLIRContext> takeContext();
  /// The host target machine, its subtarget built, once and for `level`,
  /// waiting for it; null otherwise.
  std::unique_ptr<llvm::TargetMachine> takeTargetMachine(OptLevel level);

private:
  OptLevel level;
  std::atomic<bool> cancelled{false};
  std::future<std::unique_ptr<mlir::MLIRContext>> context;
  std::future<std::unique_ptr<llvm::TargetMachine>> machine;
  std::thread thread;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_COMPILEWARMUP_H
