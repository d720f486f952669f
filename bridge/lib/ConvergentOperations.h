//===- ConvergentOperations.h - Barriers and subgroup calls in LLVM -*- C++
//-*-===//
//
// Barriers and subgroup operations are meetings of invocations, which LLVM
// must neither duplicate into divergent paths nor reorder against each other,
// and which the runtime must schedule so that invocations that diverged meet
// again at the next one.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_CONVERGENTOPERATIONS_H
#define SPVBRIDGE_BRIDGE_CONVERGENTOPERATIONS_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Marks every defined function and the runtime's barrier and subgroup calls
/// `convergent`, so that no optimization makes a barrier control-dependent
/// on a value that differs between invocations (jump threading would
/// otherwise duplicate a barrier into both arms of a divergent branch).
void markConvergentOperations(llvm::Module &module);

/// Numbers the `site` argument of every spvb_rt_subgroup call, per function,
/// in a topological order of the CFG where a loop's blocks come before the
/// blocks its exits lead to. The runtime runs the lowest waiting site first,
/// so an invocation that left a loop early waits there for the others. Runs
/// last, when no pass will duplicate a call any more.
class SubgroupSitesPass : public llvm::PassInfoMixin<SubgroupSitesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_CONVERGENTOPERATIONS_H
