//===- BarrierLoopUnroll.h - Unroll short loops around barriers -*- C++ -*-===//
//
// A loop with a barrier in it makes the workgroup loops cut its body into
// regions that every invocation enters once per iteration, its induction
// variable kept per invocation in scratch memory: a tree reduction's
// `for (s = N / 2; s > 0; s >>= 1) { if (tid < s) ...; barrier(); }` runs
// every step over the whole workgroup, its bound unknown to the region.
// LLVM's full unrolling needs a trip count from scalar evolution, which has
// none for a shift's recurrence. Unrolled, each step is a region of its
// own whose guard `tid < 128` is a constant bound, so its loop covers only
// the invocations that work (WorkgroupLoops' getGuardedBound).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_BARRIERLOOPUNROLL_H
#define SPVBRIDGE_TRANSFORMS_BARRIERLOOPUNROLL_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Fully unrolls each innermost loop that calls the control barrier and
/// whose trip count follows from constants: the exit condition evaluated
/// over its header phis' constant starts and their updates, iteration by
/// iteration, exits within kMaxTrips. The loop must be small enough that
/// its copies stay within kMaxUnrolledSize instructions.
class BarrierLoopUnrollPass
    : public llvm::PassInfoMixin<BarrierLoopUnrollPass> {
public:
  static constexpr unsigned kMaxTrips = 16;
  static constexpr unsigned kMaxUnrolledSize = 2048;

  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_BARRIERLOOPUNROLL_H
