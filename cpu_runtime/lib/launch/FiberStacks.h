//===- FiberStacks.h - Guarded, reused stacks for invocation fibers -*- C++
//-*-===//
//
// Every fiber stack has an inaccessible page below it, so an invocation that
// overflows its stack faults (and FaultTrap reports it) instead of writing
// over its neighbour's. Stacks are kept for the next workgroup, and when the
// FiberStacks goes, for the next runner's.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FIBERSTACKS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FIBERSTACKS_H

#include <boost/context/stack_context.hpp>

#include <cstddef>
#include <vector>

namespace spvb::runtime {

class FiberStacks {
public:
  explicit FiberStacks(size_t size);
  ~FiberStacks();
  FiberStacks(const FiberStacks &) = delete;
  FiberStacks &operator=(const FiberStacks &) = delete;

  /// The StackAllocator a boost::context::fiber is created with.
  class Allocator {
  public:
    explicit Allocator(FiberStacks &stacks) : stacks(&stacks) {}
    boost::context::stack_context allocate() { return stacks->allocate(); }
    void deallocate(boost::context::stack_context &stack) {
      stacks->deallocate(stack);
    }

  private:
    FiberStacks *stacks;
  };
  Allocator getAllocator() { return Allocator(*this); }

  /// Takes every stack back, in use or not: the fibers on them are given up.
  void reclaimAll() { available = all; }

private:
  boost::context::stack_context allocate();
  void deallocate(boost::context::stack_context &stack);
  /// A stack a destroyed FiberStacks of this size left, or null.
  void *takeKept();

  size_t size;
  /// The lowest address of each mapping (its guard page).
  std::vector<void *> all, available;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FIBERSTACKS_H
