//===- SkipIdentityAtomics.cpp - Skip atomics that change nothing ---------===//
#include "spvbridge/transforms/SkipIdentityAtomics.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <optional>

#define DEBUG_TYPE "spvb-skip-identity-atomics"

ALWAYS_ENABLED_STATISTIC(NumSkippable,
                         "Atomics skipped when their operand is the identity");

using namespace llvm;
using namespace spvb;

/// The operand that leaves memory unchanged, for the integer operations.
static std::optional<APInt> getIdentity(AtomicRMWInst::BinOp operation,
                                        unsigned bits) {
  switch (operation) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::UMax:
    return APInt::getZero(bits);
  case AtomicRMWInst::And:
  case AtomicRMWInst::UMin:
    return APInt::getAllOnes(bits);
  case AtomicRMWInst::Max:
    return APInt::getSignedMinValue(bits);
  case AtomicRMWInst::Min:
    return APInt::getSignedMaxValue(bits);
  default:
    return std::nullopt;
  }
}

PreservedAnalyses SkipIdentityAtomicsPass::run(Function &function,
                                               FunctionAnalysisManager &) {
  SmallVector<std::pair<AtomicRMWInst *, APInt>> atomics;
  for (Instruction &inst : instructions(function)) {
    auto *rmw = dyn_cast<AtomicRMWInst>(&inst);
    // A constant operand is InstCombine's to fold.
    if (!rmw || !rmw->use_empty() || rmw->isVolatile() ||
        rmw->getOrdering() != AtomicOrdering::Monotonic ||
        !rmw->getType()->isIntegerTy() || isa<Constant>(rmw->getValOperand()))
      continue;
    if (std::optional<APInt> identity = getIdentity(
            rmw->getOperation(), rmw->getType()->getIntegerBitWidth()))
      atomics.emplace_back(rmw, *identity);
  }
  for (auto &[rmw, identity] : atomics) {
    IRBuilder<> b(rmw);
    Value *changes = b.CreateICmpNE(rmw->getValOperand(), b.getInt(identity),
                                    "atomic.changes");
    Instruction *then = SplitBlockAndInsertIfThen(changes, rmw->getIterator(),
                                                  /*Unreachable=*/false);
    rmw->moveBefore(then->getIterator());
    ++NumSkippable;
  }
  return atomics.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}
