//===- SingleThreadAtomics.cpp - Plain accesses for one thread ------------===//
#include "spvbridge/transforms/SingleThreadAtomics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#define DEBUG_TYPE "spvb-single-thread-atomics"

ALWAYS_ENABLED_STATISTIC(NumPlainAtomics,
                         "Single-thread atomics made plain accesses");

using namespace llvm;
using namespace spvb;

PreservedAnalyses SingleThreadAtomicsPass::run(Function &function,
                                               FunctionAnalysisManager &) {
  SmallVector<Instruction *> atomics;
  for (Instruction &inst : instructions(function)) {
    auto *rmw = dyn_cast<AtomicRMWInst>(&inst);
    auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&inst);
    if ((rmw && rmw->getSyncScopeID() == SyncScope::SingleThread) ||
        (cmpxchg && cmpxchg->getSyncScopeID() == SyncScope::SingleThread))
      atomics.push_back(&inst);
  }
  for (Instruction *inst : atomics) {
    if (auto *rmw = dyn_cast<AtomicRMWInst>(inst))
      lowerAtomicRMWInst(rmw);
    else
      lowerAtomicCmpXchgInst(cast<AtomicCmpXchgInst>(inst));
    ++NumPlainAtomics;
  }
  if (atomics.empty())
    return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}
