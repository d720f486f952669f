//===- ConvergentOperations.cpp - Barriers and subgroup calls -------------===//
#include "spvbridge/transforms/ConvergentOperations.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "spvb-convergent-operations"

using namespace llvm;
using namespace spvb;

ALWAYS_ENABLED_STATISTIC(NumConvergent, "Functions marked convergent");

PreservedAnalyses ConvergentOperationsPass::run(Module &module,
                                                ModuleAnalysisManager &) {
  bool changed = false;
  for (Function &function : module) {
    if (function.isConvergent() ||
        (function.isDeclaration() &&
         function.getName() != abi::kControlBarrier &&
         function.getName() != abi::kSubgroup))
      continue;
    function.setConvergent();
    ++NumConvergent;
    changed = true;
  }
  if (!changed)
    return PreservedAnalyses::all();
  // Only an attribute changed: no CFG or analysis result depends on it.
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}
