//===- SplitInvocationEntry.cpp - The invocation entry, apart -------------===//
#include "spvbridge/transforms/SplitInvocationEntry.h"

#include "KernelInfoGlobals.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace spvb;

/// The global values `function` refers to, through constants too.
static SmallPtrSet<GlobalValue *, 16> getReferencedGlobals(Function &function) {
  SmallPtrSet<GlobalValue *, 16> globals;
  SmallVector<Constant *> worklist;
  SmallPtrSet<Constant *, 32> seen;
  for (Instruction &instruction : instructions(function))
    for (Value *operand : instruction.operands())
      if (auto *constant = dyn_cast<Constant>(operand))
        if (seen.insert(constant).second)
          worklist.push_back(constant);
  while (!worklist.empty()) {
    Constant *constant = worklist.pop_back_val();
    if (auto *global = dyn_cast<GlobalValue>(constant)) {
      globals.insert(global);
      continue;
    }
    for (Value *operand : constant->operands())
      if (auto *inner = dyn_cast<Constant>(operand))
        if (seen.insert(inner).second)
          worklist.push_back(inner);
  }
  return globals;
}

PreservedAnalyses SplitInvocationEntryPass::run(Module &module,
                                                ModuleAnalysisManager &) {
  std::vector<KernelInfoGlobal> kernels = getKernelInfoGlobals(module);
  if (kernels.size() != 1)
    return PreservedAnalyses::all();
  Function *invocation = kernels.front().invocation;
  Function *workgroup = module.getFunction(kernels.front().workgroupSymbol);
  if (!workgroup || workgroup->isDeclaration() || !invocation->use_empty())
    return PreservedAnalyses::all();
  // Both modules' symbols live in one JITDylib per kernel, so what the
  // entry shares with the rest only needs a name and external linkage.
  for (GlobalValue *global : getReferencedGlobals(*invocation)) {
    if (!global->hasLocalLinkage())
      continue;
    if (!global->hasName())
      global->setName("spvb.shared");
    global->setLinkage(GlobalValue::ExternalLinkage);
    global->setVisibility(GlobalValue::DefaultVisibility);
  }
  ValueToValueMapTy values;
  split = CloneModule(module, values, [&](const GlobalValue *global) {
    return global == invocation;
  });
  // The clone declares every global of the module; only the entry's stay.
  for (GlobalValue &global : llvm::make_early_inc_range(split->global_values()))
    if (global.isDeclaration() && global.use_empty())
      global.eraseFromParent();
  invocation->eraseFromParent();
  return PreservedAnalyses::none();
}
