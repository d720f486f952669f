//===- SubgroupSites.h - Where each subgroup call meets ---------*- C++ -*-===//
//
// Subgroup operations are meetings of invocations, which the runtime must
// schedule so that invocations that diverged meet again at the next one.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_SUBGROUPSITES_H
#define SPVBRIDGE_TRANSFORMS_SUBGROUPSITES_H

#include "llvm/IR/PassManager.h"

namespace spvb {

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

#endif // SPVBRIDGE_TRANSFORMS_SUBGROUPSITES_H
