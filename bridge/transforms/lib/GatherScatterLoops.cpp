//===- GatherScatterLoops.cpp - Gathers as loops on slow hosts -----------===//
#include "spvbridge/transforms/GatherScatterLoops.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#define DEBUG_TYPE "spvb-gather-scatter-loops"

ALWAYS_ENABLED_STATISTIC(NumLaneLoops,
                         "Gathers and scatters run as loops over their lanes");

using namespace llvm;
using namespace spvb;

namespace {
/// One masked gather or scatter and what it accesses.
struct MaskedAccess {
  IntrinsicInst *call;
  bool scatter;
  Value *pointers;
  Value *mask;
  Align align;
  FixedVectorType *type;
};
} // namespace

static std::optional<MaskedAccess> getMaskedAccess(Instruction &inst) {
  auto *call = dyn_cast<IntrinsicInst>(&inst);
  if (!call)
    return std::nullopt;
  bool scatter = call->getIntrinsicID() == Intrinsic::masked_scatter;
  if (!scatter && call->getIntrinsicID() != Intrinsic::masked_gather)
    return std::nullopt;
  unsigned pointers = scatter ? 1 : 0;
  auto *type = dyn_cast<FixedVectorType>(
      scatter ? call->getArgOperand(0)->getType() : call->getType());
  MaybeAlign align = call->getParamAlign(pointers);
  if (!type || !align)
    return std::nullopt;
  return MaskedAccess{call,
                      scatter,
                      call->getArgOperand(pointers),
                      call->getArgOperand(pointers + 1),
                      *align,
                      type};
}

static bool isScalarizedOnTarget(const MaskedAccess &access,
                                 const TargetTransformInfo &target) {
  if (access.scatter)
    return !target.isLegalMaskedScatter(access.type, access.align) ||
           target.forceScalarizeMaskedScatter(access.type, access.align);
  return !target.isLegalMaskedGather(access.type, access.align) ||
         target.forceScalarizeMaskedGather(access.type, access.align);
}

/// Keeps the loop over lanes a loop: unrolled, it is the scalarization
/// this pass avoids.
static void markNotToUnroll(BranchInst &latch) {
  LLVMContext &context = latch.getContext();
  MDNode *disable =
      MDNode::get(context, MDString::get(context, "llvm.loop.unroll.disable"));
  MDNode *loop = MDNode::getDistinct(context, {nullptr, disable});
  loop->replaceOperandWith(0, loop);
  latch.setMetadata(LLVMContext::MD_loop, loop);
}

/// access(all lanes) if every lane is active, else a loop over the set bits
/// of the mask: one scalar access per active lane.
static void rewrite(const MaskedAccess &access) {
  IntrinsicInst *call = access.call;
  unsigned lanes = access.type->getNumElements();
  Type *elementType = access.type->getElementType();
  IRBuilder<> b(call);
  Type *bitsType = b.getIntNTy(lanes);
  Value *bits = b.CreateBitCast(access.mask, bitsType, "lanes.bits");
  Value *all = b.CreateICmpEQ(bits, ConstantInt::getAllOnesValue(bitsType));
  Value *none = b.CreateICmpEQ(bits, ConstantInt::get(bitsType, 0));

  BasicBlock *before = call->getParent();
  BasicBlock *after = SplitBlock(
      before, call, static_cast<DominatorTree *>(nullptr), nullptr, nullptr,
      access.scatter ? "lanes.scattered" : "lanes.gathered");
  Function *function = before->getParent();
  LLVMContext &context = function->getContext();
  auto *every = BasicBlock::Create(context, "lanes.every", function, after);
  auto *some = BasicBlock::Create(context, "lanes.some", function, after);
  auto *loop = BasicBlock::Create(context, "lanes.each", function, after);
  before->getTerminator()->eraseFromParent();
  b.SetInsertPoint(before);
  MDBuilder weights(context);
  // Every lane active is the common case: a chunk inside the workgroup
  // without divergence.
  b.CreateCondBr(all, every, some, weights.createLikelyBranchWeights());

  b.SetInsertPoint(every);
  Value *allTrue = ConstantInt::getTrue(
      VectorType::get(b.getInt1Ty(), ElementCount::getFixed(lanes)));
  Value *whole = nullptr;
  if (access.scatter)
    b.CreateMaskedScatter(call->getArgOperand(0), access.pointers, access.align,
                          allTrue);
  else
    whole = b.CreateMaskedGather(access.type, access.pointers, access.align,
                                 allTrue);
  b.CreateBr(after);

  b.SetInsertPoint(some);
  Value *passThrough = access.scatter ? nullptr : call->getArgOperand(2);
  b.CreateCondBr(none, after, loop);

  b.SetInsertPoint(loop);
  PHINode *rest = b.CreatePHI(bitsType, 2, "lanes.rest");
  rest->addIncoming(bits, some);
  PHINode *values = nullptr;
  if (!access.scatter) {
    values = b.CreatePHI(access.type, 2, "lanes.values");
    values->addIncoming(passThrough, some);
  }
  Value *lane = b.CreateBinaryIntrinsic(Intrinsic::cttz, rest, b.getTrue());
  Value *pointer = b.CreateExtractElement(access.pointers, lane);
  Value *next = nullptr;
  if (access.scatter)
    b.CreateAlignedStore(b.CreateExtractElement(call->getArgOperand(0), lane),
                         pointer, access.align);
  else
    next = b.CreateInsertElement(
        values, b.CreateAlignedLoad(elementType, pointer, access.align), lane);
  Value *remaining =
      b.CreateAnd(rest, b.CreateSub(rest, ConstantInt::get(bitsType, 1)));
  rest->addIncoming(remaining, loop);
  if (values)
    values->addIncoming(next, loop);
  markNotToUnroll(*b.CreateCondBr(
      b.CreateICmpNE(remaining, ConstantInt::get(bitsType, 0)), loop, after));

  if (!access.scatter) {
    b.SetInsertPoint(call);
    PHINode *result = b.CreatePHI(access.type, 3);
    result->takeName(call);
    result->addIncoming(whole, every);
    result->addIncoming(passThrough, some);
    result->addIncoming(next, loop);
    call->replaceAllUsesWith(result);
  }
  call->eraseFromParent();
}

PreservedAnalyses
GatherScatterLoopsPass::run(Function &function,
                            FunctionAnalysisManager &analyses) {
  const TargetTransformInfo &target =
      analyses.getResult<TargetIRAnalysis>(function);
  SmallVector<MaskedAccess> accesses;
  for (Instruction &inst : instructions(function))
    if (std::optional<MaskedAccess> access = getMaskedAccess(inst))
      if (!isa<Constant>(access->mask) && isScalarizedOnTarget(*access, target))
        accesses.push_back(*access);
  for (const MaskedAccess &access : accesses) {
    rewrite(access);
    ++NumLaneLoops;
  }
  return accesses.empty() ? PreservedAnalyses::all()
                          : PreservedAnalyses::none();
}
