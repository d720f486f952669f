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
#include "LaneChunks.h"
#include "LaneMasks.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Debug.h"

#include <cstddef>

#define DEBUG_TYPE "spvb-lanes"

ALWAYS_ENABLED_STATISTIC(NumLaneKernels, "Kernels run in SIMD lanes");
ALWAYS_ENABLED_STATISTIC(NumScalarKernels,
                         "Kernels left to the loop over invocations");

using namespace llvm;
using namespace spvb;

static unsigned infoField(size_t offset) { return offset / sizeof(uint32_t); }

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
  return body && canRunInLanes(*body, fragment);
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
  ChunkIds ids;
  for (int d = 0; d < 3; ++d) {
    ids.size[d] = size[d];
    ids.groupId[d] = b.CreateAlignedLoad(
        i32, field(group, offsetof(spvb_invocation, workgroup_id) + 4 * d),
        Align(4));
    frame.groupBase[d] = b.CreateMul(ids.groupId[d], b.getInt32(size[d]));
  }
  ids.subgroupSize = b.CreateBinaryIntrinsic(
      Intrinsic::umax,
      b.CreateAlignedLoad(
          i32, field(dispatch, offsetof(spvb_dispatch, subgroup_size)),
          Align(4)),
      b.getInt32(1));

  // Each lane's Private storage starts as the runtime's block for the
  // workgroup does.
  if (privateSize) {
    uint64_t stride = alignTo(privateSize, 16);
    AllocaInst *storage = b.CreateAlloca(ArrayType::get(i8, stride * lanes),
                                         nullptr, "private.lanes");
    storage->setAlignment(Align(16));
    Value *original = b.CreateAlignedLoad(
        ptr, field(group, offsetof(spvb_invocation, private_memory)), Align(8));
    SmallVector<Constant *> offsets;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      b.CreateMemCpy(field(storage, lane * stride), Align(16), original,
                     Align(1), privateSize);
      offsets.push_back(b.getInt64(lane * stride));
    }
    frame.privateMemory = b.CreateInBoundsGEP(
        i8, storage, ConstantVector::get(offsets), "private");
  }
  BasicBlock *entryBlock = b.GetInsertBlock();
  frame.invocations = count;
  auto *exit = BasicBlock::Create(context, "exit", entry);
  emitChunkLoop(b, frame, ids, count, exit, needsLaneBlocks(*body),
                [](Value *) -> Value * { return nullptr; });
  frame.prologueEnd = entryBlock->getTerminator();
  b.SetInsertPoint(exit);
  b.CreateRetVoid();

  if (!widenBody(*body, divergent, frame) || verifyFunction(*entry, &dbgs())) {
    entry->eraseFromParent();
    return nullptr;
  }
  promoteLaneSlots(*entry);
  return entry;
}

Function *InvocationVectorizer::build() {
  if (count == 0 || !cloneAndInline())
    return nullptr;
  DenseSet<const Value *> divergent;
  if (!prepareLaneBody(*body, lanes, divergent))
    return nullptr;
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
    uint32_t invocations = 1;
    for (int d = 0; d < 3; ++d)
      invocations *=
          kernel.field(offsetof(spvb_kernel_info, workgroup_size) + 4 * d);
    unsigned lanes =
        getLaneCount(&machine, *kernel.invocation, invocations, this->lanes);
    if (!lanes)
      continue;
    // Chunks of one row keep y and z the same across their lanes, so an
    // image's or a matrix's rows stay lines, not gathers: a row of 8 or
    // more, narrower than the registers, gets chunks of one row each
    // (ncnn's 8x8x4 convolutions in 8 lanes instead of 16).
    uint32_t width = kernel.field(offsetof(spvb_kernel_info, workgroup_size));
    if (!this->lanes && width >= 8 && width < lanes && invocations > width &&
        isPowerOf2_32(width))
      lanes = width;
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
