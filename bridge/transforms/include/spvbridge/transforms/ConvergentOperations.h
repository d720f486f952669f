//===- ConvergentOperations.h - Barriers and subgroup calls -----*- C++ -*-===//
//
// Barriers and subgroup operations are meetings of invocations, which LLVM
// must neither duplicate into divergent paths nor reorder against each
// other.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_CONVERGENTOPERATIONS_H
#define SPVBRIDGE_TRANSFORMS_CONVERGENTOPERATIONS_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Marks every defined function and the runtime's barrier and subgroup
/// functions `convergent`, so that no optimization makes a barrier
/// control-dependent on a value that differs between invocations (jump
/// threading would otherwise duplicate a barrier into both arms of a
/// divergent branch). Runs first.
class ConvergentOperationsPass
    : public llvm::PassInfoMixin<ConvergentOperationsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_CONVERGENTOPERATIONS_H
