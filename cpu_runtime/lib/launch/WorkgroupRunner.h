//===- WorkgroupRunner.h - One thread's share of a launch -------*- C++ -*-===//
//
// What a thread needs to run workgroups of one kernel: its Workgroup and
// Private storage (or the region-loop entry's scratch), its fibers and its
// fault trap. The Launcher gives each thread one for a dispatch; a draw
// gives each thread one for its fragment shader and runs the workgroups of
// its own tiles.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPRUNNER_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPRUNNER_H

#include "DispatchState.h"
#include "WorkgroupFibers.h"
#include "checks/FaultTrap.h"

#include "spvbridge/cpu_runtime/GuardedBuffer.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include <mutex>
#include <optional>

namespace spvb::runtime {

/// Checks `kernel` against this runtime and fills `dispatch` for `groups`
/// workgroups with `resources`; `state` collects what the generated code
/// reports.
llvm::Error prepareDispatch(const KernelEntry &kernel,
                            const DispatchResources &resources,
                            std::array<uint32_t, 3> groups,
                            uint32_t defaultSubgroupSize, DispatchState &state,
                            spvb_dispatch &dispatch);

class WorkgroupRunner {
public:
  /// `dispatch` outlives the runner; its fields may change between runs.
  WorkgroupRunner(const KernelEntry &kernel, const spvb_dispatch &dispatch);

  /// Runs one workgroup, on fibers with one invocation through `debug`'s
  /// entry if given. A hardware fault ends it and is returned; the runner
  /// is then unusable. Other errors go to the dispatch's state.
  std::optional<KernelFault> run(std::array<uint32_t, 3> workgroup,
                                 const DebugInvocation *debug = nullptr);
  /// Runs workgroups (0, y, 0) to (count - 1, y, 0) in order, each reported
  /// finished to the race detector as workgroup y * workgroup_count[0] + x;
  /// stops at the first hardware fault, as run(). With `debugFor`, each
  /// runs as run() with the debug invocation it gives for x (or none).
  std::optional<KernelFault>
  runRow(uint32_t count, uint32_t y,
         llvm::function_ref<const DebugInvocation *(uint32_t x)> debugFor =
             nullptr);
  /// Runs workgroups through the kernel's workgroup entry, in runs `next`
  /// names (the first id and how many follow it along x; false when there
  /// are no more), inside one armed fault trap: arming it per workgroup
  /// cost a third of a small kernel's time (saxpy), more in a shared
  /// library, whose thread-local storage takes a call to reach; asking for
  /// each workgroup alone cost about as much as a 64-invocation workgroup.
  /// Stops at the first hardware fault, as run(); the fault names the
  /// workgroup.
  std::optional<KernelFault> runBatch(
      llvm::function_ref<bool(std::array<uint32_t, 3> &, uint32_t &)> next);

private:
  /// The fault `signal` makes of `workgroup`; abandons its fibers.
  KernelFault makeFault(const TrappedSignal &signal,
                        std::array<uint32_t, 3> workgroup);

  const KernelEntry &kernel;
  const spvb_dispatch &dispatch;
  GuardedBuffer shared;
  GuardedBuffer privateStorage;
  /// Every invocation's private memory, for a debug run of a kernel whose
  /// workgroup entry keeps only one's.
  GuardedBuffer debugPrivateStorage;
  uint64_t privateSize;
  WorkgroupFibers fibers;
  spvb_invocation invocation{};
  FaultTrap trap;
};

/// The first hardware fault of a launch in dispatch order (FaultLog.h),
/// from any thread.
class FirstFault {
public:
  /// Keeps \p fault if its workgroup, at \p order, is the earliest yet.
  void report(uint64_t order, KernelFault fault);
  bool any() const { return getEarliest() != UINT64_MAX; }
  /// The order of the fault's workgroup (UINT64_MAX: none).
  uint64_t getEarliest() const {
    return earliest.load(std::memory_order_relaxed);
  }
  /// The launch's error: the earlier of this fault and \p state's; of one
  /// workgroup, \p state's, since a fault the generated code found itself
  /// says more than a signal that may have followed it.
  llvm::Error takeError(DispatchState &state);

private:
  std::mutex mutex;
  std::optional<KernelFault> first;
  std::atomic<uint64_t> earliest{UINT64_MAX};
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPRUNNER_H
