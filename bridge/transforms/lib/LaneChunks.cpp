//===- LaneChunks.cpp - Bodies run in chunks of SIMD lanes ----------------===//
#include "LaneChunks.h"

#include "LaneDivergence.h"
#include "LaneMasks.h"
#include "LaneSubgroups.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/DCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/Scalarizer.h"
#include "llvm/Transforms/Scalar/StructurizeCFG.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/LowerSwitch.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/UnifyFunctionExitNodes.h"
#include "llvm/Transforms/Utils/UnifyLoopExits.h"

#include <algorithm>
#include <cstddef>

#define DEBUG_TYPE "spvb-lanes"

using namespace llvm;
using namespace spvb;

unsigned spvb::getLaneCount(TargetMachine *machine, const Function &invocation,
                            uint32_t invocations, unsigned forced) {
  if (invocations < 2)
    return 0;
  unsigned width = forced;
  if (!width && machine)
    width =
        std::clamp(unsigned(machine->getTargetTransformInfo(invocation)
                                .getRegisterBitWidth(
                                    TargetTransformInfo::RGK_FixedWidthVector)
                                .getFixedValue() /
                            32),
                   4u, 16u);
  return std::min<uint64_t>(width, PowerOf2Ceil(invocations));
}

/// Runtime calls whose meaning depends on running the invocations one
/// after the other (printf's output order) or all together (subgroups,
/// barriers), and the checks that report the first fault of a dispatch in
/// invocation order.
static bool keepsInvocationOrder(const CallBase &call, bool fragment,
                                 bool subgroupChunks) {
  StringRef callee = call.getCalledFunction()->getName();
  // Derivatives of a fragment shader's quads are shuffles of four lanes.
  if (callee == abi::kSubgroup)
    return !(fragment && isQuadDerivative(call)) &&
           !(subgroupChunks && getLaneSubgroupCall(call));
  return callee == abi::kControlBarrier || callee == abi::kPrintf ||
         callee == abi::kRecordAccess || callee == abi::kUndefined ||
         callee == abi::kFault;
}

/// Reductions of SPIR-V vectors (dot products) become scalar operations in
/// the same order, which the scalarizer can then take apart.
static void expandReductions(Function &function) {
  SmallVector<IntrinsicInst *> reductions;
  for (Instruction &inst : instructions(function))
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(&inst))
      if (isa<FixedVectorType>(
              intrinsic->getArgOperand(intrinsic->arg_size() - 1)->getType()))
        reductions.push_back(intrinsic);
  for (IntrinsicInst *call : reductions) {
    Intrinsic::ID id = call->getIntrinsicID();
    unsigned opcode = 0;
    Intrinsic::ID minMax = Intrinsic::not_intrinsic;
    switch (id) {
    case Intrinsic::vector_reduce_fadd:
    case Intrinsic::vector_reduce_fmul:
    case Intrinsic::vector_reduce_add:
    case Intrinsic::vector_reduce_mul:
    case Intrinsic::vector_reduce_and:
    case Intrinsic::vector_reduce_or:
    case Intrinsic::vector_reduce_xor:
      opcode = getArithmeticReductionInstruction(id);
      break;
    case Intrinsic::vector_reduce_smax:
    case Intrinsic::vector_reduce_smin:
    case Intrinsic::vector_reduce_umax:
    case Intrinsic::vector_reduce_umin:
    case Intrinsic::vector_reduce_fmax:
    case Intrinsic::vector_reduce_fmin:
    case Intrinsic::vector_reduce_fmaximum:
    case Intrinsic::vector_reduce_fminimum:
      minMax = getMinMaxReductionIntrinsicOp(id);
      break;
    default:
      continue;
    }
    bool ordered = id == Intrinsic::vector_reduce_fadd ||
                   id == Intrinsic::vector_reduce_fmul;
    Value *vector = call->getArgOperand(ordered ? 1 : 0);
    IRBuilder<> b(call);
    if (isa<FPMathOperator>(call))
      b.setFastMathFlags(call->getFastMathFlags());
    Value *result = ordered ? call->getArgOperand(0) : nullptr;
    unsigned count = cast<FixedVectorType>(vector->getType())->getNumElements();
    for (unsigned i = 0; i < count; ++i) {
      Value *element = b.CreateExtractElement(vector, i);
      result = !result  ? element
               : opcode ? b.CreateBinOp(Instruction::BinaryOps(opcode), result,
                                        element)
                        : b.CreateBinaryIntrinsic(minMax, result, element);
    }
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
}

bool spvb::canRunInLanes(Function &body, bool fragment, bool subgroupChunks) {
  for (Instruction &inst : instructions(body)) {
    auto *call = dyn_cast<CallBase>(&inst);
    if (call && (!call->getCalledFunction() ||
                 keepsInvocationOrder(*call, fragment, subgroupChunks)))
      return false;
  }
  expandReductions(body);
  // Undefined behaviour may do anything, so also return.
  for (BasicBlock &block : body)
    if (auto *unreachable = dyn_cast<UnreachableInst>(block.getTerminator())) {
      ReturnInst::Create(body.getContext(), nullptr,
                         unreachable->getIterator());
      unreachable->eraseFromParent();
    }
  return true;
}

/// Each lane has its own invocation block, so the address of one of its
/// fields has no value common to the lanes: computed again in each block
/// that uses it, it never reaches the phis the structurizer and the loop
/// exits' unification would carry it in.
static void rematerializeBlockAddresses(Function &body) {
  if (body.arg_size() < 2)
    return;
  Argument *block = body.getArg(1);
  SmallVector<GetElementPtrInst *> addresses;
  for (User *user : block->users())
    if (auto *gep = dyn_cast<GetElementPtrInst>(user))
      if (gep->getPointerOperand() == block && gep->hasAllConstantIndices())
        addresses.push_back(gep);
  for (GetElementPtrInst *gep : addresses) {
    for (Use &use : make_early_inc_range(gep->uses())) {
      auto *user = cast<Instruction>(use.getUser());
      Instruction *at = user;
      if (auto *phi = dyn_cast<PHINode>(user))
        at = phi->getIncomingBlock(use)->getTerminator();
      else if (user->getParent() == gep->getParent())
        continue;
      Instruction *copy = gep->clone();
      copy->insertBefore(at->getIterator());
      use.set(copy);
    }
    if (gep->use_empty())
      gep->eraseFromParent();
  }
}

static bool structurize(Function &body, FunctionAnalysisManager &analyses) {
  FunctionPassManager simplify;
  simplify.addPass(SROAPass(SROAOptions::ModifyCFG));
  simplify.addPass(EarlyCSEPass());
  // Each scalar of a SPIR-V vector becomes one SIMD vector.
  ScalarizerPassOptions scalarizer;
  scalarizer.ScalarizeLoadStore = true;
  simplify.addPass(ScalarizerPass(scalarizer));
  simplify.addPass(InstCombinePass());
  simplify.addPass(DCEPass());
  simplify.run(body, analyses);
  rematerializeBlockAddresses(body);
  analyses.invalidate(body, PreservedAnalyses::none());
  FunctionPassManager prepare;
  prepare.addPass(LowerSwitchPass());
  prepare.addPass(UnifyFunctionExitNodesPass());
  prepare.addPass(LoopSimplifyPass());
  prepare.addPass(UnifyLoopExitsPass());
  prepare.run(body, analyses);
  removeUnreachableBlocks(body);
  analyses.clear(body, body.getName());

  LoopInfo &loops = analyses.getResult<LoopAnalysis>(body);
  ReversePostOrderTraversal<const Function *> order(&body);
  if (containsIrreducibleCFG<const BasicBlock *>(order, loops))
    return false;
  FunctionPassManager structure;
  structure.addPass(StructurizeCFGPass(/*SkipUniformRegions=*/true));
  structure.addPass(LCSSAPass());
  structure.run(body, analyses);
  analyses.clear(body, body.getName());
  return !verifyFunction(body, &dbgs());
}

bool spvb::prepareLaneBody(Function &body, unsigned lanes,
                           DenseSet<const Value *> &divergent) {
  LoopAnalysisManager loopAnalyses;
  FunctionAnalysisManager analyses;
  CGSCCAnalysisManager cgscc;
  ModuleAnalysisManager moduleAnalyses;
  analyses.registerPass([] { return getLaneDivergenceAnalysis(); });
  PassBuilder builder;
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(cgscc);
  builder.registerFunctionAnalyses(analyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, analyses, cgscc, moduleAnalyses);
  if (!structurize(body, analyses)) {
    LLVM_DEBUG(dbgs() << "spvb-lanes: " << body.getName()
                      << ": control flow not structured\n");
    return false;
  }
  UniformityInfo &uniformity = analyses.getResult<UniformityInfoAnalysis>(body);
  // The analysis answers by address: take its answers now, before the
  // marks add values that could reuse a deleted value's address.
  for (Argument &argument : body.args())
    if (uniformity.isDivergent(&argument))
      divergent.insert(&argument);
  for (Instruction &inst : instructions(body))
    if (uniformity.isDivergent(&inst))
      divergent.insert(&inst);
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(body);
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(body);
  if (!insertLaneMasks(body, lanes, dominators, loops, uniformity)) {
    LLVM_DEBUG(dbgs() << "spvb-lanes: " << body.getName()
                      << ": cannot place lane masks\n");
    return false;
  }
  // Values leaving a loop whose exits the masks split still pass phis.
  for (Loop *loop : loops)
    formLCSSARecursively(*loop, dominators, &loops, nullptr);
  LLVM_DEBUG(dbgs() << "spvb-lanes: marked body\n" << body);
  return true;
}

void spvb::emitChunkLoop(IRBuilder<> &b, LaneFrame &frame, const ChunkIds &ids,
                         uint32_t limit, BasicBlock *exit, bool laneBlocks,
                         function_ref<Value *(Value *index)> privateMemory) {
  LLVMContext &context = b.getContext();
  Function *function = b.GetInsertBlock()->getParent();
  unsigned lanes = frame.lanes;
  Type *i8 = b.getInt8Ty();
  Type *i32 = b.getInt32Ty();
  uint32_t count = ids.size[0] * ids.size[1] * ids.size[2];
  ElementCount width = ElementCount::getFixed(lanes);
  auto splat32 = [&](uint32_t value) {
    return ConstantVector::getSplat(width, b.getInt32(value));
  };
  Value *blocks = nullptr;
  if (laneBlocks) {
    IRBuilder<> allocas(frame.allocaPoint);
    AllocaInst *storage = allocas.CreateAlloca(
        ArrayType::get(i8, sizeof(spvb_invocation) * lanes), nullptr,
        "invocations");
    storage->setAlignment(Align(alignof(spvb_invocation)));
    SmallVector<Constant *> offsets;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      b.CreateMemCpy(b.CreateConstInBoundsGEP1_64(
                         i8, storage, lane * sizeof(spvb_invocation)),
                     Align(alignof(spvb_invocation)), frame.group,
                     Align(alignof(spvb_invocation)), sizeof(spvb_invocation));
      offsets.push_back(b.getInt64(lane * sizeof(spvb_invocation)));
    }
    blocks = b.CreateInBoundsGEP(i8, storage, ConstantVector::get(offsets));
    frame.laneBlocks = blocks;
  }
  BasicBlock *preheader = b.GetInsertBlock();
  auto *head = BasicBlock::Create(context, "chunk", function);
  auto *done = BasicBlock::Create(context, "chunk.done", function);
  b.CreateBr(head);

  b.SetInsertPoint(head);
  PHINode *base = b.CreatePHI(i32, 2, "base");
  base->addIncoming(b.getInt32(0), preheader);
  SmallVector<Constant *> indices;
  for (unsigned lane = 0; lane < lanes; ++lane)
    indices.push_back(b.getInt32(lane));
  Value *index = b.CreateAdd(b.CreateVectorSplat(lanes, base),
                             ConstantVector::get(indices), "local.index");
  // Chunks that divide the workgroup have no lanes past it.
  b.CreateAlignedStore(count % lanes
                           ? b.CreateICmpULT(index, splat32(count))
                           : Constant::getAllOnesValue(
                                 FixedVectorType::get(b.getInt1Ty(), lanes)),
                       frame.active, frame.active->getAlign());
  Value *local[3] = {index, splat32(0), splat32(0)};
  const uint32_t *size = ids.size;
  if (size[1] * size[2] != 1) {
    local[0] = b.CreateURem(index, splat32(size[0]));
    local[1] =
        b.CreateURem(b.CreateUDiv(index, splat32(size[0])), splat32(size[1]));
    local[2] = b.CreateUDiv(index, splat32(size[0] * size[1]));
  }
  for (int d = 0; d < 3; ++d) {
    frame.localId[d] = local[d];
    frame.globalId[d] = b.CreateAdd(
        b.CreateVectorSplat(lanes,
                            b.CreateMul(ids.groupId[d], b.getInt32(size[d]))),
        local[d]);
  }
  frame.localIndex = index;
  // Lanes past the workgroup divide too: keep their divisor non-zero.
  Value *subgroupSizes = b.CreateVectorSplat(lanes, ids.subgroupSize);
  if (ids.subgroupChunks) {
    // The chunk is the subgroup: one id for all its lanes, which are its
    // local ids.
    frame.subgroupId = b.CreateVectorSplat(
        lanes, b.CreateUDiv(base, b.getInt32(ids.subgroupChunks)));
    frame.subgroupLocalId = ConstantVector::get(indices);
  } else if (count + lanes <= (1u << 24)) {
    // x86 has no vector integer division: a float one is exact here. For
    // a = qb + r below 2^24, a / b <= q + 1 - 1/b and rounding moves it by
    // at most (a / b) 2^-24 < 1/b, so the float quotient, at least q (a
    // float), stays below q + 1 and truncates to q.
    auto *floats = FixedVectorType::get(b.getFloatTy(), lanes);
    frame.subgroupId =
        b.CreateFPToUI(b.CreateFDiv(b.CreateUIToFP(index, floats),
                                    b.CreateUIToFP(subgroupSizes, floats)),
                       index->getType());
    frame.subgroupLocalId =
        b.CreateSub(index, b.CreateMul(frame.subgroupId, subgroupSizes));
  } else {
    frame.subgroupId = b.CreateUDiv(index, subgroupSizes);
    frame.subgroupLocalId = b.CreateURem(index, subgroupSizes);
  }
  frame.oneRow = size[1] * size[2] == 1;
  frame.rowHoldsChunk = frame.oneRow || size[0] % lanes == 0;
  if (Value *memory = privateMemory(index))
    frame.privateMemory = memory;
  if (blocks) {
    Value *all =
        Constant::getAllOnesValue(FixedVectorType::get(b.getInt1Ty(), lanes));
    auto scatter = [&](Value *values, size_t offset) {
      b.CreateMaskedScatter(values, b.CreateGEP(i8, blocks, b.getInt64(offset)),
                            Align(4), all);
    };
    for (int d = 0; d < 3; ++d) {
      scatter(frame.localId[d], offsetof(spvb_invocation, local_id) + 4 * d);
      scatter(frame.globalId[d], offsetof(spvb_invocation, global_id) + 4 * d);
    }
    scatter(index, offsetof(spvb_invocation, local_index));
    scatter(frame.subgroupId, offsetof(spvb_invocation, subgroup_id));
    scatter(frame.subgroupLocalId,
            offsetof(spvb_invocation, subgroup_local_id));
    if (frame.privateMemory)
      b.CreateMaskedScatter(
          frame.privateMemory,
          b.CreateGEP(i8, blocks,
                      b.getInt64(offsetof(spvb_invocation, private_memory))),
          Align(8), all);
  }
  frame.start = head;
  frame.done = done;

  b.SetInsertPoint(done);
  Value *next = b.CreateAdd(base, b.getInt32(lanes));
  base->addIncoming(next, done);
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt32(limit)), head, exit);
}

void spvb::promoteLaneSlots(Function &entry) {
  DominatorTree dominators(entry);
  SmallVector<AllocaInst *> slots;
  for (Instruction &inst : entry.getEntryBlock())
    if (auto *alloca = dyn_cast<AllocaInst>(&inst))
      if (isAllocaPromotable(alloca))
        slots.push_back(alloca);
  PromoteMemToReg(slots, dominators);
}
