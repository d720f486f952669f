//===- SkipIdentityAtomics.h - Skip atomics that change nothing -*- C++ -*-===//
//
// A relaxed atomic read-modify-write whose old value nobody reads and whose
// operand is the operation's identity (adding 0, or-ing 0, and-ing all ones,
// a maximum with the least value) leaves memory as it was: no invocation
// can tell it ran. On x86 it is still a locked instruction that takes the
// cache line from the other cores. A histogram's merge of workgroup bins
// into global ones adds many zeros, and hand-written C skips them too.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_SKIPIDENTITYATOMICS_H
#define SPVBRIDGE_TRANSFORMS_SKIPIDENTITYATOMICS_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Puts each monotonic, non-volatile integer atomicrmw with an unused
/// result and a non-constant operand under a branch that skips it when the
/// operand is the operation's identity. Orderings stronger than monotonic
/// keep their atomic: it also orders other accesses.
class SkipIdentityAtomicsPass
    : public llvm::PassInfoMixin<SkipIdentityAtomicsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_SKIPIDENTITYATOMICS_H
