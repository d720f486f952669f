//===- GatherScatterLoops.h - Gathers as loops on slow hosts --*- C++ -*-===//
//
// Lanes whose addresses are not consecutive reach memory through masked
// gathers and scatters. Where the host has no fast instruction for them
// (AMD's cores have none; no AVX2 core has a scatter), instruction
// selection scalarizes each into two blocks per lane, and those blocks cost
// more compile time than the rest of a small kernel together. This pass
// gives such an access two compact forms instead: with every lane active,
// the same intrinsic with an all-true mask (straight-line scalar accesses,
// no branches); otherwise a loop over the active lanes.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_GATHERSCATTERLOOPS_H
#define SPVBRIDGE_TRANSFORMS_GATHERSCATTERLOOPS_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Rewrites each llvm.masked.gather and llvm.masked.scatter with a mask
/// that is not all true, where the target would scalarize it, into an
/// all-lanes intrinsic and a loop over the set bits of the mask.
class GatherScatterLoopsPass
    : public llvm::PassInfoMixin<GatherScatterLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_GATHERSCATTERLOOPS_H
