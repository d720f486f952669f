//===- SingleThreadAtomics.h - Plain accesses for one thread ----*- C++ -*-===//
//
// The lowering gives workgroup memory's atomics single-thread scope: one
// host thread runs a workgroup's invocations, one at a time. Such an atomic
// synchronizes with nothing, so it can be a plain load, operation and
// store, without x86's lock prefix (tens of cycles each).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_SINGLETHREADATOMICS_H
#define SPVBRIDGE_TRANSFORMS_SINGLETHREADATOMICS_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Rewrites every atomicrmw and cmpxchg of syncscope("singlethread") into
/// plain accesses. Runs after the invocations are widened into lanes,
/// which runs such atomics lane by lane in order (lanes that hit one
/// address add up as invocations would).
class SingleThreadAtomicsPass
    : public llvm::PassInfoMixin<SingleThreadAtomicsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function,
                              llvm::FunctionAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_SINGLETHREADATOMICS_H
