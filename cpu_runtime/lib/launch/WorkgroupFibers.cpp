//===- WorkgroupFibers.cpp - One workgroup's invocations on fibers --------===//
#include "WorkgroupFibers.h"

#include "checks/FaultTrap.h"

#include "llvm/Support/FormatVariadic.h"

#include <optional>
#include <pthread.h>

using namespace spvb::runtime;
namespace ctx = boost::context;

/// Shader functions keep their Function variables on this stack.
static constexpr size_t kFiberStackSize = 256 * 1024;

WorkgroupFibers::WorkgroupFibers() : stacks(kFiberStackSize) {}

void WorkgroupFibers::suspend(spvb_invocation *invocation, State state) {
  auto *self = static_cast<Invocation *>(invocation->runtime);
  self->state = state;
  if (self->thread) {
    self->thread->pass(/*toInvocation=*/false);
    return;
  }
  *self->scheduler = std::move(*self->scheduler).resume();
}

/// "inv 5,0,0": a thread's name for the invocation it runs (Linux keeps 15
/// characters).
static std::string getThreadName(const spvb_invocation &block) {
  std::string name = llvm::formatv("inv {0},{1},{2}", block.global_id[0],
                                   block.global_id[1], block.global_id[2]);
  return name.substr(0, 15);
}

namespace {
/// Names the calling thread for an invocation while it lives.
class ThreadNameScope {
public:
  explicit ThreadNameScope(const std::string &name) {
    pthread_getname_np(pthread_self(), saved, sizeof(saved));
    pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
  }
  ~ThreadNameScope() { pthread_setname_np(pthread_self(), saved); }

private:
  char saved[16] = {};
};
} // namespace

void WorkgroupFibers::Thread::pass(bool toInvocation) {
  std::unique_lock<std::mutex> lock(mutex);
  invocationsTurn = toInvocation;
  changed.notify_all();
  changed.wait(lock, [&] { return invocationsTurn != toInvocation; });
}

void WorkgroupFibers::Thread::waitForTurn() {
  std::unique_lock<std::mutex> lock(mutex);
  changed.wait(lock, [&] { return invocationsTurn; });
}

void WorkgroupFibers::resume(Invocation &inv) {
  if (inv.thread) {
    inv.thread->pass(/*toInvocation=*/true);
    // A returned invocation's thread is gone before the next one runs, so a
    // debugger stopped there lists only live invocations.
    if (inv.state == State::Done)
      inv.thread->thread.join();
    return;
  }
  inv.fiber = std::move(inv.fiber).resume();
}

void WorkgroupFibers::waitAtBarrier(spvb_invocation *invocation) {
  ++static_cast<Invocation *>(invocation->runtime)->barriers;
  suspend(invocation, State::AtBarrier);
}

uint32_t WorkgroupFibers::getBarrierCount(const spvb_invocation *invocation) {
  auto *fiber = static_cast<const Invocation *>(invocation->runtime);
  return fiber ? fiber->barriers : 0;
}

void WorkgroupFibers::waitAtSubgroupOperation(spvb_invocation *invocation,
                                              const SubgroupCall &call) {
  static_cast<Invocation *>(invocation->runtime)->call = call;
  suspend(invocation, State::AtSubgroupOperation);
}

bool WorkgroupFibers::runSubgroupOperations(uint32_t subgroupSize,
                                            std::string &error) {
  bool ran = false;
  for (size_t begin = 0; begin < invocations.size(); begin += subgroupSize) {
    size_t end = std::min<size_t>(begin + subgroupSize, invocations.size());
    uint32_t site = ~0u;
    for (size_t index = begin; index < end; ++index)
      if (invocations[index].state == State::AtSubgroupOperation)
        site = std::min(site, invocations[index].call.site);
    if (site == ~0u)
      continue;
    members.clear();
    for (size_t index = begin; index < end; ++index) {
      Invocation &inv = invocations[index];
      if (inv.state == State::AtSubgroupOperation && inv.call.site == site) {
        members.push_back({uint32_t(index - begin), &inv.call});
        inv.state = State::Ready;
      }
    }
    std::string problem = runSubgroupOperation(members, subgroupSize);
    if (!problem.empty() && error.empty())
      error = "error: " + problem;
    ran = true;
  }
  return ran;
}

std::string WorkgroupFibers::run(spvb_entry_fn entry,
                                 const spvb_dispatch &dispatch,
                                 const spvb_invocation &group,
                                 uint8_t *privateStorage, uint64_t privateSize,
                                 const DebugInvocation *debug) {
  const uint32_t *size = dispatch.workgroup_size;
  uint32_t count = size[0] * size[1] * size[2];
  uint32_t subgroupSize = dispatch.subgroup_size ? dispatch.subgroup_size : 1;
  invocations.resize(count);
  for (uint32_t index = 0; index < count; ++index) {
    Invocation &inv = invocations[index];
    spvb_invocation &block = inv.block;
    block = group;
    block.local_id[0] = index % size[0];
    block.local_id[1] = (index / size[0]) % size[1];
    block.local_id[2] = index / (size[0] * size[1]);
    for (int d = 0; d < 3; ++d)
      block.global_id[d] = group.workgroup_id[d] * size[d] + block.local_id[d];
    block.local_index = index;
    block.subgroup_id = index / subgroupSize;
    block.subgroup_local_id = index % subgroupSize;
    block.private_memory = privateStorage + index * privateSize;
    block.runtime = &inv;
    inv.state = State::Ready;
    inv.barriers = 0;
    bool threaded = debug && debug->wholeWorkgroup;
    spvb_entry_fn code = debug && (threaded || debug->localIndex == index)
                             ? debug->entry
                             : entry;
    if (threaded) {
      inv.thread = std::make_unique<Thread>();
      std::string name =
          debug->threadName.empty()
              ? getThreadName(block)
              : (debug->threadName + "/" + std::to_string(index)).substr(0, 15);
      inv.thread->thread = std::thread([&inv, code, &dispatch, name] {
        pthread_setname_np(pthread_self(), name.c_str());
        inv.thread->waitForTurn();
        FaultTrap trap;
        inv.thread->faulted =
            trap.run([&] { code(&dispatch, &inv.block); }).has_value();
        inv.state = State::Done;
        std::lock_guard<std::mutex> lock(inv.thread->mutex);
        inv.thread->invocationsTurn = false;
        inv.thread->changed.notify_all();
      });
      continue;
    }
    inv.fiber = ctx::fiber(std::allocator_arg, stacks.getAllocator(),
                           [&inv, code, &dispatch](ctx::fiber &&scheduler) {
                             inv.scheduler = &scheduler;
                             code(&dispatch, &inv.block);
                             inv.state = State::Done;
                             return std::move(scheduler);
                           });
  }

  // The debugged invocation's thread is named for it while it runs there.
  std::optional<ThreadNameScope> name;
  if (debug && !debug->wholeWorkgroup && debug->localIndex < count)
    name.emplace(debug->threadName.empty()
                     ? getThreadName(invocations[debug->localIndex].block)
                     : debug->threadName);
  std::string error;
  for (;;) {
    for (Invocation &inv : invocations)
      if (inv.state == State::Ready)
        resume(inv);
    // Subgroup operations complete before the barrier: the invocations
    // waiting at one may still have to reach it.
    if (runSubgroupOperations(subgroupSize, error))
      continue;
    uint32_t done = 0, waiting = 0;
    for (Invocation &inv : invocations) {
      if (inv.state == State::Done) {
        ++done;
        continue;
      }
      ++waiting;
      inv.state = State::Ready;
    }
    if (waiting == 0)
      break;
    // Some returned while others wait: the barrier is never complete. The
    // waiting ones are released (next round) so the dispatch still ends.
    if (done != 0 && error.empty())
      error = llvm::formatv(
          "error: workgroup ({0}, {1}, {2}): {3} of {4} invocations returned "
          "while the others waited at a barrier (every invocation of a "
          "workgroup must reach each OpControlBarrier)",
          group.workgroup_id[0], group.workgroup_id[1], group.workgroup_id[2],
          done, count);
  }
  for (Invocation &inv : invocations) {
    if (!inv.thread)
      continue;
    if (inv.thread->thread.joinable())
      inv.thread->thread.join();
    if (inv.thread->faulted && error.empty())
      error = llvm::formatv(
          "error: invocation ({0}, {1}, {2}) faulted (a debug run of its "
          "workgroup, each invocation on its own thread); rerun without "
          "--debug-invocation to have the fault explained",
          inv.block.global_id[0], inv.block.global_id[1],
          inv.block.global_id[2]);
    inv.thread.reset();
  }
  return error;
}

void WorkgroupFibers::abandon() {
  // Moved into storage that is never destroyed; the stacks are taken back.
  alignas(
      ctx::fiber) static thread_local unsigned char grave[sizeof(ctx::fiber)];
  for (Invocation &inv : invocations)
    new (grave) ctx::fiber(std::move(inv.fiber));
  invocations.clear();
  stacks.reclaimAll();
}

extern "C" void spvb_rt_subgroup(spvb_invocation *invocation, uint32_t opcode,
                                 uint32_t group_operation,
                                 uint32_t cluster_size, uint32_t site,
                                 uint32_t operand_desc, uint32_t result_desc,
                                 const void *operand0, const void *operand1,
                                 void *result) {
  WorkgroupFibers::waitAtSubgroupOperation(
      invocation, {opcode, group_operation, cluster_size, site, operand_desc,
                   result_desc, operand0, operand1, result});
}

extern "C" void spvb_rt_control_barrier(spvb_invocation *invocation, uint32_t,
                                        uint32_t, uint32_t) {
  // Fibers of one workgroup share a host thread, so switching orders their
  // memory accesses; no fence is needed.
  WorkgroupFibers::waitAtBarrier(invocation);
}
