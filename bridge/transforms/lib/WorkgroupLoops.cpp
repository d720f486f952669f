//===- WorkgroupLoops.cpp - Workgroup entries for kernels with barriers ---===//
//
// The invocation body (inlined, optimized) is cut at every barrier. Region 0
// starts at the entry, region i+1 right after barrier i; a region holds the
// blocks reachable from its start without passing a barrier, and is cloned
// into a loop over the workgroup's invocations. Each invocation leaves a
// region at a barrier or by returning; if all leave by barrier i, region
// i+1 runs next, if all return the workgroup is done, and anything else is a
// barrier divergence reported through spvb_rt_fault.
//
// A subgroup instruction in control flow the whole workgroup takes together
// (no divergent branch between it and where the invocations part; a loop
// around it has uniform exits) cuts the body too: the region before it
// leaves each invocation's operand in its scratch slot,
// spvb_rt_subgroup_all runs the instruction for every subgroup at once, and
// the next region reads the results. Other subgroup instructions keep the
// kernel on fibers.
//
// A compute kernel compiled for subgroups of S invocations runs in chunks
// of S lanes (or one chunk for the whole workgroup), each chunk one
// subgroup: its subgroup instructions are then vector operations inside
// the regions (LaneSubgroups.h), wherever they are, and cut nothing. If a
// region with one cannot run in lanes, the kernel is built as above.
//
// Given W lanes, each region that can be runs W invocations at a time: the
// region becomes a body of its own (its values from earlier regions in
// scratch arrays, its exit id stored per invocation), which the lane
// widening emits into a loop over chunks; the exit ids are then compared
// in a loop of their own. Any other region keeps its loop over invocations.
// A small Function array accessed only as 4-byte scalars then keeps its
// copies element by element, so that lanes reach one element of
// consecutive invocations as one vector.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/transforms/WorkgroupLoops.h"

#include "InlinedBody.h"
#include "KernelInfoGlobals.h"
#include "LaneChunks.h"
#include "LaneDivergence.h"
#include "LaneMasks.h"
#include "LaneSubgroups.h"
#include "LaneWidening.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/Utils/Local.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <spirv/unified1/spirv.hpp>

#include <cstddef>

#define DEBUG_TYPE "spvb-workgroup-loops"

ALWAYS_ENABLED_STATISTIC(NumRegionKernels, "Kernels given region loops");
ALWAYS_ENABLED_STATISTIC(NumFiberKernels, "Kernels left on fibers");
ALWAYS_ENABLED_STATISTIC(NumRegions, "Regions between barriers");
ALWAYS_ENABLED_STATISTIC(NumLaneRegions, "Regions run in SIMD lanes");
ALWAYS_ENABLED_STATISTIC(NumSubgroupLaneKernels,
                         "Kernels whose subgroup instructions run in lanes");

using namespace llvm;
using namespace spvb;

/// The exit id of an invocation that returned; barrier i is exit id i + 1.
static constexpr uint32_t kReturned = ~0u;
static constexpr uint64_t kScratchAlignment = 64;

static unsigned infoField(size_t offset) { return offset / sizeof(uint32_t); }

namespace {

/// The blocks reachable from `start` without passing a barrier, start first,
/// and the barriers that end them.
struct Region {
  BasicBlock *start = nullptr;
  SmallVector<BasicBlock *> blocks;
  SmallVector<unsigned> barriers;
  /// The exit id every invocation leaves by, if the region has one exit
  /// (one barrier, or returns).
  std::optional<uint32_t> onlyExit;
};

/// One alloca of the body, which becomes an array with one element per
/// invocation in the scratch memory.
struct ScratchArray {
  AllocaInst *alloca;
  uint64_t offset;
  uint64_t stride;
};

/// What a loop over invocations learns of their exits: the lowest and
/// highest exit ids and how many returned.
struct ExitTally {
  /// The phis at the loop's head, the builder's block, entered from `from`.
  ExitTally(IRBuilder<> &b, BasicBlock *from) {
    low = b.CreatePHI(b.getInt32Ty(), 2, "exit.low");
    high = b.CreatePHI(b.getInt32Ty(), 2, "exit.high");
    returned = b.CreatePHI(b.getInt32Ty(), 2, "returned");
    low->addIncoming(b.getInt32(kReturned), from);
    high->addIncoming(b.getInt32(0), from);
    returned->addIncoming(b.getInt32(0), from);
  }
  /// Counts one invocation's exit `id`, on the back edge from `latch`.
  void count(IRBuilder<> &b, Value *id, BasicBlock *latch) {
    nextLow = b.CreateBinaryIntrinsic(Intrinsic::umin, low, id);
    nextHigh = b.CreateBinaryIntrinsic(Intrinsic::umax, high, id);
    nextReturned = b.CreateAdd(
        returned, b.CreateZExt(b.CreateICmpEQ(id, b.getInt32(kReturned)),
                               b.getInt32Ty()));
    low->addIncoming(nextLow, latch);
    high->addIncoming(nextHigh, latch);
    returned->addIncoming(nextReturned, latch);
  }

  PHINode *low, *high, *returned;
  Value *nextLow = nullptr, *nextHigh = nullptr, *nextReturned = nullptr;
};

class WorkgroupLoopsBuilder {
public:
  /// `subgroupChunks`: the subgroup size S, if each chunk of `lanes` is one
  /// subgroup whose instructions the lanes run; else 0.
  WorkgroupLoopsBuilder(Module &module, Function &invocation,
                        ArrayRef<uint32_t> info, unsigned lanes,
                        unsigned subgroupChunks = 0)
      : module(module), invocation(invocation), lanes(lanes),
        subgroupChunks(subgroupChunks) {
    for (int d = 0; d < 3; ++d)
      size[d] = info[infoField(offsetof(spvb_kernel_info, workgroup_size)) + d];
    count = size[0] * size[1] * size[2];
    privateStride = alignTo(
        info[infoField(offsetof(spvb_kernel_info, private_memory_size))], 16);
    fragment = info[infoField(offsetof(spvb_kernel_info, execution_model))] ==
               spv::ExecutionModelFragment;
  }
  ~WorkgroupLoopsBuilder();

  /// The workgroup entry, or null if the kernel keeps its fibers.
  Function *build(StringRef symbol);
  uint64_t getScratchSize() const { return scratchSize; }
  unsigned getRegionCount() const { return regions.size(); }
  unsigned getLaneRegionCount() const { return laneRegions; }

private:
  bool cloneAndInline();
  /// The blocks some invocations of a workgroup may run while others do
  /// not, or run a different number of times.
  DenseSet<const BasicBlock *>
  findDivergentBlocks(UniformityInfo &uniformity,
                      const PostDominatorTree &postDom);
  bool isRegionSubgroupCall(CallBase &call) const;
  bool hasSubgroupCall(const Region &region) const;
  void splitAtBarriers();
  void emitSubgroupCall(CallBase &call);
  void collectRegion(BasicBlock *start);
  bool crossesBarrier(const Instruction &value) const;
  bool isRematerializable(Value *value, unsigned depth = 0);
  void demoteValuesLiveAcrossBarriers();
  bool layOutScratch();
  /// Copies of the local slots region `index` uses, at `allocas`.
  void mapLocalSlots(const Region &region, IRBuilder<> &allocas,
                     ValueToValueMapTy &map) const;
  std::pair<uint32_t, std::optional<unsigned>>
  getGuardedBound(const Region &region) const;
  bool emitRegion(unsigned index);
  /// Region `index` as a body of its own: (dispatch, invocation block,
  /// scratch memory), storing its exit id unless it has only one exit;
  /// null if it uses a value from another region.
  Function *buildRegionBody(unsigned index);
  /// Emits region `index` in lanes after `start` (which has no terminator
  /// yet); false, with nothing emitted, if it cannot run in lanes.
  bool emitLaneRegion(unsigned index, BasicBlock *start);
  /// Ends `b`'s block: the next region, or the barrier divergence, given
  /// the exits of the invocations before the loop's limit and the barrier
  /// the ones from it on reached at once.
  void emitRegionExit(const ExitTally &tally, std::optional<unsigned> skipped);

  Module &module;
  Function &invocation;
  unsigned lanes;
  unsigned subgroupChunks;
  bool fragment;
  uint32_t size[3];
  uint32_t count;
  uint64_t privateStride;

  /// The working copy of the invocation, deleted when done.
  Function *body = nullptr;
  /// The cuts: barriers and subgroup instructions, each in a block of its
  /// own; the subgroup instruction of each cut that is one, else null.
  SmallVector<BasicBlock *> barriers;
  SmallVector<CallBase *> subgroupCalls;
  DenseMap<BasicBlock *, unsigned> barrierIds;
  SmallVector<Region> regions;
  DenseMap<Value *, bool> rematerializable;
  SmallVector<ScratchArray> arrays;
  /// Allocas whose value never outlives one pass through the block that
  /// uses them (a subgroup instruction's operand and result): each region
  /// gets its own, no scratch memory.
  SmallVector<AllocaInst *> localSlots;
  /// Where lane regions store each invocation's exit id (i32).
  uint64_t exitOffset = 0;
  uint64_t scratchSize = 0;
  unsigned laneRegions = 0;

  /// While emitting: the entry and the values every region uses.
  Function *entry = nullptr;
  IRBuilder<> *builder = nullptr;
  Value *block = nullptr;
  Value *scratch = nullptr;
  Value *subgroupSize = nullptr;
  Value *groupId[3] = {};
  Value *groupBase[3] = {};
  Instruction *prologueEnd = nullptr;
  SmallVector<Value *> arrayBases;
  BasicBlock *nextRegion = nullptr;
  PHINode *state = nullptr;
  SwitchInst *regionSwitch = nullptr;
  BasicBlock *divergence = nullptr;
  PHINode *returnedCount = nullptr;
};

} // namespace

WorkgroupLoopsBuilder::~WorkgroupLoopsBuilder() {
  if (!body)
    return;
  body->dropAllReferences();
  for (ScratchArray &array : arrays)
    if (!array.alloca->getParent())
      array.alloca->deleteValue();
  for (AllocaInst *slot : localSlots)
    if (!slot->getParent())
      slot->deleteValue();
  body->eraseFromParent();
}

bool WorkgroupLoopsBuilder::cloneAndInline() {
  // Barriers in callees must be in the body to cut it.
  body = cloneInlinedBody(invocation);
  if (!body)
    return false;
  // A subgroup operation needs its partners at the same point: region
  // loops provide it where the whole workgroup comes together.
  SmallVector<CallBase *> subgroupOperations;
  for (Instruction &inst : instructions(*body))
    if (auto *call = dyn_cast<CallBase>(&inst))
      if (Function *callee = call->getCalledFunction())
        if (callee->getName() == abi::kSubgroup)
          subgroupOperations.push_back(call);
  if (subgroupChunks)
    return !subgroupOperations.empty() &&
           all_of(subgroupOperations, [](CallBase *call) {
             return getLaneSubgroupCall(*call).has_value();
           });
  if (subgroupOperations.empty())
    return true;
  FunctionAnalysisManager analyses;
  analyses.registerPass([] { return getLaneDivergenceAnalysis(); });
  PassBuilder passes;
  passes.registerFunctionAnalyses(analyses);
  DenseSet<const BasicBlock *> divergentBlocks =
      findDivergentBlocks(analyses.getResult<UniformityInfoAnalysis>(*body),
                          analyses.getResult<PostDominatorTreeAnalysis>(*body));
  for (CallBase *call : subgroupOperations)
    if (divergentBlocks.contains(call->getParent()) ||
        !isRegionSubgroupCall(*call))
      return false;
  return true;
}

DenseSet<const BasicBlock *>
WorkgroupLoopsBuilder::findDivergentBlocks(UniformityInfo &uniformity,
                                           const PostDominatorTree &postDom) {
  // Invocations that part at a divergent branch come together again at its
  // immediate post-dominator; the blocks between run for some of them (or
  // a different number of times, around a loop).
  DenseSet<const BasicBlock *> divergent;
  for (BasicBlock &branch : *body) {
    if (!uniformity.hasDivergentTerminator(branch))
      continue;
    DomTreeNode *node = postDom.getNode(&branch);
    const BasicBlock *join =
        node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
    SmallVector<const BasicBlock *> worklist(succ_begin(&branch),
                                             succ_end(&branch));
    while (!worklist.empty()) {
      const BasicBlock *current = worklist.pop_back_val();
      if (current == join || !divergent.insert(current).second)
        continue;
      append_range(worklist, successors(current));
    }
  }
  return divergent;
}

/// Whether `call` has constant operation and types and its operands and
/// result in allocas (which become scratch arrays), so that
/// spvb_rt_subgroup_all can run it.
bool WorkgroupLoopsBuilder::isRegionSubgroupCall(CallBase &call) const {
  if (call.arg_size() != 10)
    return false;
  for (unsigned i : {1, 2, 3, 5, 6})
    if (!isa<ConstantInt>(call.getArgOperand(i)))
      return false;
  // Operands may be absent (OpGroupNonUniformElect has none).
  auto inSlot = [](Value *value, bool optional) {
    return isa<AllocaInst>(value) ||
           (optional && isa<ConstantPointerNull>(value));
  };
  return inSlot(call.getArgOperand(7), true) &&
         inSlot(call.getArgOperand(8), true) &&
         inSlot(call.getArgOperand(9), false);
}

bool WorkgroupLoopsBuilder::hasSubgroupCall(const Region &region) const {
  for (BasicBlock *block : region.blocks)
    for (Instruction &inst : *block)
      if (auto *call = dyn_cast<CallBase>(&inst))
        if (Function *callee = call->getCalledFunction();
            callee && callee->getName() == abi::kSubgroup)
          return true;
  return false;
}

void WorkgroupLoopsBuilder::splitAtBarriers() {
  SmallVector<CallBase *> calls;
  for (Instruction &inst : instructions(*body))
    if (auto *call = dyn_cast<CallBase>(&inst))
      if (Function *callee = call->getCalledFunction())
        if (callee->getName() == abi::kControlBarrier ||
            (callee->getName() == abi::kSubgroup && !subgroupChunks))
          calls.push_back(call);
  // Each cut gets a block of its own, whose successor has no phis.
  for (CallBase *call : calls) {
    BasicBlock *barrier = SplitBlock(call->getParent(), call->getIterator());
    SplitBlock(barrier, std::next(call->getIterator()));
    barrierIds[barrier] = barriers.size();
    barriers.push_back(barrier);
    subgroupCalls.push_back(
        call->getCalledFunction()->getName() == abi::kSubgroup ? call
                                                               : nullptr);
  }
}

void WorkgroupLoopsBuilder::collectRegion(BasicBlock *start) {
  Region region;
  region.start = start;
  SmallPtrSet<BasicBlock *, 32> seen;
  SmallVector<BasicBlock *> worklist{start};
  while (!worklist.empty()) {
    BasicBlock *current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    auto barrier = barrierIds.find(current);
    if (barrier != barrierIds.end()) {
      region.barriers.push_back(barrier->second);
      continue;
    }
    region.blocks.push_back(current);
    append_range(worklist, successors(current));
  }
  bool returns = any_of(region.blocks, [](BasicBlock *block) {
    return isa<ReturnInst, UnreachableInst>(block->getTerminator());
  });
  if (region.barriers.size() + returns == 1)
    region.onlyExit = returns ? kReturned : region.barriers.front() + 1;
  regions.push_back(std::move(region));
}

/// Whether some path from a barrier reaches a use of `value` without passing
/// its definition: then each invocation's value must survive the barrier.
bool WorkgroupLoopsBuilder::crossesBarrier(const Instruction &value) const {
  const BasicBlock *definition = value.getParent();
  for (const Use &use : value.uses()) {
    auto *user = cast<Instruction>(use.getUser());
    const BasicBlock *from = user->getParent();
    if (auto *phi = dyn_cast<PHINode>(user))
      from = phi->getIncomingBlock(use);
    if (from == definition)
      continue;
    SmallPtrSet<const BasicBlock *, 32> seen;
    SmallVector<const BasicBlock *> worklist{from};
    while (!worklist.empty()) {
      const BasicBlock *current = worklist.pop_back_val();
      if (current == definition || !seen.insert(current).second)
        continue;
      if (barrierIds.count(const_cast<BasicBlock *>(current)))
        return true;
      append_range(worklist, predecessors(current));
    }
  }
  return false;
}

/// Whether `value` can be recomputed where it is used instead of kept in
/// scratch memory: side-effect-free instructions and intrinsics over
/// constants, the arguments and memory no invocation writes (invariant
/// loads, the invocation block), within a few steps.
bool WorkgroupLoopsBuilder::isRematerializable(Value *value, unsigned depth) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst)
    return isa<Constant, Argument>(value);
  auto known = rematerializable.find(inst);
  if (known != rematerializable.end())
    return known->second;
  constexpr unsigned kMaxDepth = 12;
  bool result = false;
  if (depth < kMaxDepth) {
    if (auto *load = dyn_cast<LoadInst>(inst)) {
      // The invocation block's fields, and the dispatch's (NumWorkgroups,
      // the subgroup size ...), which nothing changes during a launch.
      const Value *object = getUnderlyingObject(load->getPointerOperand());
      result = load->isSimple() &&
               (load->hasMetadata(LLVMContext::MD_invariant_load) ||
                object == body->getArg(0) || object == body->getArg(1));
    } else if (auto *intrinsic = dyn_cast<IntrinsicInst>(inst))
      // umin clamps of ids and the like.
      result = intrinsic->doesNotAccessMemory() && intrinsic->willReturn() &&
               !intrinsic->isConvergent();
    else
      result =
          isa<BinaryOperator, CastInst, GetElementPtrInst, CmpInst, SelectInst>(
              inst);
    result = result && all_of(inst->operands(), [&](Value *operand) {
               return isRematerializable(operand, depth + 1);
             });
  }
  rematerializable[inst] = result;
  return result;
}

/// Drops the phi edges from outside the region's `clones` in `function`
/// (other regions' paths); false if anything still names the body: a
/// value live across a barrier that went unnoticed.
static bool isRegionClosed(ArrayRef<BasicBlock *> clones, Function &function) {
  for (BasicBlock *clone : clones) {
    for (PHINode &phi : clone->phis())
      for (unsigned i = phi.getNumIncomingValues(); i-- > 0;)
        if (phi.getIncomingBlock(i)->getParent() != &function)
          phi.removeIncomingValue(i, /*DeletePHIIfEmpty=*/false);
    for (Instruction &inst : *clone)
      for (Value *operand : inst.operands()) {
        auto *other = dyn_cast<Instruction>(operand);
        auto *argument = dyn_cast<Argument>(operand);
        auto *target = dyn_cast<BasicBlock>(operand);
        if ((other &&
             (!other->getParent() || other->getFunction() != &function)) ||
            (argument && argument->getParent() != &function) ||
            (target && target->getParent() != &function))
          return false;
      }
  }
  return true;
}

/// A copy of the rematerializable `value` and what it uses, before `point`.
static Value *rematerialize(Value *value, Instruction *point,
                            DenseMap<Value *, Value *> &copies) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst)
    return value;
  if (Value *copy = copies.lookup(inst))
    return copy;
  Instruction *copy = inst->clone();
  for (Use &operand : copy->operands())
    operand.set(rematerialize(operand.get(), point, copies));
  copy->insertBefore(point->getIterator());
  copies[inst] = copy;
  return copy;
}

void WorkgroupLoopsBuilder::demoteValuesLiveAcrossBarriers() {
  SmallVector<Instruction *> values;
  for (Instruction &inst : instructions(*body))
    if (!isa<AllocaInst>(inst) && !inst.getType()->isVoidTy() &&
        crossesBarrier(inst))
      values.push_back(&inst);
  // Cheap values are recomputed at each use in another block; what they
  // depend on is the same for the invocation before and after a barrier.
  values.erase(
      remove_if(values,
                [&](Instruction *value) {
                  if (!isRematerializable(value))
                    return false;
                  for (Use &use : make_early_inc_range(value->uses())) {
                    auto *user = cast<Instruction>(use.getUser());
                    Instruction *point = user;
                    if (auto *phi = dyn_cast<PHINode>(user))
                      point = phi->getIncomingBlock(use)->getTerminator();
                    if (point->getParent() == value->getParent())
                      continue;
                    DenseMap<Value *, Value *> copies;
                    use.set(rematerialize(value, point, copies));
                  }
                  return true;
                }),
      values.end());
  for (Instruction *value : values) {
    auto *phi = dyn_cast<PHINode>(value);
    if (!phi) {
      DemoteRegToStack(*value);
      continue;
    }
    // The phi becomes a slot, stored on each incoming edge, and one load at
    // its place. Uses must not reload the slot: an incoming store (the next
    // iteration's value, at the end of a latch) may come between the phi and
    // a use. The load's value gets a slot of its own if it crosses a barrier.
    BasicBlock *block = phi->getParent();
    AllocaInst *slot = DemotePHIToStack(phi);
    for (User *user : make_early_inc_range(slot->users()))
      if (auto *load = dyn_cast<LoadInst>(user))
        if (load->getParent() == block && crossesBarrier(*load))
          DemoteRegToStack(*load);
  }
}

/// The slots of booleans hold bytes instead, so that SIMD lanes load and
/// store them as vectors (a vector of i1 is packed in memory).
static void widenBooleanSlots(Function &body) {
  SmallVector<AllocaInst *> slots;
  for (Instruction &inst : body.getEntryBlock())
    if (auto *alloca = dyn_cast<AllocaInst>(&inst))
      if (alloca->getAllocatedType()->isIntegerTy(1) &&
          !alloca->isArrayAllocation() &&
          all_of(alloca->users(), [&](User *user) {
            auto *store = dyn_cast<StoreInst>(user);
            return (isa<LoadInst>(user) && cast<LoadInst>(user)->isSimple()) ||
                   (store && store->isSimple() &&
                    store->getValueOperand() != alloca);
          }))
        slots.push_back(alloca);
  for (AllocaInst *slot : slots) {
    IRBuilder<> b(slot);
    Type *byte = b.getInt8Ty();
    AllocaInst *bytes = b.CreateAlloca(byte, nullptr, slot->getName());
    for (User *user : make_early_inc_range(slot->users())) {
      auto *inst = cast<Instruction>(user);
      b.SetInsertPoint(inst);
      if (auto *load = dyn_cast<LoadInst>(inst)) {
        load->replaceAllUsesWith(
            b.CreateTrunc(b.CreateLoad(byte, bytes), b.getInt1Ty()));
      } else {
        b.CreateStore(
            b.CreateZExt(cast<StoreInst>(inst)->getValueOperand(), byte),
            bytes);
      }
      inst->eraseFromParent();
    }
    slot->eraseFromParent();
  }
}

/// Whether `user` is a plain load of `alloca`, a plain store to it (not of
/// it) or a subgroup call.
static bool isSlotAccess(User &user, const AllocaInst &alloca) {
  auto *load = dyn_cast<LoadInst>(&user);
  auto *store = dyn_cast<StoreInst>(&user);
  auto *call = dyn_cast<CallBase>(&user);
  Function *callee = call ? call->getCalledFunction() : nullptr;
  return (load && load->isSimple()) ||
         (store && store->isSimple() && store->getValueOperand() != &alloca) ||
         (callee && callee->getName() == abi::kSubgroup);
}

/// Whether `alloca` is used only by plain loads and stores of it and
/// subgroup calls, all in one block whose first use writes it whole: no
/// value it holds outlives a pass through that block.
static bool isBlockLocal(AllocaInst &alloca) {
  const DataLayout &layout = alloca.getDataLayout();
  std::optional<TypeSize> bytes = alloca.getAllocationSize(layout);
  BasicBlock *block = nullptr;
  for (User *user : alloca.users()) {
    auto *inst = dyn_cast<Instruction>(user);
    if (!inst || (block && inst->getParent() != block))
      return false;
    block = inst->getParent();
    if (!isSlotAccess(*user, alloca))
      return false;
  }
  if (!block || !bytes || bytes->isScalable())
    return false;
  for (Instruction &inst : *block) {
    if (!is_contained(inst.operands(), &alloca))
      continue;
    if (auto *store = dyn_cast<StoreInst>(&inst))
      return layout.getTypeStoreSize(store->getValueOperand()->getType()) ==
             bytes->getFixedValue();
    // A subgroup call that only writes it (its result) fills it.
    auto *call = dyn_cast<CallBase>(&inst);
    return call && call->arg_size() == 10 &&
           call->getArgOperand(9) == &alloca &&
           call->getArgOperand(7) != &alloca &&
           call->getArgOperand(8) != &alloca;
  }
  return false;
}

/// The largest Function variable whose copies go element by element: 256
/// words, far more than the rows shaders cache (ggml's soft_max: 16).
static constexpr uint64_t kMaxInterleavedBytes = 1024;

/// What interleaving a variable's copies rewrites: the address
/// computations (GEPs) from it, each after the one it starts from, and
/// the memsets that fill it whole.
struct InterleavedAccesses {
  SmallVector<GetElementPtrInst *> addresses;
  SmallVector<MemSetInst *> fills;
};

/// Whether an offset of `constant` bytes plus the `variable` terms (value
/// times scale) is a multiple of 4 for every value the terms take.
static bool isWordMultiple(const APInt &constant,
                           const SmallMapVector<Value *, APInt, 4> &variable,
                           const DataLayout &layout) {
  if (constant.countr_zero() < 2)
    return false;
  return all_of(variable, [&](const auto &term) {
    unsigned zeros =
        term.second.countr_zero() +
        computeKnownBits(term.first, layout).countMinTrailingZeros();
    return zeros >= 2;
  });
}

/// The accesses to rewrite if every access through `alloca` is a plain load
/// or store of a 4-byte scalar at a multiple of 4 bytes (reached by GEPs,
/// or through slots that only hold its addresses) or a memset of all of
/// it: such a variable can keep its invocations' copies element by
/// element. None otherwise.
static std::optional<InterleavedAccesses>
getInterleavedAccesses(AllocaInst &alloca) {
  const DataLayout &layout = alloca.getDataLayout();
  std::optional<TypeSize> bytes = alloca.getAllocationSize(layout);
  // A single element's copies are consecutive already; a large array is
  // no row of registers, and its fill would become a store per element.
  if (!bytes || bytes->isScalable() || bytes->getFixedValue() % 4 ||
      bytes->getFixedValue() <= 4 ||
      bytes->getFixedValue() > kMaxInterleavedBytes)
    return std::nullopt;
  InterleavedAccesses accesses;
  SmallPtrSet<Value *, 16> derived{&alloca};
  SmallPtrSet<AllocaInst *, 4> slots;
  SmallVector<Value *> worklist{&alloca};
  unsigned width = layout.getIndexTypeSizeInBits(alloca.getType());
  while (!worklist.empty()) {
    Value *pointer = worklist.pop_back_val();
    for (User *user : pointer->users()) {
      if (auto *address = dyn_cast<GetElementPtrInst>(user)) {
        SmallMapVector<Value *, APInt, 4> variable;
        APInt constant(width, 0);
        if (address->getPointerOperand() != pointer ||
            !address->collectOffset(layout, width, variable, constant) ||
            !isWordMultiple(constant, variable, layout))
          return std::nullopt;
        accesses.addresses.push_back(address);
        derived.insert(address);
        worklist.push_back(address);
        continue;
      }
      if (auto *fill = dyn_cast<MemSetInst>(user)) {
        auto *length = dyn_cast<ConstantInt>(fill->getLength());
        if (pointer != &alloca || fill->getDest() != pointer ||
            fill->isVolatile() || !isa<ConstantInt>(fill->getValue()) ||
            !length || length->getZExtValue() != bytes->getFixedValue())
          return std::nullopt;
        accesses.fills.push_back(fill);
        continue;
      }
      if (auto *store = dyn_cast<StoreInst>(user);
          store && store->isSimple() && store->getValueOperand() == pointer) {
        // An address kept across a barrier: every value of its slot must
        // be one of the variable's addresses.
        auto *slot = dyn_cast<AllocaInst>(store->getPointerOperand());
        if (!slot || !slot->getAllocatedType()->isPointerTy())
          return std::nullopt;
        if (slots.insert(slot).second)
          for (User *slotUser : slot->users()) {
            auto *load = dyn_cast<LoadInst>(slotUser);
            if (load && load->isSimple()) {
              derived.insert(load);
              worklist.push_back(load);
            } else if (!isa<StoreInst>(slotUser)) {
              return std::nullopt;
            }
          }
        continue;
      }
      Type *type = nullptr;
      if (auto *load = dyn_cast<LoadInst>(user); load && load->isSimple())
        type = load->getType();
      else if (auto *store = dyn_cast<StoreInst>(user);
               store && store->isSimple())
        type = store->getValueOperand()->getType();
      else if (auto *intrinsic = dyn_cast<IntrinsicInst>(user);
               intrinsic && intrinsic->isLifetimeStartOrEnd())
        continue;
      if (!type || !(type->isIntegerTy(32) || type->isFloatTy()))
        return std::nullopt;
    }
  }
  for (AllocaInst *slot : slots)
    for (User *user : slot->users())
      if (auto *store = dyn_cast<StoreInst>(user);
          store && (!store->isSimple() || store->getPointerOperand() != slot ||
                    !derived.contains(store->getValueOperand())))
        return std::nullopt;
  return accesses;
}

/// Lays `alloca`'s copies out element by element (invocation i's element
/// at byte e is at e * count + 4 * i): each address computation's offset
/// is scaled by the invocation count, a fill becomes a store per element,
/// and accesses keep 4-byte alignment. A Function array indexed by a loop
/// counter (ggml's soft_max caches its row so) is then one vector access
/// for a chunk of lanes, not a gather.
static void interleaveCopies(AllocaInst &alloca,
                             const InterleavedAccesses &accesses,
                             uint32_t count) {
  const DataLayout &layout = alloca.getDataLayout();
  for (GetElementPtrInst *address : accesses.addresses) {
    IRBuilder<> b(address);
    Value *offset = emitGEPOffset(&b, layout, address);
    Value *scaled =
        b.CreateNSWMul(offset, ConstantInt::get(offset->getType(), count));
    Value *interleaved =
        b.CreateInBoundsGEP(b.getInt8Ty(), address->getPointerOperand(), scaled,
                            address->getName());
    address->replaceAllUsesWith(interleaved);
    address->eraseFromParent();
  }
  for (MemSetInst *fill : accesses.fills) {
    IRBuilder<> b(fill);
    uint64_t bytes = cast<ConstantInt>(fill->getLength())->getZExtValue();
    uint8_t byte = cast<ConstantInt>(fill->getValue())->getZExtValue();
    Constant *word = b.getInt32(byte * 0x01010101u);
    for (uint64_t offset = 0; offset < bytes; offset += 4)
      b.CreateAlignedStore(
          word,
          b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), &alloca, offset * count),
          Align(4));
    fill->eraseFromParent();
  }
  SmallVector<Value *> worklist{&alloca};
  SmallPtrSet<Value *, 16> seen{&alloca};
  while (!worklist.empty())
    for (User *user : worklist.pop_back_val()->users()) {
      if (auto *load = dyn_cast<LoadInst>(user);
          load && !load->getType()->isPointerTy())
        load->setAlignment(std::min(load->getAlign(), Align(4)));
      else if (auto *store = dyn_cast<StoreInst>(user);
               store && !store->getValueOperand()->getType()->isPointerTy())
        store->setAlignment(std::min(store->getAlign(), Align(4)));
      else if (isa<GetElementPtrInst>(user) && seen.insert(user).second)
        worklist.push_back(user);
      else if (auto *store = dyn_cast<StoreInst>(user))
        for (User *slotUser : store->getPointerOperand()->users())
          if (isa<LoadInst>(slotUser) && seen.insert(slotUser).second)
            worklist.push_back(slotUser);
    }
  alloca.setAlignment(Align(4));
}

/// A slot that only loads, stores and subgroup calls (told the stride)
/// use keeps its type's own alignment instead of a wider one, so that
/// invocation i's element follows invocation i - 1's and SIMD lanes reach
/// them as one vector (subgroup operands are 16-byte aligned otherwise).
static void packSlot(AllocaInst &alloca) {
  Align natural =
      alloca.getDataLayout().getABITypeAlign(alloca.getAllocatedType());
  if (alloca.getAlign() <= natural)
    return;
  for (User *user : alloca.users())
    if (!isSlotAccess(*user, alloca))
      return;
  for (User *user : alloca.users()) {
    if (auto *load = dyn_cast<LoadInst>(user))
      load->setAlignment(std::min(load->getAlign(), natural));
    if (auto *store = dyn_cast<StoreInst>(user))
      store->setAlignment(std::min(store->getAlign(), natural));
  }
  alloca.setAlignment(natural);
}

bool WorkgroupLoopsBuilder::layOutScratch() {
  const DataLayout &layout = module.getDataLayout();
  widenBooleanSlots(*body);
  uint64_t offset = alignTo(uint64_t(count) * privateStride, kScratchAlignment);
  for (Instruction &inst : instructions(*body)) {
    auto *alloca = dyn_cast<AllocaInst>(&inst);
    if (!alloca)
      continue;
    if (isBlockLocal(*alloca)) {
      localSlots.push_back(alloca);
      continue;
    }
    std::optional<TypeSize> bytes = alloca->getAllocationSize(layout);
    if (!bytes || bytes->isScalable())
      return false;
    packSlot(*alloca);
    uint64_t size = alignTo(bytes->getFixedValue(), alloca->getAlign());
    uint64_t stride = size;
    // Lanes reach element-major copies as vectors.
    if (lanes)
      if (std::optional<InterleavedAccesses> accesses =
              getInterleavedAccesses(*alloca)) {
        interleaveCopies(*alloca, *accesses, count);
        stride = 4;
      }
    offset = alignTo(offset, std::max<uint64_t>(kScratchAlignment,
                                                alloca->getAlign().value()));
    arrays.push_back({alloca, offset, stride});
    offset += size * count;
  }
  bool exitIds = false;
  for (const Region &region : regions)
    exitIds |= !region.onlyExit.has_value();
  if (lanes && exitIds) {
    exitOffset = alignTo(offset, kScratchAlignment);
    offset = exitOffset + sizeof(uint32_t) * uint64_t(count);
  }
  scratchSize = offset;
  if (scratchSize > UINT32_MAX)
    return false;
  // The clones of each region index the arrays, or have slots of their
  // own, instead.
  for (ScratchArray &array : arrays)
    array.alloca->removeFromParent();
  for (AllocaInst *slot : localSlots)
    slot->removeFromParent();
  return true;
}

void WorkgroupLoopsBuilder::mapLocalSlots(const Region &region,
                                          IRBuilder<> &allocas,
                                          ValueToValueMapTy &map) const {
  for (AllocaInst *slot : localSlots) {
    auto *user = cast<Instruction>(*slot->user_begin());
    if (!is_contained(region.blocks, user->getParent()))
      continue;
    AllocaInst *copy = allocas.CreateAlloca(
        slot->getAllocatedType(), slot->getArraySize(), slot->getName());
    copy->setAlignment(slot->getAlign());
    map[slot] = copy;
  }
}

/// How many invocations region `region`'s loop must run, and the barrier
/// the others reach at once. A region of a one-dimensional workgroup that
/// starts with `if (local < C)` or `if (local == 0)` (a tree reduction's
/// step, its result's store), whose other edge
/// goes straight to a barrier, does nothing for the invocations from C on:
/// they reach that barrier, and the loop stops at C. Otherwise every
/// invocation, and no barrier.
std::pair<uint32_t, std::optional<unsigned>>
WorkgroupLoopsBuilder::getGuardedBound(const Region &region) const {
  using namespace PatternMatch;
  std::pair<uint32_t, std::optional<unsigned>> all{count, std::nullopt};
  if (size[1] * size[2] != 1)
    return all;
  auto *branch = dyn_cast<BranchInst>(region.start->getTerminator());
  if (!branch || !branch->isConditional())
    return all;
  CmpPredicate predicate;
  Value *operand;
  const APInt *bound;
  if (!match(branch->getCondition(),
             m_ICmp(predicate, m_Value(operand), m_APInt(bound))))
    return all;
  // `local == 0` is `local < 1`.
  uint64_t limit = predicate == ICmpInst::ICMP_EQ && bound->isZero() ? 1
                   : predicate == ICmpInst::ICMP_ULT ? bound->getLimitedValue()
                                                     : 0;
  if (limit == 0 || limit >= count)
    return all;
  // The operand is this invocation's local id or index, from its block.
  auto isLocalIndex = [&](Value *value) {
    auto *load = dyn_cast<LoadInst>(value);
    if (!load || !load->getType()->isIntegerTy(32))
      return false;
    Value *pointer = load->getPointerOperand();
    APInt offset(64, 0);
    const Value *base = pointer->stripAndAccumulateConstantOffsets(
        module.getDataLayout(), offset, /*AllowNonInbounds=*/true);
    return base == body->getArg(1) &&
           (offset == offsetof(spvb_invocation, local_id) ||
            offset == offsetof(spvb_invocation, local_index));
  };
  if (!isLocalIndex(operand))
    return all;
  // Nothing before the branch has an effect.
  for (Instruction &inst : *region.start)
    if (&inst != branch && inst.mayHaveSideEffects())
      return all;
  BasicBlock *skip = branch->getSuccessor(1);
  if (!barrierIds.count(skip)) {
    auto *next = dyn_cast<BranchInst>(skip->getTerminator());
    if (skip->size() != 1 || !next || next->isConditional())
      return all;
    skip = next->getSuccessor(0);
  }
  auto barrier = barrierIds.find(skip);
  if (barrier == barrierIds.end() || branch->getSuccessor(0) == skip)
    return all;
  return {uint32_t(limit), barrier->second};
}

bool WorkgroupLoopsBuilder::emitRegion(unsigned index) {
  IRBuilder<> &b = *builder;
  LLVMContext &context = module.getContext();
  const Region &region = regions[index];
  Type *i8 = b.getInt8Ty();
  Type *i32 = b.getInt32Ty();
  Type *i64 = b.getInt64Ty();
  std::string name = "region" + std::to_string(index);
  auto *preheader = BasicBlock::Create(context, name + ".start", entry);
  regionSwitch->addCase(b.getInt32(index), preheader);
  // A region after a subgroup instruction starts by running it.
  b.SetInsertPoint(preheader);
  if (index > 0 && subgroupCalls[index - 1])
    emitSubgroupCall(*subgroupCalls[index - 1]);
  if (lanes && emitLaneRegion(index, preheader))
    return true;
  // Subgroup instructions need their subgroup's chunk.
  if (subgroupChunks && hasSubgroupCall(region))
    return false;
  auto *head = BasicBlock::Create(context, name, entry);
  auto *latch = BasicBlock::Create(context, name + ".latch", entry);
  auto *done = BasicBlock::Create(context, name + ".done", entry);
  b.SetInsertPoint(preheader);
  b.CreateBr(head);

  b.SetInsertPoint(head);
  PHINode *localIndex = b.CreatePHI(i32, 2, "local.index");
  localIndex->addIncoming(b.getInt32(0), preheader);
  ExitTally tally(b, preheader);

  // This invocation's block: ids, and its slice of the Private storage.
  auto store = [&](Value *value, size_t offset) {
    b.CreateAlignedStore(value, b.CreateConstInBoundsGEP1_64(i8, block, offset),
                         Align(4));
  };
  Value *local[3] = {localIndex, b.getInt32(0), b.getInt32(0)};
  if (size[1] * size[2] != 1) {
    local[0] = b.CreateURem(localIndex, b.getInt32(size[0]));
    local[1] = b.CreateURem(b.CreateUDiv(localIndex, b.getInt32(size[0])),
                            b.getInt32(size[1]));
    local[2] = b.CreateUDiv(localIndex, b.getInt32(size[0] * size[1]));
  }
  for (int d = 0; d < 3; ++d) {
    store(local[d], offsetof(spvb_invocation, local_id) + 4 * d);
    store(b.CreateAdd(b.CreateMul(groupId[d], b.getInt32(size[d])), local[d]),
          offsetof(spvb_invocation, global_id) + 4 * d);
  }
  store(localIndex, offsetof(spvb_invocation, local_index));
  store(b.CreateUDiv(localIndex, subgroupSize),
        offsetof(spvb_invocation, subgroup_id));
  store(b.CreateURem(localIndex, subgroupSize),
        offsetof(spvb_invocation, subgroup_local_id));
  Value *wideIndex = b.CreateZExt(localIndex, i64);
  b.CreateAlignedStore(
      b.CreateInBoundsGEP(i8, scratch,
                          b.CreateNUWMul(wideIndex, b.getInt64(privateStride))),
      b.CreateConstInBoundsGEP1_64(i8, block,
                                   offsetof(spvb_invocation, private_memory)),
      Align(8));

  ValueToValueMapTy map;
  map[body->getArg(0)] = entry->getArg(0);
  map[body->getArg(1)] = block;
  for (auto [array, base] : zip(arrays, arrayBases))
    map[array.alloca] = b.CreateInBoundsGEP(
        i8, base, b.CreateNUWMul(wideIndex, b.getInt64(array.stride)));
  IRBuilder<> allocas(&entry->getEntryBlock().front());
  mapLocalSlots(region, allocas, map);

  SmallVector<BasicBlock *> clones;
  for (BasicBlock *original : region.blocks) {
    BasicBlock *clone = CloneBasicBlock(original, map, "", entry);
    map[original] = clone;
    clones.push_back(clone);
  }
  b.CreateBr(cast<BasicBlock>(map[region.start]));

  b.SetInsertPoint(latch);
  PHINode *exitId = b.CreatePHI(i32, region.barriers.size() + 1, "exit.id");
  for (unsigned barrier : region.barriers) {
    auto *stub = BasicBlock::Create(context, "at.barrier", entry, latch);
    BranchInst::Create(latch, stub);
    exitId->addIncoming(b.getInt32(barrier + 1), stub);
    map[barriers[barrier]] = stub;
  }
  remapInstructionsInBlocks(clones, map);

  for (BasicBlock *clone : clones)
    if (auto *ret = dyn_cast<ReturnInst>(clone->getTerminator())) {
      BranchInst::Create(latch, ret->getIterator());
      ret->eraseFromParent();
      exitId->addIncoming(b.getInt32(kReturned), clone);
    }
  if (!isRegionClosed(clones, *entry))
    return false;

  tally.count(b, exitId, latch);
  auto [limit, skipped] = getGuardedBound(region);
  Value *nextIndex = b.CreateNUWAdd(localIndex, b.getInt32(1));
  b.CreateCondBr(b.CreateICmpULT(nextIndex, b.getInt32(limit)), head, done);
  localIndex->addIncoming(nextIndex, latch);

  b.SetInsertPoint(done);
  emitRegionExit(tally, skipped);
  return true;
}

void WorkgroupLoopsBuilder::emitRegionExit(const ExitTally &tally,
                                           std::optional<unsigned> skipped) {
  IRBuilder<> &b = *builder;
  Value *low = tally.nextLow;
  Value *high = tally.nextHigh;
  if (skipped) {
    // The invocations the loop skipped reach barrier `skipped`.
    Value *id = b.getInt32(*skipped + 1);
    low = b.CreateBinaryIntrinsic(Intrinsic::umin, low, id);
    high = b.CreateBinaryIntrinsic(Intrinsic::umax, high, id);
  }
  b.CreateCondBr(b.CreateICmpNE(low, high), divergence, nextRegion);
  state->addIncoming(low, b.GetInsertBlock());
  returnedCount->addIncoming(tally.nextReturned, b.GetInsertBlock());
}

Function *WorkgroupLoopsBuilder::buildRegionBody(unsigned index) {
  const Region &region = regions[index];
  LLVMContext &context = module.getContext();
  Type *ptr = PointerType::getUnqual(context);
  Function *function = Function::Create(
      FunctionType::get(Type::getVoidTy(context), {ptr, ptr, ptr}, false),
      GlobalValue::InternalLinkage, body->getName() + ".region", module);
  auto fail = [&] {
    function->eraseFromParent();
    return nullptr;
  };
  IRBuilder<> b(BasicBlock::Create(context, "entry", function));
  Type *i8 = b.getInt8Ty();
  Value *block = function->getArg(1);
  Value *memory = function->getArg(2);
  Value *localIndex = b.CreateAlignedLoad(
      b.getInt32Ty(),
      b.CreateConstInBoundsGEP1_64(i8, block,
                                   offsetof(spvb_invocation, local_index)),
      Align(4));
  Value *wideIndex = b.CreateZExt(localIndex, b.getInt64Ty());
  auto element = [&](uint64_t offset, uint64_t stride) {
    return b.CreateInBoundsGEP(i8,
                               b.CreateConstInBoundsGEP1_64(i8, memory, offset),
                               b.CreateNUWMul(wideIndex, b.getInt64(stride)));
  };
  ValueToValueMapTy map;
  map[body->getArg(0)] = function->getArg(0);
  map[body->getArg(1)] = block;
  for (ScratchArray &array : arrays)
    map[array.alloca] = element(array.offset, array.stride);
  mapLocalSlots(region, b, map);
  Value *exitSlot = element(exitOffset, sizeof(uint32_t));

  SmallVector<BasicBlock *> clones;
  for (BasicBlock *original : region.blocks) {
    BasicBlock *clone = CloneBasicBlock(original, map, "", function);
    map[original] = clone;
    clones.push_back(clone);
  }
  b.CreateBr(cast<BasicBlock>(map[region.start]));
  bool oneExit = region.onlyExit.has_value();
  auto leave = [&](uint32_t id, BasicBlock *block) {
    b.SetInsertPoint(block);
    if (!oneExit)
      b.CreateAlignedStore(b.getInt32(id), exitSlot, Align(4));
    b.CreateRetVoid();
  };
  for (unsigned barrier : region.barriers) {
    auto *stub = BasicBlock::Create(context, "at.barrier", function);
    leave(barrier + 1, stub);
    map[barriers[barrier]] = stub;
  }
  remapInstructionsInBlocks(clones, map);
  for (BasicBlock *clone : clones) {
    // Undefined behaviour may do anything, so also return.
    Instruction *terminator = clone->getTerminator();
    if (isa<ReturnInst, UnreachableInst>(terminator)) {
      b.SetCurrentDebugLocation(terminator->getDebugLoc());
      terminator->eraseFromParent();
      leave(kReturned, clone);
    }
  }
  if (!isRegionClosed(clones, *function))
    return fail();
  return function;
}

bool WorkgroupLoopsBuilder::emitLaneRegion(unsigned index, BasicBlock *start) {
  // Fewer invocations than a chunk (a tree reduction's last steps) run
  // faster one by one than in mostly inactive lanes.
  auto [limit, skipped] = getGuardedBound(regions[index]);
  if (limit < lanes && !(subgroupChunks && hasSubgroupCall(regions[index])))
    return false;
  Function *region = buildRegionBody(index);
  if (!region)
    return false;
  scope_exit erase([&] { region->eraseFromParent(); });
  DenseSet<const Value *> divergent;
  if (!canRunInLanes(*region, fragment, subgroupChunks != 0) ||
      !prepareLaneBody(*region, lanes, divergent))
    return false;

  IRBuilder<> &b = *builder;
  LLVMContext &context = module.getContext();
  Type *i32 = b.getInt32Ty();
  Type *i64 = b.getInt64Ty();
  std::string name = "region" + std::to_string(index);
  SmallPtrSet<BasicBlock *, 32> before;
  for (BasicBlock &existing : *entry)
    before.insert(&existing);
  IRBuilder<> allocas(&entry->getEntryBlock().front());
  LaneFrame frame;
  frame.lanes = lanes;
  frame.subgroupSize = subgroupChunks;
  frame.dispatch = entry->getArg(0);
  // The workgroup's private copy: no store to memory a kernel reaches
  // changes its fields, which LLVM then keeps in registers.
  frame.group = block;
  frame.scratch = scratch;
  frame.active = allocas.CreateAlloca(
      FixedVectorType::get(b.getInt1Ty(), lanes), nullptr, "active");
  frame.allocaPoint = frame.active;
  frame.invocations = count;
  frame.prologueEnd = prologueEnd;
  ChunkIds ids;
  for (int d = 0; d < 3; ++d) {
    ids.size[d] = size[d];
    ids.groupId[d] = groupId[d];
    frame.groupBase[d] = groupBase[d];
  }
  ids.subgroupSize = subgroupSize;
  ids.subgroupChunks = subgroupChunks;
  auto *chunks = BasicBlock::Create(context, name + ".lanes", entry);
  auto *exits = BasicBlock::Create(context, name + ".exits", entry);
  b.SetInsertPoint(chunks);
  emitChunkLoop(b, frame, ids, limit, exits, needsLaneBlocks(*region),
                [&](Value *index) {
                  auto *wide = FixedVectorType::get(i64, lanes);
                  return b.CreateInBoundsGEP(
                      b.getInt8Ty(), scratch,
                      b.CreateNUWMul(b.CreateZExt(index, wide),
                                     ConstantInt::get(wide, privateStride)),
                      "private");
                });
  if (!widenBody(*region, divergent, frame)) {
    LLVM_DEBUG(dbgs() << "spvb: region " << index << " of "
                      << invocation.getName() << " stays in scalars\n");
    SmallVector<BasicBlock *> added;
    for (BasicBlock &block : *entry)
      if (!before.contains(&block))
        added.push_back(&block);
    for (BasicBlock *block : added)
      block->dropAllReferences();
    for (BasicBlock *block : added)
      block->eraseFromParent();
    frame.active->eraseFromParent();
    return false;
  }
  b.SetInsertPoint(start);
  b.CreateBr(chunks);
  ++laneRegions;
  // With one exit, every invocation the chunks ran left by it.
  if (std::optional<uint32_t> only = regions[index].onlyExit) {
    b.SetInsertPoint(exits);
    b.CreateBr(nextRegion);
    state->addIncoming(b.getInt32(*only), exits);
    return true;
  }

  // The exits of the invocations the chunks ran: all the same barrier, or
  // all returned, else a divergence.
  auto *head = BasicBlock::Create(context, name + ".exit", entry);
  auto *done = BasicBlock::Create(context, name + ".done", entry);
  b.SetInsertPoint(exits);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  PHINode *local = b.CreatePHI(i32, 2, "local.index");
  local->addIncoming(b.getInt32(0), exits);
  ExitTally tally(b, exits);
  Value *id = b.CreateAlignedLoad(
      i32,
      b.CreateInBoundsGEP(
          i32, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), scratch, exitOffset),
          b.CreateZExt(local, i64)),
      Align(4), "exit.id");
  tally.count(b, id, head);
  Value *next = b.CreateNUWAdd(local, b.getInt32(1));
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt32(limit)), head, done);
  local->addIncoming(next, head);
  b.SetInsertPoint(done);
  emitRegionExit(tally, skipped);
  return true;
}

/// spvb_rt_subgroup_all for the subgroup instruction `call` of the body,
/// its operands and result in their scratch arrays.
void WorkgroupLoopsBuilder::emitSubgroupCall(CallBase &call) {
  IRBuilder<> &b = *builder;
  Type *i32 = b.getInt32Ty();
  Type *i64 = b.getInt64Ty();
  Type *ptr = b.getPtrTy();
  auto arrayOf = [&](Value *alloca) -> std::pair<Value *, Value *> {
    for (auto [array, base] : zip(arrays, arrayBases))
      if (array.alloca == alloca)
        return {base, b.getInt64(array.stride)};
    return {ConstantPointerNull::get(b.getPtrTy()), b.getInt64(0)};
  };
  auto [operand0, stride0] = arrayOf(call.getArgOperand(7));
  auto [operand1, stride1] = arrayOf(call.getArgOperand(8));
  auto [result, resultStride] = arrayOf(call.getArgOperand(9));
  FunctionCallee function = module.getOrInsertFunction(
      abi::kSubgroupAll, b.getVoidTy(), ptr, i32, i32, i32, i32, i32, i32, ptr,
      i64, ptr, i64, ptr, i64);
  b.CreateCall(function,
               {entry->getArg(0), b.getInt32(count), call.getArgOperand(1),
                call.getArgOperand(2), call.getArgOperand(3),
                call.getArgOperand(5), call.getArgOperand(6), operand0, stride0,
                operand1, stride1, result, resultStride});
}

Function *WorkgroupLoopsBuilder::build(StringRef symbol) {
  if (count == 0 || !cloneAndInline())
    return nullptr;
  splitAtBarriers();
  collectRegion(&body->getEntryBlock());
  for (BasicBlock *barrier : barriers)
    collectRegion(barrier->getSingleSuccessor());
  demoteValuesLiveAcrossBarriers();
  if (!layOutScratch())
    return nullptr;

  LLVMContext &context = module.getContext();
  entry = Function::Create(invocation.getFunctionType(),
                           GlobalValue::ExternalLinkage, symbol, module);
  IRBuilder<> b(BasicBlock::Create(context, "entry", entry));
  builder = &b;
  Type *i8 = b.getInt8Ty();
  Type *i32 = b.getInt32Ty();
  Type *ptr = b.getPtrTy();
  Value *dispatch = entry->getArg(0);
  Value *group = entry->getArg(1);
  // Like the loop entry, work on a private copy of the invocation block so
  // that LLVM can keep its fields in registers.
  AllocaInst *copy = b.CreateAlloca(ArrayType::get(i8, sizeof(spvb_invocation)),
                                    nullptr, "invocation");
  copy->setAlignment(Align(alignof(spvb_invocation)));
  block = copy;
  b.CreateMemCpy(block, copy->getAlign(), group,
                 Align(alignof(spvb_invocation)), sizeof(spvb_invocation));
  scratch = b.CreateAlignedLoad(
      ptr,
      b.CreateConstInBoundsGEP1_64(i8, group,
                                   offsetof(spvb_invocation, private_memory)),
      Align(8), "scratch");
  subgroupSize = b.CreateBinaryIntrinsic(
      Intrinsic::umax,
      b.CreateAlignedLoad(
          i32,
          b.CreateConstInBoundsGEP1_64(i8, dispatch,
                                       offsetof(spvb_dispatch, subgroup_size)),
          Align(4)),
      b.getInt32(1));
  for (int d = 0; d < 3; ++d) {
    groupId[d] = b.CreateAlignedLoad(
        i32,
        b.CreateConstInBoundsGEP1_64(
            i8, group, offsetof(spvb_invocation, workgroup_id) + 4 * d),
        Align(4));
    if (lanes)
      groupBase[d] = b.CreateMul(groupId[d], b.getInt32(size[d]));
  }
  for (ScratchArray &array : arrays)
    arrayBases.push_back(
        b.CreateConstInBoundsGEP1_64(i8, scratch, array.offset));

  BasicBlock *entryBlock = b.GetInsertBlock();
  nextRegion = BasicBlock::Create(context, "next.region", entry);
  auto *exit = BasicBlock::Create(context, "exit", entry);
  divergence = BasicBlock::Create(context, "barrier.divergence", entry);
  prologueEnd = b.CreateBr(nextRegion);

  b.SetInsertPoint(nextRegion);
  state = b.CreatePHI(i32, regions.size() + 1, "region");
  state->addIncoming(b.getInt32(0), entryBlock);
  regionSwitch = b.CreateSwitch(state, exit, regions.size());

  b.SetInsertPoint(exit);
  b.CreateRetVoid();

  b.SetInsertPoint(divergence);
  returnedCount = b.CreatePHI(i32, regions.size(), "returned");
  FunctionCallee fault =
      module.getOrInsertFunction(abi::kFault, b.getVoidTy(), ptr, ptr, i32,
                                 b.getInt64Ty(), b.getInt64Ty(), ptr);
  b.CreateCall(fault,
               {dispatch, group, b.getInt32(SPVB_FAULT_BARRIER_DIVERGENCE),
                b.CreateZExt(returnedCount, b.getInt64Ty()), b.getInt64(count),
                ConstantPointerNull::get(PointerType::getUnqual(context))});
  b.CreateRetVoid();

  for (unsigned index = 0; index < regions.size(); ++index) {
    if (!emitRegion(index)) {
      LLVM_DEBUG(dbgs() << "spvb: region " << index << " of "
                        << invocation.getName()
                        << " uses a value from another region or its "
                           "subgroup instructions cannot run in lanes\n");
      entry->eraseFromParent();
      return nullptr;
    }
  }
  if (verifyFunction(*entry, &dbgs())) {
    LLVM_DEBUG(dbgs() << "spvb: invalid workgroup entry for "
                      << invocation.getName() << "\n");
    entry->eraseFromParent();
    return nullptr;
  }
  if (laneRegions)
    promoteLaneSlots(*entry);
  return entry;
}

PreservedAnalyses WorkgroupLoopsPass::run(Module &module,
                                          ModuleAnalysisManager &) {
  bool changed = false;
  Function *subgroup = module.getFunction(abi::kSubgroup);
  bool usesSubgroups = subgroup && !subgroup->use_empty();
  bool onlyDerivatives =
      usesSubgroups && all_of(subgroup->users(), [](const User *user) {
        auto *call = dyn_cast<CallBase>(user);
        return call && isQuadDerivative(*call);
      });
  bool vectorize = machine || lanes || subgroupSize;
  for (KernelInfoGlobal &kernel : getKernelInfoGlobals(module)) {
    bool barriers = kernel.field(offsetof(spvb_kernel_info, uses_barriers));
    bool fragment = kernel.field(offsetof(spvb_kernel_info, execution_model)) ==
                    spv::ExecutionModelFragment;
    if (module.getFunction(kernel.workgroupSymbol) ||
        (!barriers && !usesSubgroups) ||
        (!barriers && vectorize && fragment && onlyDerivatives))
      continue;
    uint32_t invocations = 1;
    for (int d = 0; d < 3; ++d)
      invocations *=
          kernel.field(offsetof(spvb_kernel_info, workgroup_size) + 4 * d);
    auto record = [&](const WorkgroupLoopsBuilder &builder, unsigned width) {
      ++NumRegionKernels;
      NumRegions += builder.getRegionCount();
      NumLaneRegions += builder.getLaneRegionCount();
      kernel.field(offsetof(spvb_kernel_info, workgroup_entry)) =
          SPVB_WORKGROUP_ENTRY_REGIONS;
      if (builder.getLaneRegionCount())
        kernel.field(offsetof(spvb_kernel_info, simd_lanes)) = width;
      kernel.field(offsetof(spvb_kernel_info, workgroup_scratch_size)) =
          builder.getScratchSize();
      changed = true;
    };
    // Subgroup instructions in lanes: chunks of S lanes, or one for a
    // workgroup of fewer invocations.
    bool compute = kernel.field(offsetof(spvb_kernel_info, execution_model)) ==
                   spv::ExecutionModelGLCompute;
    if (vectorize && subgroupSize && compute && usesSubgroups &&
        !onlyDerivatives) {
      unsigned width =
          getLaneCount(nullptr, *kernel.invocation, invocations, subgroupSize);
      WorkgroupLoopsBuilder builder(module, *kernel.invocation, kernel.fields,
                                    width, subgroupSize);
      if (width && builder.build(kernel.workgroupSymbol)) {
        ++NumSubgroupLaneKernels;
        record(builder, width);
        kernel.field(offsetof(spvb_kernel_info, subgroup_size)) = subgroupSize;
        kernel.store();
        continue;
      }
    }
    unsigned width = vectorize ? getLaneCount(machine, *kernel.invocation,
                                              invocations, lanes)
                               : 0;
    WorkgroupLoopsBuilder builder(module, *kernel.invocation, kernel.fields,
                                  width);
    if (!builder.build(kernel.workgroupSymbol)) {
      ++NumFiberKernels;
      continue;
    }
    record(builder, width);
    kernel.store();
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
