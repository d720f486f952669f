//===- WorkgroupFibers.h - One workgroup's invocations on fibers -*- C++
//-*-===//
//
// For kernels with barriers: every invocation of a workgroup runs on its own
// fiber (Boost.Context). spvb_rt_control_barrier switches back to the
// scheduler, which resumes the invocations round by round: a round ends when
// every invocation has reached a barrier or returned.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPFIBERS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPFIBERS_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>

#include <string>
#include <vector>

namespace spvb::runtime {

class WorkgroupFibers {
public:
  WorkgroupFibers();

  /// Runs the workgroup `group.workgroup_id` of `entry`; `privateStorage`
  /// holds `privateSize` bytes per invocation. Returns an error message, or
  /// "" on success.
  std::string run(spvb_entry_fn entry, const spvb_dispatch &dispatch,
                  const spvb_invocation &group,
                  std::vector<uint8_t> &privateStorage, uint64_t privateSize);

  /// The invocation side of a barrier: back to the scheduler until the
  /// next round.
  static void waitAtBarrier(spvb_invocation *invocation);

private:
  enum class State { Ready, AtBarrier, Done };
  struct Invocation {
    spvb_invocation block;
    State state = State::Ready;
    boost::context::fiber fiber;
    boost::context::fiber *scheduler = nullptr;
  };
  std::vector<Invocation> invocations;
  boost::context::pooled_fixedsize_stack stacks;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_WORKGROUPFIBERS_H
