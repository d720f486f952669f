//===- WorkgroupFibers.h - One workgroup's invocations on fibers -*- C++
//-*-===//
//
// For kernels with subgroup operations (and --barriers=fibers): every
// invocation of a workgroup runs on its own fiber (Boost.Context). Barriers
// and subgroup operations switch back to the scheduler, which runs every
// ready invocation until it waits, then completes one subgroup operation per
// subgroup (the lowest waiting site, with the invocations waiting there as
// the active ones), and only when nothing else can run, the barrier.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPFIBERS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPFIBERS_H

#include "FiberStacks.h"
#include "SubgroupOperations.h"

#include "spvbridge/cpu_runtime/Launcher.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <boost/context/fiber.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace spvb::runtime {

class WorkgroupFibers {
public:
  WorkgroupFibers();

  /// Runs the workgroup `group.workgroup_id` of `entry` (one invocation
  /// through `debug`'s entry if given); `privateStorage` holds
  /// `privateSize` bytes per invocation. Returns an error message, or ""
  /// on success.
  std::string run(spvb_entry_fn entry, const spvb_dispatch &dispatch,
                  const spvb_invocation &group, uint8_t *privateStorage,
                  uint64_t privateSize, const DebugInvocation *debug = nullptr);
  /// Gives up the fibers of a run a fault left unfinished: destroying them
  /// would unwind frames of the faulting kernel.
  void abandon();

  /// The invocation side of a barrier: back to the scheduler until every
  /// invocation has arrived.
  static void waitAtBarrier(spvb_invocation *invocation);
  /// How many barriers `invocation` has passed: 0 outside fibers (kernels
  /// without barriers).
  static uint32_t getBarrierCount(const spvb_invocation *invocation);
  /// The invocation side of a subgroup operation: back to the scheduler
  /// until the operation has written `call.result`.
  static void waitAtSubgroupOperation(spvb_invocation *invocation,
                                      const SubgroupCall &call);

private:
  enum class State { Ready, AtBarrier, AtSubgroupOperation, Done };
  /// An invocation on a thread of its own (DebugInvocation::
  /// wholeWorkgroup): control passes between it and the scheduler, so that
  /// one runs at a time.
  struct Thread {
    std::thread thread;
    std::mutex mutex;
    std::condition_variable changed;
    bool invocationsTurn = false;
    /// A fault the thread's own trap caught.
    bool faulted = false;
    /// Gives the turn to the invocation (or back to the scheduler) and
    /// waits until it comes back.
    void pass(bool toInvocation);
    /// Waits for the invocation's turn (its start).
    void waitForTurn();
  };
  struct Invocation {
    spvb_invocation block;
    State state = State::Ready;
    SubgroupCall call;
    uint32_t barriers = 0;
    boost::context::fiber fiber;
    boost::context::fiber *scheduler = nullptr;
    std::unique_ptr<Thread> thread;
  };
  static void suspend(spvb_invocation *invocation, State state);
  /// Runs `inv` until it waits or returns.
  static void resume(Invocation &inv);
  /// Completes one operation per subgroup; false if none was waiting.
  bool runSubgroupOperations(uint32_t subgroupSize, std::string &error);

  std::vector<Invocation> invocations;
  std::vector<SubgroupMember> members;
  FiberStacks stacks;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPFIBERS_H
