//===- PrivateAtomicCopies.h - Threads' copies of buffers -------*- C++ -*-===//
//
// A buffer the kernel only changes by unused relaxed atomics of one
// commutative operation (spvb_private_atomics, kernel_abi.h) is changed by
// plain loads and stores, so each worker thread gets a zero-filled copy of
// it: a histogram's merge, 4096 workgroups adding into 256 bins, ran 46x
// slower than per-thread C bins with locked adds into one buffer. A thread
// folds its copies into the buffers, atomically, when its workgroups are
// done; the copies stay between dispatches, zeroed by the fold. A dispatch
// whose copies do not fit runs on fewer threads, one changing the buffers
// in place.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_PRIVATEATOMICCOPIES_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_PRIVATEATOMICCOPIES_H

#include "spvbridge/cpu_runtime/GuardedBuffer.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include <vector>

namespace spvb::runtime {

class PrivateAtomicCopies {
public:
  /// Prepares a dispatch of `kernel` on up to `threads` threads and returns
  /// how many it may run on: one (in place) if another binding overlaps a
  /// copied buffer, fewer if the copies would take more than
  /// kMaxCopyBytes. The dispatch must outlive the folds.
  unsigned prepare(const KernelEntry &kernel, const spvb_dispatch &dispatch,
                   unsigned threads);
  /// The dispatch thread `thread` runs: its bindings name its copies.
  const spvb_dispatch &getDispatch(unsigned thread) const;
  /// Folds `thread`'s copies into the buffers, zeroing them.
  void fold(unsigned thread);
  /// A fault at `address` in `thread`'s copy, moved to the buffer.
  uintptr_t toBufferAddress(unsigned thread, uintptr_t address) const;

  /// The bytes all threads' copies may take together: a fold reads every
  /// byte of its thread's.
  static constexpr uint64_t kMaxCopyBytes = uint64_t(64) << 20;

private:
  struct ThreadCopies {
    std::vector<GuardedBuffer> copies;
    std::vector<spvb_binding> bindings;
    spvb_dispatch dispatch;
  };
  const spvb_dispatch *original = nullptr;
  /// This dispatch's copied buffers; empty when it changes them in place.
  std::vector<spvb_private_atomics> buffers;
  std::vector<ThreadCopies> threads;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_PRIVATEATOMICCOPIES_H
