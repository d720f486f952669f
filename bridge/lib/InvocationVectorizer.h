//===- InvocationVectorizer.h - Invocations in SIMD lanes -------*- C++ -*-===//
//
// Whole-function vectorization across invocations (the SPMD-on-SIMD scheme
// of ISPC and Intel's OpenCL CPU runtime): a kernel without barriers gets a
// workgroup entry that runs its invocations W at a time, one per SIMD lane
// of the host (W = the vector register width in 32-bit lanes), with
// divergent branches and loops masked. A kernel it cannot take keeps the
// scalar loop over its invocations.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_INVOCATIONVECTORIZER_H
#define SPVBRIDGE_BRIDGE_INVOCATIONVECTORIZER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace spvb {

class InvocationVectorizerPass
    : public llvm::PassInfoMixin<InvocationVectorizerPass> {
public:
  explicit InvocationVectorizerPass(llvm::TargetMachine &machine)
      : machine(machine) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);

private:
  llvm::TargetMachine &machine;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_INVOCATIONVECTORIZER_H
