//===- WorkgroupLoops.h - Workgroup entries at barriers ---------*- C++ -*-===//
//
// A kernel with barriers runs fastest as a sequence of loops over the
// workgroup's invocations, one loop per stretch of code between barriers
// (pocl's "work-item loops"): the invocations finish one stretch before any
// starts the next, which is what OpControlBarrier promises, at the cost of a
// loop iteration rather than a fiber switch, and LLVM can vectorize the
// loops. Values live across a barrier move into per-invocation arrays in the
// scratch memory the runtime passes as private_memory. In SIMD lanes, each
// loop runs W invocations at a time, as the invocation vectorizer runs a
// kernel without barriers.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_WORKGROUPLOOPS_H
#define SPVBRIDGE_TRANSFORMS_WORKGROUPLOOPS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace spvb {

/// Builds spvb_NAME_workgroup for every kernel whose spvb_NAME_info says it
/// uses barriers or that makes subgroup calls and has no workgroup entry,
/// and records the entry kind and scratch size in spvb_NAME_info. A kernel
/// it cannot transform (subgroup operations that not every invocation
/// reaches exactly once) keeps running on fibers.
///
/// Given the host's `machine` (W from its vector registers) or `lanes` (W
/// itself: tests choose it, so that their output is the same on every
/// host), the regions run in W SIMD lanes where they can, and a fragment
/// shader without barriers whose only subgroup calls are derivatives is
/// left to the invocation vectorizer, which takes them as shuffles within
/// each quad.
///
/// Given the `subgroupSize` S the kernels will be dispatched with (0: not
/// known when compiling), a compute kernel's subgroup instructions run in
/// chunks of S lanes, each one subgroup, where every region holding one can
/// run in lanes; spvb_NAME_info's subgroup_size then says S, and the runtime
/// dispatches it with no other.
class WorkgroupLoopsPass : public llvm::PassInfoMixin<WorkgroupLoopsPass> {
public:
  explicit WorkgroupLoopsPass(llvm::TargetMachine *machine = nullptr,
                              unsigned lanes = 0, unsigned subgroupSize = 0)
      : machine(machine), lanes(lanes), subgroupSize(subgroupSize) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);

private:
  llvm::TargetMachine *machine;
  unsigned lanes;
  unsigned subgroupSize;
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_WORKGROUPLOOPS_H
