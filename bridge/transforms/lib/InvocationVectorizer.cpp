//===- InvocationVectorizer.cpp - Invocations in SIMD lanes ---------------===//
//
// For each kernel whose workgroup entry is the plain loop over invocations:
// a copy of the invocation body is inlined, its vector values split into
// scalars (each becomes one SIMD vector), its exits unified and its
// divergent control flow structurized (LLVM's StructurizeCFG, told the
// divergence by LaneDivergence); LaneMasks marks where the active lanes
// change and LaneWidening emits the body into a new workgroup entry, a loop
// over chunks of W invocations.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/transforms/InvocationVectorizer.h"

#include "InlinedBody.h"
#include "KernelInfoGlobals.h"
#include "LaneDivergence.h"
#include "LaneMasks.h"
#include "LaneWidening.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
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

#include <cstddef>

#define DEBUG_TYPE "spvb-lanes"

ALWAYS_ENABLED_STATISTIC(NumLaneKernels, "Kernels run in SIMD lanes");
ALWAYS_ENABLED_STATISTIC(NumScalarKernels,
                         "Kernels left to the loop over invocations");

using namespace llvm;
using namespace spvb;

static unsigned infoField(size_t offset) { return offset / sizeof(uint32_t); }

/// Runtime calls whose meaning depends on running the invocations one
/// after the other (printf's output order) or all together (subgroups,
/// barriers), and the checks that report the first fault of a dispatch in
/// invocation order.
static bool keepsInvocationOrder(const CallBase &call, bool fragment) {
  StringRef callee = call.getCalledFunction()->getName();
  // Derivatives of a fragment shader's quads are shuffles of four lanes.
  if (callee == abi::kSubgroup)
    return !fragment || !isQuadDerivative(call);
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

namespace {

class InvocationVectorizer {
public:
  InvocationVectorizer(Module &module, Function &invocation,
                       ArrayRef<uint32_t> info, unsigned lanes)
      : module(module), invocation(invocation), lanes(lanes) {
    for (int d = 0; d < 3; ++d)
      size[d] = info[infoField(offsetof(spvb_kernel_info, workgroup_size)) + d];
    count = size[0] * size[1] * size[2];
    privateSize =
        info[infoField(offsetof(spvb_kernel_info, private_memory_size))];
    fragment = info[infoField(offsetof(spvb_kernel_info, execution_model))] ==
               spv::ExecutionModelFragment;
  }
  ~InvocationVectorizer() {
    if (body)
      body->eraseFromParent();
  }

  /// The new workgroup entry (the caller names it once the old one is
  /// gone), or null if the kernel keeps its scalar entry.
  Function *build();

private:
  bool cloneAndInline();
  bool structurize(FunctionAnalysisManager &analyses);
  Function *emitEntry(const DenseSet<const Value *> &divergent);

  Module &module;
  Function &invocation;
  unsigned lanes;
  uint32_t size[3];
  uint32_t count;
  uint32_t privateSize;
  bool fragment;
  Function *body = nullptr;
};

} // namespace

bool InvocationVectorizer::cloneAndInline() {
  body = cloneInlinedBody(invocation);
  if (!body)
    return false;
  for (Instruction &inst : instructions(*body)) {
    auto *call = dyn_cast<CallBase>(&inst);
    if (call &&
        (!call->getCalledFunction() || keepsInvocationOrder(*call, fragment)))
      return false;
  }
  expandReductions(*body);
  // Undefined behaviour may do anything, so also return.
  for (BasicBlock &block : *body)
    if (auto *unreachable = dyn_cast<UnreachableInst>(block.getTerminator())) {
      ReturnInst::Create(body->getContext(), nullptr,
                         unreachable->getIterator());
      unreachable->eraseFromParent();
    }
  return true;
}

bool InvocationVectorizer::structurize(FunctionAnalysisManager &analyses) {
  FunctionPassManager prepare;
  prepare.addPass(SROAPass(SROAOptions::ModifyCFG));
  prepare.addPass(EarlyCSEPass());
  // Each scalar of a SPIR-V vector becomes one SIMD vector.
  ScalarizerPassOptions scalarizer;
  scalarizer.ScalarizeLoadStore = true;
  prepare.addPass(ScalarizerPass(scalarizer));
  prepare.addPass(InstCombinePass());
  prepare.addPass(DCEPass());
  prepare.addPass(LowerSwitchPass());
  prepare.addPass(UnifyFunctionExitNodesPass());
  prepare.addPass(LoopSimplifyPass());
  prepare.addPass(UnifyLoopExitsPass());
  prepare.run(*body, analyses);
  removeUnreachableBlocks(*body);
  analyses.clear(*body, body->getName());

  LoopInfo &loops = analyses.getResult<LoopAnalysis>(*body);
  ReversePostOrderTraversal<const Function *> order(body);
  if (containsIrreducibleCFG<const BasicBlock *>(order, loops))
    return false;
  FunctionPassManager structure;
  structure.addPass(StructurizeCFGPass(/*SkipUniformRegions=*/true));
  structure.addPass(LCSSAPass());
  structure.run(*body, analyses);
  analyses.clear(*body, body->getName());
  return !verifyFunction(*body, &dbgs());
}

Function *
InvocationVectorizer::emitEntry(const DenseSet<const Value *> &divergent) {
  LLVMContext &context = module.getContext();
  Function *entry = Function::Create(invocation.getFunctionType(),
                                     GlobalValue::ExternalLinkage,
                                     "spvb.lanes.entry", module);
  IRBuilder<> b(BasicBlock::Create(context, "entry", entry));
  Type *i8 = b.getInt8Ty();
  Type *i32 = b.getInt32Ty();
  Type *ptr = b.getPtrTy();
  Value *dispatch = entry->getArg(0);
  Value *group = entry->getArg(1);
  ElementCount width = ElementCount::getFixed(lanes);
  auto splat32 = [&](uint32_t value) {
    return ConstantVector::getSplat(width, b.getInt32(value));
  };
  auto laneOffsets = [&](uint64_t stride) {
    SmallVector<Constant *> offsets;
    for (unsigned lane = 0; lane < lanes; ++lane)
      offsets.push_back(b.getInt64(lane * stride));
    return ConstantVector::get(offsets);
  };
  auto field = [&](Value *base, size_t offset) {
    return b.CreateConstInBoundsGEP1_64(i8, base, offset);
  };

  LaneFrame frame;
  frame.lanes = lanes;
  frame.dispatch = dispatch;
  frame.group = group;
  frame.active = b.CreateAlloca(FixedVectorType::get(b.getInt1Ty(), lanes),
                                nullptr, "active");
  frame.allocaPoint = frame.active;
  Value *groupId[3];
  for (int d = 0; d < 3; ++d)
    groupId[d] = b.CreateAlignedLoad(
        i32, field(group, offsetof(spvb_invocation, workgroup_id) + 4 * d),
        Align(4));
  Value *subgroupSize = b.CreateBinaryIntrinsic(
      Intrinsic::umax,
      b.CreateAlignedLoad(
          i32, field(dispatch, offsetof(spvb_dispatch, subgroup_size)),
          Align(4)),
      b.getInt32(1));
  Value *subgroupSizes = b.CreateVectorSplat(lanes, subgroupSize);

  // Each lane's Private storage starts as the runtime's block for the
  // workgroup does.
  if (privateSize) {
    uint64_t stride = alignTo(privateSize, 16);
    AllocaInst *storage = b.CreateAlloca(ArrayType::get(i8, stride * lanes),
                                         nullptr, "private.lanes");
    storage->setAlignment(Align(16));
    Value *original = b.CreateAlignedLoad(
        ptr, field(group, offsetof(spvb_invocation, private_memory)), Align(8));
    for (unsigned lane = 0; lane < lanes; ++lane)
      b.CreateMemCpy(field(storage, lane * stride), Align(16), original,
                     Align(1), privateSize);
    frame.privateMemory =
        b.CreateInBoundsGEP(i8, storage, laneOffsets(stride), "private");
  }
  Value *blocks = nullptr;
  if (needsLaneBlocks(*body)) {
    AllocaInst *storage =
        b.CreateAlloca(ArrayType::get(i8, sizeof(spvb_invocation) * lanes),
                       nullptr, "invocations");
    storage->setAlignment(Align(alignof(spvb_invocation)));
    for (unsigned lane = 0; lane < lanes; ++lane)
      b.CreateMemCpy(field(storage, lane * sizeof(spvb_invocation)),
                     Align(alignof(spvb_invocation)), group,
                     Align(alignof(spvb_invocation)), sizeof(spvb_invocation));
    blocks =
        b.CreateInBoundsGEP(i8, storage, laneOffsets(sizeof(spvb_invocation)));
    frame.laneBlocks = blocks;
  }
  BasicBlock *entryBlock = b.GetInsertBlock();
  auto *head = BasicBlock::Create(context, "chunk", entry);
  auto *done = BasicBlock::Create(context, "chunk.done", entry);
  auto *exit = BasicBlock::Create(context, "exit", entry);
  for (int d = 0; d < 3; ++d)
    frame.groupBase[d] = b.CreateMul(groupId[d], b.getInt32(size[d]));
  frame.invocations = count;
  frame.prologueEnd = b.CreateBr(head);

  b.SetInsertPoint(head);
  PHINode *base = b.CreatePHI(i32, 2, "base");
  base->addIncoming(b.getInt32(0), entryBlock);
  SmallVector<Constant *> indices;
  for (unsigned lane = 0; lane < lanes; ++lane)
    indices.push_back(b.getInt32(lane));
  Value *index = b.CreateAdd(b.CreateVectorSplat(lanes, base),
                             ConstantVector::get(indices), "local.index");
  b.CreateAlignedStore(b.CreateICmpULT(index, splat32(count)), frame.active,
                       frame.active->getAlign());
  Value *local[3] = {index, splat32(0), splat32(0)};
  if (size[1] * size[2] != 1) {
    local[0] = b.CreateURem(index, splat32(size[0]));
    local[1] =
        b.CreateURem(b.CreateUDiv(index, splat32(size[0])), splat32(size[1]));
    local[2] = b.CreateUDiv(index, splat32(size[0] * size[1]));
  }
  for (int d = 0; d < 3; ++d) {
    frame.localId[d] = local[d];
    frame.globalId[d] =
        b.CreateAdd(b.CreateVectorSplat(
                        lanes, b.CreateMul(groupId[d], b.getInt32(size[d]))),
                    local[d]);
  }
  frame.localIndex = index;
  // Lanes past the workgroup divide too: keep their divisor non-zero.
  frame.subgroupId = b.CreateUDiv(index, subgroupSizes);
  frame.subgroupLocalId = b.CreateURem(index, subgroupSizes);
  frame.oneRow = size[1] * size[2] == 1;
  frame.rowHoldsChunk = frame.oneRow || size[0] % lanes == 0;
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
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt32(count)), head, exit);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();

  if (!widenBody(*body, divergent, frame) || verifyFunction(*entry, &dbgs())) {
    entry->eraseFromParent();
    return nullptr;
  }
  // The mask and the phi slots become SSA values again.
  DominatorTree dominators(*entry);
  SmallVector<AllocaInst *> slots;
  for (Instruction &inst : entry->getEntryBlock())
    if (auto *alloca = dyn_cast<AllocaInst>(&inst))
      if (isAllocaPromotable(alloca))
        slots.push_back(alloca);
  PromoteMemToReg(slots, dominators);
  return entry;
}

Function *InvocationVectorizer::build() {
  if (count == 0 || !cloneAndInline())
    return nullptr;
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
  if (!structurize(analyses)) {
    LLVM_DEBUG(dbgs() << "spvb-lanes: " << invocation.getName()
                      << ": control flow not structured\n");
    return nullptr;
  }
  UniformityInfo &uniformity =
      analyses.getResult<UniformityInfoAnalysis>(*body);
  // The analysis answers by address: take its answers now, before the
  // marks add values that could reuse a deleted value's address.
  DenseSet<const Value *> divergent;
  for (Argument &argument : body->args())
    if (uniformity.isDivergent(&argument))
      divergent.insert(&argument);
  for (Instruction &inst : instructions(*body))
    if (uniformity.isDivergent(&inst))
      divergent.insert(&inst);
  DominatorTree &dominators = analyses.getResult<DominatorTreeAnalysis>(*body);
  LoopInfo &loops = analyses.getResult<LoopAnalysis>(*body);
  if (!insertLaneMasks(*body, lanes, dominators, loops, uniformity)) {
    LLVM_DEBUG(dbgs() << "spvb-lanes: " << invocation.getName()
                      << ": cannot place lane masks\n");
    return nullptr;
  }
  // Values leaving a loop whose exits the masks split still pass phis.
  for (Loop *loop : loops)
    formLCSSARecursively(*loop, dominators, &loops, nullptr);
  LLVM_DEBUG(dbgs() << "spvb-lanes: marked body\n" << *body);
  Function *entry = emitEntry(divergent);
  if (entry)
    LLVM_DEBUG(dbgs() << "spvb-lanes: " << invocation.getName() << " runs "
                      << lanes << " invocations at a time\n");
  return entry;
}

PreservedAnalyses InvocationVectorizerPass::run(Module &module,
                                                ModuleAnalysisManager &) {
  bool changed = false;
  for (KernelInfoGlobal &kernel : getKernelInfoGlobals(module)) {
    Function *loop = module.getFunction(kernel.workgroupSymbol);
    // The plain loop, or fibers for a fragment shader's derivatives.
    uint32_t kind = kernel.field(offsetof(spvb_kernel_info, workgroup_entry));
    bool fragment = kernel.field(offsetof(spvb_kernel_info, execution_model)) ==
                    spv::ExecutionModelFragment;
    if (!(kind == SPVB_WORKGROUP_ENTRY_LOOP && loop) &&
        !(kind == SPVB_WORKGROUP_ENTRY_NONE && fragment && !loop &&
          !kernel.field(offsetof(spvb_kernel_info, uses_barriers))))
      continue;
    // As many 32-bit lanes as a vector register holds, fewer for a small
    // workgroup (a fragment quad); one invocation gains nothing.
    uint32_t invocations = 1;
    for (int d = 0; d < 3; ++d)
      invocations *=
          kernel.field(offsetof(spvb_kernel_info, workgroup_size) + 4 * d);
    unsigned width = this->lanes;
    if (!width)
      width =
          std::clamp(unsigned(machine.getTargetTransformInfo(*kernel.invocation)
                                  .getRegisterBitWidth(
                                      TargetTransformInfo::RGK_FixedWidthVector)
                                  .getFixedValue() /
                              32),
                     4u, 16u);
    unsigned lanes = std::min<uint64_t>(width, PowerOf2Ceil(invocations));
    if (invocations < 2)
      continue;
    Function *entry =
        InvocationVectorizer(module, *kernel.invocation, kernel.fields, lanes)
            .build();
    if (!entry) {
      ++NumScalarKernels;
      continue;
    }
    ++NumLaneKernels;
    if (loop)
      loop->eraseFromParent();
    entry->setName(kernel.workgroupSymbol);
    kernel.field(offsetof(spvb_kernel_info, workgroup_entry)) =
        SPVB_WORKGROUP_ENTRY_LANES;
    kernel.field(offsetof(spvb_kernel_info, simd_lanes)) = lanes;
    kernel.store();
    changed = true;
  }
  // The widened bodies no longer call the markers LaneMasks placed.
  for (Function &function : llvm::make_early_inc_range(module))
    if (function.getName().starts_with(kLanesPrefix) && function.use_empty())
      function.eraseFromParent();
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
