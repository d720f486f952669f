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
#ifndef SPVBRIDGE_TRANSFORMS_INVOCATIONVECTORIZER_H
#define SPVBRIDGE_TRANSFORMS_INVOCATIONVECTORIZER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace spvb {

class InvocationVectorizerPass
    : public llvm::PassInfoMixin<InvocationVectorizerPass> {
public:
  /// W is the host's vector register width in 32-bit lanes (4 to 16), or
  /// \p lanes when given (tests choose it, so their output is the same on
  /// every host).
  explicit InvocationVectorizerPass(llvm::TargetMachine &machine,
                                    unsigned lanes = 0)
      : machine(machine), lanes(lanes) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);

private:
  llvm::TargetMachine &machine;
  unsigned lanes;
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_INVOCATIONVECTORIZER_H
