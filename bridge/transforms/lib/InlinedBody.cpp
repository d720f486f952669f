//===- InlinedBody.cpp - The invocation body the workgroup entries cut ----===//
#include "InlinedBody.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

Function *spvb::cloneInlinedBody(Function &invocation) {
  ValueToValueMapTy map;
  Function *body = CloneFunction(&invocation, map);
  body->setLinkage(GlobalValue::InternalLinkage);
  for (bool inlined = true; inlined;) {
    inlined = false;
    SmallVector<CallBase *> calls;
    for (Instruction &inst : instructions(*body))
      if (auto *call = dyn_cast<CallBase>(&inst))
        if (Function *callee = call->getCalledFunction())
          if (!callee->isDeclaration())
            calls.push_back(call);
    for (CallBase *call : calls) {
      InlineFunctionInfo info;
      if (!InlineFunction(*call, info).isSuccess()) {
        body->eraseFromParent();
        return nullptr;
      }
      inlined = true;
    }
  }
  for (Instruction &inst : make_early_inc_range(instructions(*body)))
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst))
      if (intrinsic->isLifetimeStartOrEnd())
        intrinsic->eraseFromParent();
  return body;
}
