//===- LaneWidening.cpp - Run the invocation body in SIMD lanes -----------===//
//
// Blocks are emitted in reverse post-order, so every operand but a phi's is
// widened before its user. A varying phi becomes a <W x T> slot: each
// incoming edge blends its value into the slot under the lanes active at
// the end of the predecessor (before the branch narrows them), and the phi
// reads the slot. An edge from an if's header therefore writes every lane
// and the then-part's edge later overwrites its own, and a lane that left a
// loop keeps the value of its last iteration: the semantics of SIMT
// registers. mem2reg later turns the slots into phis and selects.
//
//===----------------------------------------------------------------------===//
#include "LaneWidening.h"

#include "LaneSubgroups.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/QuadDerivatives.h"

#include "LaneMasks.h"

#include "spvbridge/transforms/VectorMathLibrary.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#include <map>

#define DEBUG_TYPE "spvb-lanes"

ALWAYS_ENABLED_STATISTIC(NumAccesses, "Memory accesses widened to lanes");
ALWAYS_ENABLED_STATISTIC(
    NumLineAccesses,
    "Accesses whose lanes' addresses are proven on a line (two ends "
    "checked per chunk)");
ALWAYS_ENABLED_STATISTIC(
    NumWorkgroupLines,
    "Accesses proven consecutive for the whole workgroup at once");
ALWAYS_ENABLED_STATISTIC(
    NumRecordAccesses,
    "Loads and stores of one element per lane of records a constant "
    "stride apart");
ALWAYS_ENABLED_STATISTIC(
    NumChunkPrefetches,
    "Loads in a loop that prefetch the line later chunks will read");
ALWAYS_ENABLED_STATISTIC(NumBroadcastLoads,
                         "Loads of one address for every lane of a chunk");
ALWAYS_ENABLED_STATISTIC(NumBroadcastStores,
                         "Stores of one address for every lane of a chunk");
ALWAYS_ENABLED_STATISTIC(
    NumCombinedAtomics,
    "Adds of every active lane to one address as one atomic of their sum");
ALWAYS_ENABLED_STATISTIC(
    NumLineAtomics,
    "Single-thread atomics on one element per lane as vector accesses");

using namespace llvm;
using namespace spvb;

/// spvb_rt_subgroup's operands (kernel_abi.h).
enum SubgroupOperand {
  kSubgroupOpcode = 1,
  kSubgroupOperandDesc = 5,
  kSubgroupResultDesc = 6,
  kSubgroupOperand0 = 7,
  kSubgroupResult = 9,
};

bool spvb::isQuadDerivative(const CallBase &call) {
  Function *callee = call.getCalledFunction();
  if (!callee || callee->getName() != abi::kSubgroup || call.arg_size() != 10)
    return false;
  auto *opcode = dyn_cast<ConstantInt>(call.getArgOperand(kSubgroupOpcode));
  auto *operand =
      dyn_cast<ConstantInt>(call.getArgOperand(kSubgroupOperandDesc));
  auto *result = dyn_cast<ConstantInt>(call.getArgOperand(kSubgroupResultDesc));
  if (!opcode || !operand || !result || operand != result)
    return false;
  uint32_t desc = operand->getZExtValue();
  return abi::isDerivativeOpcode(opcode->getZExtValue()) &&
         desc >> 16 == SPVB_KIND_FLOAT && ((desc >> 8) & 0xff) == 4;
}

bool spvb::needsLaneBlocks(const Function &body) {
  for (const User *user : body.getArg(1)->users())
    if (const auto *call = dyn_cast<CallBase>(user))
      if (!isQuadDerivative(*call) && !getLaneSubgroupCall(*call))
        return true;
  return false;
}

namespace {

class LaneWidener {
public:
  LaneWidener(Function &body, const DenseSet<const Value *> &divergent,
              const LaneFrame &frame)
      : body(body), divergent(divergent), frame(frame),
        module(*frame.start->getModule()), context(body.getContext()),
        layout(module.getDataLayout()), b(context),
        library(module.getTargetTriple(), getVectorMathLibrary()),
        dominators(body), loops(dominators) {}

  bool run();

private:
  /// Phis made after the analysis (block splits, LCSSA) vary with their
  /// incoming values.
  bool isVarying(const Value *value) {
    if (isa<Constant>(value))
      return false;
    const auto *phi = dyn_cast<PHINode>(value);
    if (!phi || divergent.contains(value))
      return divergent.contains(value);
    auto [known, inserted] = varyingPhis.try_emplace(phi, false);
    if (!inserted)
      return known->second;
    bool varying = any_of(phi->incoming_values(), [&](const Value *incoming) {
      return isVarying(incoming);
    });
    varyingPhis[phi] = varying;
    return varying;
  }
  Type *widen(Type *type) const {
    return FixedVectorType::get(type, frame.lanes);
  }
  bool isLaneScalar(Type *type) const {
    return type->isIntegerTy() || type->isFloatingPointTy() ||
           type->isPointerTy();
  }
  /// A uniform value's scalar; null if unknown (the invocation block).
  Value *scalar(Value *value);
  /// Any value as <W x T>: varying ones as widened, uniform ones splat.
  Value *vector(Value *value);
  Value *loadActive() {
    return b.CreateAlignedLoad(frame.active->getAllocatedType(), frame.active,
                               frame.active->getAlign(), "active");
  }
  void storeActive(Value *mask) {
    b.CreateAlignedStore(mask, frame.active, frame.active->getAlign());
  }
  Value *any(Value *mask) { return b.CreateOrReduce(mask); }
  /// i32: the lowest active lane (0 if none is).
  Value *firstActiveLane() {
    Value *bits = b.CreateBitCast(loadActive(), b.getIntNTy(frame.lanes));
    Value *lowest =
        b.CreateBinaryIntrinsic(Intrinsic::cttz, bits, b.getFalse());
    return b.CreateAnd(b.CreateZExtOrTrunc(lowest, b.getInt32Ty()),
                       b.getInt32(frame.lanes - 1));
  }
  /// The i<W> index of the highest active lane (W - 1 if none is): the
  /// last of the invocations that would run one after the other.
  Value *lastActiveLane() {
    Value *bits = b.CreateBitCast(loadActive(), b.getIntNTy(frame.lanes));
    Value *leading =
        b.CreateBinaryIntrinsic(Intrinsic::ctlz, bits, b.getFalse());
    return b.CreateAnd(
        b.CreateSub(b.getIntN(frame.lanes, frame.lanes - 1), leading),
        b.getIntN(frame.lanes, frame.lanes - 1));
  }
  Value *laneIndices(Type *element) {
    SmallVector<Constant *> indices;
    for (unsigned lane = 0; lane < frame.lanes; ++lane)
      indices.push_back(ConstantInt::get(element, lane));
    return ConstantVector::get(indices);
  }

  bool widenBlock(BasicBlock *block);
  bool widenInstruction(Instruction &inst);
  bool widenMaskOperation(CallInst &call, StringRef name);
  bool widenLoad(LoadInst &load);
  bool widenStore(StoreInst &store);
  Value *accessLanes(Type *type, Value *pointer, Value *addresses, Align align,
                     Value *values);
  /// Loads the lanes' elements of records a constant stride apart (a
  /// vec4's components, which the scalarizer split): `load` with the
  /// elements next to it that later loads of the block read before
  /// anything writes memory; false if `load`'s lanes are not so.
  bool loadRecordLanes(LoadInst &load, Value *addresses);
  /// The lanes' stride when each accesses one element of `type` at
  /// `pointer` in records a constant stride apart on an unbroken line.
  std::optional<int64_t> getRecordStride(Type *type, Value *pointer);
  /// i1: every lane active and the lanes' `addresses` (of `pointer`) on
  /// an unbroken line of `stride` bytes; `first` gets lane 0's address.
  Value *spansRecords(Value *pointer, Value *addresses, Value *active,
                      int64_t stride, Value *&first);
  /// The blocks of a record access: `span` if every lane is active on an
  /// unbroken line (spansRecords), else `sparse`, both to end at `after`;
  /// `first` is lane 0's address.
  struct RecordPaths {
    BasicBlock *span, *sparse, *after;
    Value *first;
  };
  /// Ends the current block with the branch between `RecordPaths`, whose
  /// `span` block the builder is then in.
  RecordPaths branchOnRecordSpan(Value *pointer, Value *addresses,
                                 Value *active, int64_t stride);
  /// Stores every component of the lanes' records (a vec4 store the
  /// scalarizer split) together if `store` is the first of them.
  bool storeRecordLanes(StoreInst &store);
  /// What may keep a line's lanes from being exactly consecutive.
  struct LineBreaks {
    /// Widenings of a narrower line, each of which may add a jump of 2^N
    /// at one lane.
    unsigned jumps = 0;
    /// Clamps (min and max with a constant) of an unbroken line, which may
    /// hold some lanes at the bound: the steps stay between 0 and the
    /// line's, so the span shrinks wherever one clamps.
    unsigned clamps = 0;
    /// Whether the line runs through a loop's values, which only the lanes
    /// active since the loop began hold (getLoopLaneStride).
    bool inLoop = false;
  };
  /// How the lanes' values of `value` (an integer or a pointer of the
  /// body) step from one lane to the next when they lie on a line modulo
  /// 2^bits: 0 for a uniform value, bytes for pointers; none if not known
  /// to.
  std::optional<int64_t> getLaneStride(Value *value, LineBreaks &breaks,
                                       bool acrossWorkgroup = false,
                                       unsigned depth = 0);
  /// getLaneStride of a loop header's phi.
  std::optional<int64_t> getLoopLaneStride(PHINode &phi, LineBreaks &breaks,
                                           bool acrossWorkgroup,
                                           unsigned depth);
  /// The steps getLoopLaneStride assumes while it follows a back edge.
  DenseMap<const PHINode *, int64_t> loopStrides;
  /// `value` of the body for the invocation of local index `index`,
  /// computed before the loop over chunks; null unless it depends only on
  /// the invocation's ids, uniform fields, invariant loads from the
  /// dispatch's tables and arithmetic. `known` caches per index.
  Value *getValueAtInvocation(Value *value, Value *index,
                              DenseMap<Value *, Value *> &known,
                              unsigned depth = 0);
  /// Whether the workgroup's invocations' `address`es are consecutive
  /// elements of `size` bytes and, if `condition` is a robust access's
  /// bounds check (AbiSymbols.h), all pass it: i1 computed before the loop
  /// over chunks, or null if that cannot be told there.
  Value *getWorkgroupLine(Value *address, Value *condition, uint64_t size);
  /// Whether `address` lies on a line of step `size` that may jump at most
  /// once and be clamped once (getLaneStride), across a group of lanes or
  /// the workgroup.
  bool isLine(Value *address, uint64_t size, bool acrossWorkgroup = false,
              LineBreaks *found = nullptr) {
    LineBreaks breaks;
    std::optional<int64_t> stride =
        getLaneStride(address, breaks, acrossWorkgroup);
    if (found)
      *found = breaks;
    return stride && *stride == int64_t(size) && breaks.jumps <= 1 &&
           breaks.clamps <= 1;
  }
  /// i1: whether `last` is `count - 1` elements of `size` bytes past
  /// `first`, which on such a line means no jump or clamp between them: a
  /// clamp only shrinks the span, and a jump of 2^N is more than the
  /// line's whole span.
  static Value *spansLine(IRBuilder<> &builder, Value *first, Value *last,
                          unsigned count, uint64_t size) {
    Type *i64 = builder.getInt64Ty();
    return builder.CreateICmpEQ(
        builder.CreateSub(builder.CreatePtrToInt(last, i64),
                          builder.CreatePtrToInt(first, i64)),
        builder.getInt64((count - 1) * size));
  }
  /// One plain vector load (`values` null) or store at `first`.
  Value *accessWhole(Type *type, Value *first, Align align, Value *values) {
    if (values) {
      b.CreateAlignedStore(values, first, align);
      return nullptr;
    }
    return b.CreateAlignedLoad(widen(type), first, align);
  }
  /// i1: whether `addresses` (of `pointer` in the body, or null) are
  /// consecutive elements of `size` bytes.
  Value *areConsecutive(Value *pointer, Value *addresses, uint64_t size);
  void prefetchLaterChunks(Value *pointer, Value *first, uint64_t size);
  /// The robust-access select (AbiSymbols.h) `inst` is, if its varying
  /// address is used only as the address of plain loads and stores.
  SelectInst *getDeferredGuard(Instruction &inst);
  Value *accessGuarded(Type *type, SelectInst &guard, Align align,
                       Value *values);
  /// `value` for one lane, computed in scalars from the invocation's fields
  /// and uniform values; null if it depends on anything else.
  Value *laneValue(Value *value, unsigned lane, unsigned depth = 0);
  bool widenCall(CallInst &call);
  bool widenSample2(CallInst &call);
  bool widenArithmetic(Instruction &inst);
  bool widenQuadDerivative(CallInst &call);
  bool widenSubgroupCall(CallInst &call, const LaneSubgroupCall &lane);
  /// Component `c` of the `type` elements at each lane's `pointer`:
  /// loaded (`values` null) or stored for the active lanes; null if
  /// the pointer is not known.
  Value *accessComponent(Value *pointer, Type *type, unsigned c,
                         Value *values = nullptr);
  unsigned getMathWidth(const CallInst &call);
  std::string getMathName(const CallInst &call, unsigned width);
  Value *callInParts(const CallInst &call, ArrayRef<Value *> args,
                     ArrayRef<Type *> overloads);
  bool widenAlloca(AllocaInst &alloca);
  /// Finds the register allocas and makes their element slots.
  void findRegisterAllocas();
  /// The slot of the element at `pointer` + `offset` in a register alloca,
  /// or null.
  AllocaInst *getElementSlot(Value *pointer, int64_t offset = 0);
  Value *loadElement(AllocaInst *slot) {
    return b.CreateLoad(slot->getAllocatedType(), slot);
  }
  /// Writes the active lanes of `values` to `slot`.
  void storeElement(AllocaInst *slot, Value *values) {
    b.CreateStore(b.CreateSelect(loadActive(), values, loadElement(slot)),
                  slot);
  }
  bool takesSample2Lanes(const CallInst &call) const;
  /// Runs `inst` once per active lane, in lane order.
  bool runPerLane(Instruction &inst);
  bool widenLineAtomic(AtomicRMWInst &rmw);
  bool widenUniformAtomic(AtomicRMWInst &rmw);
  /// Before the mask changes at the end of `block`: blend the values of
  /// the successors' varying phis into their slots.
  void storeEdgeValues(BasicBlock *block);
  bool isMaskChange(const Instruction &inst) const;

  Function &body;
  const DenseSet<const Value *> &divergent;
  const LaneFrame &frame;
  Module &module;
  LLVMContext &context;
  const DataLayout &layout;
  IRBuilder<> b;
  TargetLibraryInfoImpl library;
  /// Of the body, to tell loops' back edges.
  DominatorTree dominators;
  LoopInfo loops;

  DenseMap<const Value *, Value *> scalars;
  DenseMap<const Value *, Value *> vectors;
  /// Varying struct results, one <W x T> per field.
  DenseMap<const Value *, SmallVector<Value *>> structFields;
  DenseMap<const BasicBlock *, BasicBlock *> heads;
  /// The block where each body block's code ends (per-lane loops split).
  DenseMap<const BasicBlock *, BasicBlock *> tails;
  DenseMap<const PHINode *, AllocaInst *> slots;
  /// Private variables the widener sees every access to (the spill slots
  /// of derivatives and samples, which only loads, stores and those calls
  /// use): each element lives in a <W x T> slot, keyed by the alloca and
  /// the element's offset, that mem2reg promotes, instead of in per-lane
  /// copies reached by gathers and scatters.
  DenseSet<const Value *> registerAllocas;
  DenseMap<std::pair<const Value *, int64_t>, AllocaInst *> elementSlots;
  SmallVector<std::pair<PHINode *, PHINode *>> uniformPhis;
  DenseMap<const PHINode *, bool> varyingPhis;
  /// Robust-access selects left for their loads and stores to emit.
  DenseSet<const Value *> deferredGuards;
  /// Instructions widened ahead of their turn: a record's component
  /// stores, emitted with its first, and what computes their addresses.
  DenseSet<const Instruction *> widenedEarly;
  /// getWorkgroupLine's answers.
  DenseMap<std::pair<Value *, Value *>, Value *> workgroupLines;
  bool edgesStored = false;
  bool failed = false;
};

} // namespace

Value *LaneWidener::scalar(Value *value) {
  if (isa<Constant>(value) || isa<BasicBlock>(value) ||
      isa<MetadataAsValue>(value) || isa<InlineAsm>(value))
    return value;
  if (value == body.getArg(0))
    return frame.dispatch;
  if (body.arg_size() > 2 && value == body.getArg(2))
    return frame.scratch;
  return scalars.lookup(value);
}

Value *LaneWidener::vector(Value *value) {
  if (Value *known = vectors.lookup(value))
    return known;
  if (isVarying(value))
    return nullptr;
  Value *uniform = scalar(value);
  if (!uniform)
    return nullptr;
  if (auto *constant = dyn_cast<Constant>(uniform))
    return ConstantVector::getSplat(ElementCount::getFixed(frame.lanes),
                                    constant);
  return b.CreateVectorSplat(frame.lanes, uniform);
}

bool LaneWidener::isMaskChange(const Instruction &inst) const {
  const auto *call = dyn_cast<CallInst>(&inst);
  const Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return false;
  StringRef name = callee->getName();
  return name == kLanesIf || name == kLanesElse || name == kLanesLoop;
}

void LaneWidener::storeEdgeValues(BasicBlock *block) {
  if (edgesStored)
    return;
  edgesStored = true;
  Value *active = nullptr;
  for (BasicBlock *successor : successors(block)) {
    for (PHINode &phi : successor->phis()) {
      AllocaInst *slot = slots.lookup(&phi);
      if (!slot)
        continue;
      Value *incoming = vector(phi.getIncomingValueForBlock(block));
      if (!incoming) {
        failed = true;
        continue;
      }
      // A loop's back edge writes every lane: the lanes that left keep
      // their values in the exits' (LCSSA) phis, and the others hold
      // anything already.
      if (dominators.dominates(successor, block)) {
        b.CreateStore(incoming, slot);
        continue;
      }
      if (!active)
        active = loadActive();
      Value *old = b.CreateLoad(slot->getAllocatedType(), slot);
      b.CreateStore(b.CreateSelect(active, incoming, old), slot);
    }
  }
}

bool LaneWidener::widenMaskOperation(CallInst &call, StringRef name) {
  Type *pair = call.getType();
  if (name == kLanesIf) {
    Value *active = loadActive();
    // Lanes that left a loop compute on anything, poison included.
    Value *condition = b.CreateFreeze(vector(call.getArgOperand(0)));
    Value *taken = b.CreateAnd(active, condition, "taken");
    Value *rest = b.CreateAnd(active, b.CreateNot(condition), "rest");
    storeActive(taken);
    Value *result = b.CreateInsertValue(PoisonValue::get(pair), any(taken), 0);
    scalars[&call] = b.CreateInsertValue(result, rest, 1);
    return true;
  }
  if (name == kLanesElse) {
    Value *active = loadActive();
    Value *rest = scalar(call.getArgOperand(0));
    storeActive(rest);
    Value *result = b.CreateInsertValue(PoisonValue::get(pair), any(rest), 0);
    scalars[&call] = b.CreateInsertValue(result, active, 1);
    return true;
  }
  if (name == kLanesIfBreak) {
    Value *condition = b.CreateFreeze(vector(call.getArgOperand(0)));
    Value *broken = scalar(call.getArgOperand(1));
    scalars[&call] =
        b.CreateOr(broken, b.CreateAnd(condition, loadActive()), "broken");
    return true;
  }
  if (name == kLanesLoop) {
    Value *remaining =
        b.CreateAnd(loadActive(), b.CreateNot(scalar(call.getArgOperand(0))));
    storeActive(remaining);
    scalars[&call] = b.CreateNot(any(remaining), "all.left");
    return true;
  }
  if (name == kLanesEnd) {
    storeActive(b.CreateOr(loadActive(), scalar(call.getArgOperand(0))));
    return true;
  }
  return false;
}

bool LaneWidener::widenAlloca(AllocaInst &alloca) {
  if (registerAllocas.contains(&alloca))
    return true;
  if (!alloca.isStaticAlloca())
    return false;
  std::optional<TypeSize> bytes = alloca.getAllocationSize(layout);
  if (!bytes || bytes->isScalable())
    return false;
  // One copy per lane, side by side.
  uint64_t stride = alignTo(bytes->getFixedValue(), alloca.getAlign());
  IRBuilder<> entry(frame.allocaPoint);
  AllocaInst *copies = entry.CreateAlloca(
      ArrayType::get(entry.getInt8Ty(), stride * frame.lanes), nullptr,
      alloca.getName() + ".lanes");
  copies->setAlignment(alloca.getAlign());
  Value *offsets =
      b.CreateMul(laneIndices(b.getInt64Ty()),
                  ConstantVector::getSplat(ElementCount::getFixed(frame.lanes),
                                           b.getInt64(stride)));
  vectors[&alloca] = b.CreateGEP(b.getInt8Ty(), copies, offsets,
                                 alloca.getName(), GEPNoWrapFlags::inBounds());
  return true;
}

bool LaneWidener::takesSample2Lanes(const CallInst &call) const {
  const Function *callee = call.getCalledFunction();
  return callee && callee->getName() == abi::kSample2 &&
         call.arg_size() == 3 + SPVB_SAMPLE2_INPUTS + 1 &&
         isa<ConstantInt>(call.getArgOperand(0)) && frame.lanes <= 64;
}

void LaneWidener::findRegisterAllocas() {
  IRBuilder<> entry(frame.allocaPoint);
  Type *f32 = Type::getFloatTy(context);
  for (Instruction &inst : body.getEntryBlock()) {
    auto *alloca = dyn_cast<AllocaInst>(&inst);
    if (!alloca || !alloca->isStaticAlloca())
      continue;
    std::map<int64_t, Type *> elements;
    bool eligible = true;
    auto note = [&](int64_t offset, Type *type) {
      eligible &= elements.try_emplace(offset, type).first->second == type;
    };
    auto noteAccess = [&](User *user, Value *pointer, int64_t offset) {
      if (auto *load = dyn_cast<LoadInst>(user);
          load && load->isSimple() && isLaneScalar(load->getType())) {
        note(offset, load->getType());
        return true;
      }
      auto *store = dyn_cast<StoreInst>(user);
      if (!store || !store->isSimple() || store->getValueOperand() == pointer ||
          !isLaneScalar(store->getValueOperand()->getType()))
        return false;
      note(offset, store->getValueOperand()->getType());
      return true;
    };
    for (User *user : alloca->users()) {
      if (noteAccess(user, alloca, 0))
        continue;
      if (auto *gep = dyn_cast<GetElementPtrInst>(user)) {
        APInt offset(layout.getIndexTypeSizeInBits(gep->getType()), 0);
        if (gep->getPointerOperand() != alloca ||
            !gep->accumulateConstantOffset(layout, offset)) {
          eligible = false;
          break;
        }
        for (User *access : gep->users())
          eligible &= noteAccess(access, gep, offset.getSExtValue());
        continue;
      }
      auto *call = dyn_cast<CallInst>(user);
      if (call && isQuadDerivative(*call) &&
          call->getArgOperand(kSubgroupOperand0 + 1) != alloca) {
        unsigned count =
            cast<ConstantInt>(call->getArgOperand(kSubgroupOperandDesc))
                ->getZExtValue() &
            0xff;
        for (unsigned c = 0; c < count; ++c)
          note(4 * c, f32);
        continue;
      }
      if (std::optional<LaneSubgroupCall> lane =
              call && frame.subgroupSize ? getLaneSubgroupCall(*call)
                                         : std::nullopt) {
        auto noteComponents = [&](Type *type, unsigned count) {
          for (unsigned c = 0; c < count; ++c)
            note(c * layout.getTypeStoreSize(type), type);
        };
        if (call->getArgOperand(kSubgroupOperand0) == alloca)
          noteComponents(lane->operandType, lane->operandCount);
        if (call->getArgOperand(kSubgroupOperand0 + 1) == alloca)
          noteComponents(Type::getInt32Ty(context), lane->hasIndex ? 1 : 0);
        if (call->getArgOperand(kSubgroupResult) == alloca)
          noteComponents(lane->resultType, lane->resultCount);
        continue;
      }
      if (call && takesSample2Lanes(*call) &&
          count(call->args(), alloca) == 1 &&
          call->getArgOperand(call->arg_size() - 1) == alloca) {
        for (unsigned c = 0; c < 4; ++c)
          note(4 * c, f32);
        continue;
      }
      if (auto *intrinsic = dyn_cast<IntrinsicInst>(user);
          intrinsic && intrinsic->isLifetimeStartOrEnd())
        continue;
      eligible = false;
      break;
    }
    // Elements must not overlap.
    int64_t end = 0;
    for (auto [offset, type] : elements) {
      eligible &= offset >= end;
      end = offset + layout.getTypeStoreSize(type);
    }
    if (!eligible || elements.empty())
      continue;
    registerAllocas.insert(alloca);
    for (auto [offset, type] : elements)
      elementSlots[{alloca, offset}] = entry.CreateAlloca(
          widen(type), nullptr, alloca->getName() + ".element");
  }
}

AllocaInst *LaneWidener::getElementSlot(Value *pointer, int64_t offset) {
  int64_t base = 0;
  Value *object = GetPointerBaseWithConstantOffset(pointer, base, layout);
  if (!registerAllocas.contains(object))
    return nullptr;
  return elementSlots.lookup({object, base + offset});
}

bool LaneWidener::widenLoad(LoadInst &load) {
  Value *pointer = load.getPointerOperand();
  Type *type = load.getType();
  if (!isLaneScalar(type))
    return false;
  if (AllocaInst *slot = getElementSlot(pointer)) {
    vectors[&load] = loadElement(slot);
    return true;
  }
  int64_t offset = 0;
  if (GetPointerBaseWithConstantOffset(pointer, offset, layout) ==
      body.getArg(1)) {
    std::optional<InvocationFieldAccess> access =
        getInvocationField(offset, layout.getTypeStoreSize(type));
    if (!access || !load.isSimple())
      return false;
    if (isWorkgroupUniform(access->field)) {
      scalars[&load] = b.CreateAlignedLoad(
          type,
          b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), frame.group, offset),
          load.getAlign());
      return true;
    }
    Value *value = nullptr;
    switch (access->field) {
    case InvocationField::LocalId:
      value = frame.localId[access->component];
      break;
    case InvocationField::GlobalId:
      value = frame.globalId[access->component];
      break;
    case InvocationField::LocalIndex:
      value = frame.localIndex;
      break;
    case InvocationField::SubgroupId:
      value = frame.subgroupId;
      break;
    case InvocationField::SubgroupLocalId:
      value = frame.subgroupLocalId;
      break;
    case InvocationField::PrivateMemory:
      value = frame.privateMemory;
      break;
    default:
      return false;
    }
    if (!value || value->getType() != widen(type))
      return false;
    vectors[&load] = value;
    return true;
  }
  if (!load.isSimple())
    return runPerLane(load);
  if (!isVarying(pointer)) {
    Value *address = scalar(pointer);
    if (!address)
      return false;
    LoadInst *copy = b.CreateAlignedLoad(type, address, load.getAlign());
    copy->copyMetadata(load);
    if (isVarying(&load))
      vectors[&load] = b.CreateVectorSplat(frame.lanes, copy);
    else
      scalars[&load] = copy;
    return true;
  }
  // One address for every lane of a chunk (the y of a chunk that holds
  // one row: a matrix tile's row in shared memory): one load.
  LineBreaks breaks;
  std::optional<int64_t> step = getLaneStride(pointer, breaks);
  if (step && *step == 0 && !deferredGuards.contains(pointer)) {
    Value *address = laneValue(pointer, 0);
    // Lanes that were not active where a loop began hold anything in its
    // values: the address is the first active lane's.
    if (!address)
      if (Value *addresses = vector(pointer))
        address = b.CreateExtractElement(addresses, firstActiveLane());
    if (address) {
      ++NumBroadcastLoads;
      LoadInst *copy = b.CreateAlignedLoad(type, address, load.getAlign());
      copy->copyMetadata(load);
      vectors[&load] = b.CreateVectorSplat(frame.lanes, copy);
      return true;
    }
  }
  if (deferredGuards.contains(pointer)) {
    vectors[&load] = accessGuarded(type, *cast<SelectInst>(pointer),
                                   load.getAlign(), nullptr);
    return vectors[&load] != nullptr;
  }
  Value *addresses = vector(pointer);
  if (!addresses)
    return false;
  if (loadRecordLanes(load, addresses))
    return true;
  vectors[&load] =
      accessLanes(type, pointer, addresses, load.getAlign(), nullptr);
  return true;
}

Value *LaneWidener::spansRecords(Value *pointer, Value *addresses,
                                 Value *active, int64_t stride, Value *&first) {
  first = laneValue(pointer, 0);
  if (!first)
    first = b.CreateExtractElement(addresses, uint64_t(0));
  Value *last = laneValue(pointer, frame.lanes - 1);
  if (!last)
    last = b.CreateExtractElement(addresses, frame.lanes - 1);
  return b.CreateAnd(b.CreateAndReduce(active),
                     spansLine(b, first, last, frame.lanes, stride));
}

std::optional<int64_t> LaneWidener::getRecordStride(Type *type,
                                                    Value *pointer) {
  uint64_t size = layout.getTypeAllocSize(type);
  if ((!type->isIntOrPtrTy() && !type->isFloatingPointTy()) ||
      layout.getTypeSizeInBits(type) != 8 * size)
    return std::nullopt;
  LineBreaks breaks;
  std::optional<int64_t> stride = getLaneStride(pointer, breaks);
  if (!stride || *stride <= int64_t(size) || *stride % size ||
      breaks.jumps > 1 || breaks.clamps > 1)
    return std::nullopt;
  return stride;
}

bool LaneWidener::storeRecordLanes(StoreInst &store) {
  Type *type = store.getValueOperand()->getType();
  uint64_t size = layout.getTypeAllocSize(type);
  std::optional<int64_t> stride =
      getRecordStride(type, store.getPointerOperand());
  if (!stride || *stride / size > 8)
    return false;
  unsigned count = *stride / size;
  // The record's stores: this one first, the others later in the block
  // with nothing between that touches memory, so that they may move up
  // to it. What lies between (the scalarizer's address of each component)
  // is widened now, ahead of its turn.
  int64_t firstOffset = 0;
  Value *base = GetPointerBaseWithConstantOffset(store.getPointerOperand(),
                                                 firstOffset, layout);
  SmallVector<StoreInst *> components(count, nullptr);
  components[0] = &store;
  Align align = store.getAlign();
  unsigned found = 1;
  for (Instruction *inst = store.getNextNode(); inst && found < count;
       inst = inst->getNextNode()) {
    auto *other = dyn_cast<StoreInst>(inst);
    if (!other) {
      if (inst->mayReadOrWriteMemory() || inst->isTerminator() ||
          !widenInstruction(*inst))
        return false;
      widenedEarly.insert(inst);
      continue;
    }
    int64_t offset = 0;
    if (!other->isSimple() || other->getValueOperand()->getType() != type ||
        GetPointerBaseWithConstantOffset(other->getPointerOperand(), offset,
                                         layout) != base ||
        offset <= firstOffset || (offset - firstOffset) % size ||
        offset - firstOffset >= *stride ||
        components[(offset - firstOffset) / size] ||
        deferredGuards.contains(other->getPointerOperand()))
      return false;
    components[(offset - firstOffset) / size] = other;
    align = std::min(align, other->getAlign());
    ++found;
  }
  if (found < count)
    return false;
  SmallVector<Value *> values, addresses;
  for (StoreInst *component : components) {
    values.push_back(vector(component->getValueOperand()));
    addresses.push_back(vector(component->getPointerOperand()));
    if (!values.back() || !addresses.back())
      return false;
  }
  ++NumRecordAccesses;
  Value *active = loadActive();
  // With every lane active on an unbroken line, the records fill their
  // span: one store of the components interleaved.
  RecordPaths paths = branchOnRecordSpan(
      store.getPointerOperand(), b.CreateFreeze(addresses[0]), active, *stride);
  // Concatenated, then component j of lane l to element l * count + j.
  Value *all = concatenateVectors(b, values);
  SmallVector<int> order;
  for (unsigned lane = 0; lane < frame.lanes; ++lane)
    for (unsigned component = 0; component < count; ++component)
      order.push_back(component * frame.lanes + lane);
  b.CreateAlignedStore(b.CreateShuffleVector(all, order), paths.first, align);
  b.CreateBr(paths.after);
  b.SetInsertPoint(paths.sparse);
  for (unsigned component = 0; component < count; ++component)
    b.CreateMaskedScatter(values[component],
                          b.CreateFreeze(addresses[component]), align, active);
  b.CreateBr(paths.after);
  b.SetInsertPoint(paths.after);
  for (StoreInst *component : components)
    widenedEarly.insert(component);
  return true;
}

LaneWidener::RecordPaths LaneWidener::branchOnRecordSpan(Value *pointer,
                                                         Value *addresses,
                                                         Value *active,
                                                         int64_t stride) {
  RecordPaths paths;
  Value *spans = spansRecords(pointer, addresses, active, stride, paths.first);
  Function *function = frame.start->getParent();
  paths.span = BasicBlock::Create(context, "lanes.records", function);
  paths.sparse = BasicBlock::Create(context, "lanes.sparse", function);
  paths.after = BasicBlock::Create(context, "lanes.accessed", function);
  b.CreateCondBr(spans, paths.span, paths.sparse);
  b.SetInsertPoint(paths.span);
  return paths;
}

/// How far past a record's element loadRecordLanes looks for the others.
static constexpr unsigned kRecordScan = 64;

bool LaneWidener::loadRecordLanes(LoadInst &load, Value *addresses) {
  Type *type = load.getType();
  uint64_t size = layout.getTypeAllocSize(type);
  std::optional<int64_t> stride =
      getRecordStride(type, load.getPointerOperand());
  if (!stride)
    return false;
  unsigned step = *stride / size;
  // Other elements of the lanes' records next to this one, later in the
  // block before anything that writes memory: read together from lane 0's
  // first to the last lane's last, every byte of their span lies between
  // two elements the lanes read.
  int64_t thisOffset = 0;
  Value *base = GetPointerBaseWithConstantOffset(load.getPointerOperand(),
                                                 thisOffset, layout);
  SmallVector<std::pair<int64_t, LoadInst *>> found = {{thisOffset, &load}};
  unsigned scanned = 0;
  for (Instruction *inst = load.getNextNode();
       inst && !inst->isTerminator() && !inst->mayWriteToMemory() &&
       found.size() < step && ++scanned <= kRecordScan;
       inst = inst->getNextNode()) {
    auto *other = dyn_cast<LoadInst>(inst);
    int64_t offset = 0;
    if (other && other->isSimple() && other->getType() == type &&
        GetPointerBaseWithConstantOffset(other->getPointerOperand(), offset,
                                         layout) == base &&
        std::abs(offset - thisOffset) < *stride &&
        llvm::none_of(found,
                      [&](auto &known) { return known.first == offset; }) &&
        !deferredGuards.contains(other->getPointerOperand()) &&
        !widenedEarly.contains(other))
      found.emplace_back(offset, other);
  }
  llvm::sort(found, llvm::less_first());
  int64_t start = found.front().first;
  bool adjacent = found.back().first - start < *stride;
  for (auto [index, component] : llvm::enumerate(found))
    adjacent &= component.first == start + int64_t(index * size);
  if (!adjacent) {
    found = {{thisOffset, &load}};
    start = thisOffset;
  }
  unsigned count = found.size();
  // The span, in elements: a few vector registers.
  if (step * (frame.lanes - 1) + count > 8 * frame.lanes)
    return false;
  ++NumRecordAccesses;
  Align align = load.getAlign();
  for (auto &component : found)
    align = std::min(align, component.second->getAlign());
  Value *active = loadActive();
  addresses = b.CreateFreeze(addresses);
  RecordPaths paths =
      branchOnRecordSpan(load.getPointerOperand(), addresses, active, *stride);
  // One load of the span, element j of lane l at l * step + j.
  Value *records = b.CreateAlignedLoad(
      FixedVectorType::get(type, step * (frame.lanes - 1) + count),
      b.CreateConstGEP1_64(b.getInt8Ty(), paths.first, start - thisOffset),
      align);
  SmallVector<Value *> picked;
  for (unsigned component = 0; component < count; ++component) {
    SmallVector<int> elements;
    for (unsigned lane = 0; lane < frame.lanes; ++lane)
      elements.push_back(lane * step + component);
    picked.push_back(b.CreateShuffleVector(records, elements));
  }
  b.CreateBr(paths.after);
  b.SetInsertPoint(paths.sparse);
  SmallVector<Value *> gathered;
  for (auto &component : found)
    gathered.push_back(b.CreateMaskedGather(
        widen(type),
        b.CreateGEP(b.getInt8Ty(), addresses,
                    b.getInt64(component.first - thisOffset)),
        align, active));
  b.CreateBr(paths.after);
  b.SetInsertPoint(paths.after);
  for (auto [index, component] : llvm::enumerate(found)) {
    PHINode *result = b.CreatePHI(widen(type), 2);
    result->addIncoming(picked[index], paths.span);
    result->addIncoming(gathered[index], paths.sparse);
    vectors[component.second] = result;
    if (component.second != &load)
      widenedEarly.insert(component.second);
  }
  return true;
}

std::optional<int64_t> LaneWidener::getLaneStride(Value *value,
                                                  LineBreaks &breaks,
                                                  bool acrossWorkgroup,
                                                  unsigned depth) {
  if (!isVarying(value))
    return 0;
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || depth == 12)
    return std::nullopt;
  auto stride = [&](Value *operand) {
    return getLaneStride(operand, breaks, acrossWorkgroup, depth + 1);
  };
  // Widening an N-bit line, which wraps modulo 2^N, jumps by 2^N at most
  // once across the lanes when its step is small.
  int64_t span = acrossWorkgroup ? frame.invocations : frame.lanes;
  auto wrap = [&](std::optional<int64_t> step, unsigned bits) {
    if (step && *step && bits < 64) {
      if (std::abs(*step) * span >= (int64_t(1) << (bits - 1)))
        return std::optional<int64_t>();
      ++breaks.jumps;
    }
    return step;
  };
  auto widen = [&](std::optional<int64_t> step, Type *from) {
    return wrap(step, from->getScalarSizeInBits());
  };
  if (auto *load = dyn_cast<LoadInst>(inst)) {
    int64_t offset = 0;
    if (!load->isSimple() ||
        GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset,
                                         layout) != body.getArg(1))
      return std::nullopt;
    std::optional<InvocationFieldAccess> access =
        getInvocationField(offset, layout.getTypeStoreSize(load->getType()));
    if (access && access->field == InvocationField::LocalIndex)
      return 1;
    // A chunk that is one subgroup has one subgroup id.
    if (access && access->field == InvocationField::SubgroupId &&
        frame.subgroupSize && !acrossWorkgroup)
      return 0;
    // In one row, the lanes' y and z are the same.
    if (access && (acrossWorkgroup ? frame.oneRow : frame.rowHoldsChunk) &&
        (access->field == InvocationField::LocalId ||
         access->field == InvocationField::GlobalId))
      return access->component == 0 ? 1 : 0;
    return std::nullopt;
  }
  if (auto *gep = dyn_cast<GetElementPtrInst>(inst)) {
    std::optional<int64_t> total = stride(gep->getPointerOperand());
    for (gep_type_iterator index = gep_type_begin(gep), end = gep_type_end(gep);
         total && index != end; ++index) {
      // Narrower indices are sign-extended.
      std::optional<int64_t> step =
          widen(stride(index.getOperand()), index.getOperand()->getType());
      if (!step || (*step && index.isStruct()))
        return std::nullopt;
      *total += *step * int64_t(index.getSequentialElementStride(layout));
    }
    return total;
  }
  if (auto *phi = dyn_cast<PHINode>(inst))
    return getLoopLaneStride(*phi, breaks, acrossWorkgroup, depth);
  if (auto *clamp = dyn_cast<MinMaxIntrinsic>(inst)) {
    // Of an unbroken line no more than half the ring long, which crosses
    // the wrap of the clamp's order at most once, turning back there.
    Value *line = clamp->getLHS();
    if (!isa<Constant>(clamp->getRHS()))
      return std::nullopt;
    LineBreaks inner;
    std::optional<int64_t> step =
        getLaneStride(line, inner, acrossWorkgroup, depth + 1);
    unsigned bits = line->getType()->getScalarSizeInBits();
    if (!step || inner.jumps || inner.clamps ||
        (bits < 64 && std::abs(*step) * span >= (int64_t(1) << (bits - 1))))
      return std::nullopt;
    if (*step)
      ++breaks.clamps;
    return step;
  }
  std::optional<int64_t> first = stride(inst->getOperand(0));
  if (!first)
    return std::nullopt;
  // What the lanes of a chunk share (the y of a chunk in one row) stays
  // shared through any arithmetic.
  if (*first == 0 && isa<BinaryOperator>(inst) && !inst->isIntDivRem()) {
    std::optional<int64_t> second = stride(inst->getOperand(1));
    if (second && *second == 0)
      return 0;
  }
  auto *constant = inst->getNumOperands() > 1
                       ? dyn_cast<ConstantInt>(inst->getOperand(1))
                       : nullptr;
  switch (inst->getOpcode()) {
  case Instruction::SExt:
  case Instruction::ZExt:
    // Non-negative values (below 2^(N-1)) do not wrap modulo 2^N.
    if (isa<ZExtInst>(inst) && inst->hasNonNeg())
      return first;
    return widen(first, inst->getOperand(0)->getType());
  case Instruction::Trunc:
    return first;
  case Instruction::Or:
    if (!cast<PossiblyDisjointInst>(inst)->isDisjoint())
      return std::nullopt;
    [[fallthrough]];
  case Instruction::Add:
  case Instruction::Sub: {
    std::optional<int64_t> second = stride(inst->getOperand(1));
    if (!second)
      return std::nullopt;
    return inst->getOpcode() == Instruction::Sub ? *first - *second
                                                 : *first + *second;
  }
  case Instruction::Mul:
    if (!constant)
      return std::nullopt;
    return *first * constant->getSExtValue();
  case Instruction::Shl:
    if (!constant || constant->getZExtValue() >= 32)
      return std::nullopt;
    return *first * (int64_t(1) << constant->getZExtValue());
  case Instruction::And:
    // Keeping the low m bits wraps the line modulo 2^m (LLVM's form of
    // (4 i + offset) / 4).
    if (!constant || !constant->getValue().isMask())
      return std::nullopt;
    return wrap(first, constant->getValue().countr_one());
  case Instruction::LShr:
  case Instruction::AShr: {
    // (b + s*l) >> k is (b >> k) + (s >> k)*l when 2^k divides s (vec4
    // records indexed by element / 4), except across a wrap of the line,
    // where it jumps once.
    if (!constant || constant->getZExtValue() >= 32)
      return std::nullopt;
    int64_t divisor = int64_t(1) << constant->getZExtValue();
    std::optional<int64_t> step = widen(first, inst->getType());
    if (!step || *step % divisor)
      return std::nullopt;
    return *step / divisor;
  }
  default:
    return std::nullopt;
  }
}

std::optional<int64_t> LaneWidener::getLoopLaneStride(PHINode &phi,
                                                      LineBreaks &breaks,
                                                      bool acrossWorkgroup,
                                                      unsigned depth) {
  // A loop's value where it leaves (LCSSA): the lanes active there left
  // together if the exit's condition is a uniform comparison (a loop of a
  // uniform trip count), so they hold the values of one iteration.
  if (phi.getNumIncomingValues() == 1) {
    auto *branch =
        dyn_cast<BranchInst>(phi.getIncomingBlock(0)->getTerminator());
    if (!branch ||
        (branch->isConditional() && (!isa<CmpInst>(branch->getCondition()) ||
                                     isVarying(branch->getCondition()))))
      return std::nullopt;
    breaks.inLoop = true;
    return getLaneStride(phi.getIncomingValue(0), breaks, acrossWorkgroup,
                         depth);
  }
  // A loop header's value with one way in. The lanes active in the loop
  // were all active on entering it (its slot took the entry value) and the
  // back edge writes every lane, so each lane holds the entry value, then
  // what the back edge makes of it: a line of the entry's step if the
  // back edge keeps the step (adds a uniform value) and breaks nothing.
  if (phi.getNumIncomingValues() != 2)
    return std::nullopt;
  BasicBlock *header = phi.getParent();
  unsigned back = dominators.dominates(header, phi.getIncomingBlock(0)) ? 0 : 1;
  if (!dominators.dominates(header, phi.getIncomingBlock(back)) ||
      dominators.dominates(header, phi.getIncomingBlock(1 - back)))
    return std::nullopt;
  if (auto assumed = loopStrides.find(&phi); assumed != loopStrides.end())
    return assumed->second;
  std::optional<int64_t> entry = getLaneStride(phi.getIncomingValue(1 - back),
                                               breaks, acrossWorkgroup, depth);
  if (!entry)
    return std::nullopt;
  breaks.inLoop = true;
  loopStrides[&phi] = *entry;
  LineBreaks inner;
  std::optional<int64_t> next =
      getLaneStride(phi.getIncomingValue(back), inner, acrossWorkgroup, depth);
  loopStrides.erase(&phi);
  if (next != entry || inner.jumps || inner.clamps)
    return std::nullopt;
  return entry;
}

Value *LaneWidener::areConsecutive(Value *pointer, Value *addresses,
                                   uint64_t size) {
  Value *first = b.CreateExtractElement(addresses, uint64_t(0));
  LineBreaks breaks;
  if (pointer && isLine(pointer, size, /*acrossWorkgroup=*/false, &breaks)) {
    ++NumLineAccesses;
    Value *spans =
        spansLine(b, first, b.CreateExtractElement(addresses, frame.lanes - 1),
                  frame.lanes, size);
    return breaks.inLoop ? b.CreateAnd(b.CreateAndReduce(loadActive()), spans)
                         : spans;
  }
  SmallVector<Constant *> offsets;
  for (unsigned lane = 0; lane < frame.lanes; ++lane)
    offsets.push_back(b.getInt64(lane * size));
  return b.CreateAndReduce(
      b.CreateICmpEQ(addresses, b.CreateGEP(b.getInt8Ty(), first,
                                            ConstantVector::get(offsets))));
}

/// A load of consecutive lanes inside one of the body's loops reads, in
/// the next chunks of invocations, the elements just after it. Each chunk
/// runs the whole loop before the next starts, so a row the invocations
/// share (ggml's soft_max: 512 invocations, a column each loop step) is read
/// one line per chunk, lines a loop step apart, which the hardware
/// prefetchers do not follow. Asks for the line kChunksAhead chunks on,
/// where the workgroup has chunks enough for that to be ahead of the loop.
void LaneWidener::prefetchLaterChunks(Value *pointer, Value *first,
                                      uint64_t size) {
  constexpr unsigned kChunksAhead = 4;
  auto *inst = dyn_cast_or_null<Instruction>(pointer);
  if (!inst || inst->getFunction() != &body ||
      !loops.getLoopFor(inst->getParent()) ||
      frame.invocations < 2 * kChunksAhead * frame.lanes)
    return;
  ++NumChunkPrefetches;
  Value *later = b.CreateGEP(b.getInt8Ty(), first,
                             b.getInt64(kChunksAhead * frame.lanes * size));
  b.CreateIntrinsic(Intrinsic::prefetch, {later->getType()},
                    {later, /*read*/ b.getInt32(0), /*locality*/ b.getInt32(3),
                     /*data*/ b.getInt32(1)});
}

/// Loads (`values` null) or stores the lanes' elements at `addresses` (of
/// `pointer` in the body, or null): one vector access when the addresses
/// are consecutive (invocation i at element i, the common case), else a
/// gather or scatter.
Value *LaneWidener::accessLanes(Type *type, Value *pointer, Value *addresses,
                                Align align, Value *values) {
  ++NumAccesses;
  Value *active = loadActive();
  uint64_t size = layout.getTypeAllocSize(type);
  // Inactive lanes' addresses may be poison; frozen, they are merely
  // anything, which at worst sends the access to the gather.
  addresses = b.CreateFreeze(addresses);
  // A vector of i1 is packed, one bit per lane, where memory holds a byte
  // per element: only the gather and scatter access the elements.
  if (layout.getTypeSizeInBits(type) != 8 * size) {
    if (values) {
      b.CreateMaskedScatter(values, addresses, align, active);
      return nullptr;
    }
    return b.CreateMaskedGather(widen(type), addresses, align, active);
  }
  // In scalars where it can be, so that the vector addresses sink into
  // the paths that need them.
  Value *first = pointer ? laneValue(pointer, 0) : nullptr;
  if (!first)
    first = b.CreateExtractElement(addresses, uint64_t(0));
  Function *function = frame.start->getParent();
  auto *vectorBlock = BasicBlock::Create(context, "lanes.dense", function);
  auto *scatterBlock = BasicBlock::Create(context, "lanes.sparse", function);
  auto *after = BasicBlock::Create(context, "lanes.accessed", function);
  // Decided once for the whole workgroup where that can be.
  if (Value *workgroup =
          pointer ? getWorkgroupLine(pointer, nullptr, size) : nullptr) {
    ++NumWorkgroupLines;
    auto *chunkBlock = BasicBlock::Create(context, "lanes.chunk", function);
    b.CreateCondBr(workgroup, vectorBlock, chunkBlock);
    b.SetInsertPoint(chunkBlock);
  }
  b.CreateCondBr(areConsecutive(pointer, addresses, size), vectorBlock,
                 scatterBlock);
  // With every lane active, a plain vector access: masked stores are
  // microcoded on AMD's cores, many times slower.
  b.SetInsertPoint(vectorBlock);
  auto *fullBlock = BasicBlock::Create(context, "lanes.full", function);
  auto *maskedBlock = BasicBlock::Create(context, "lanes.masked", function);
  b.CreateCondBr(b.CreateAndReduce(active), fullBlock, maskedBlock);
  b.SetInsertPoint(fullBlock);
  if (!values)
    prefetchLaterChunks(pointer, first, size);
  Value *whole = accessWhole(type, first, align, values);
  b.CreateBr(after);
  b.SetInsertPoint(maskedBlock);
  Value *loaded =
      values ? nullptr : b.CreateMaskedLoad(widen(type), first, align, active);
  if (values)
    b.CreateMaskedStore(values, first, align, active);
  b.CreateBr(after);
  b.SetInsertPoint(scatterBlock);
  Value *gathered =
      values ? nullptr
             : b.CreateMaskedGather(widen(type), addresses, align, active);
  if (values)
    b.CreateMaskedScatter(values, addresses, align, active);
  b.CreateBr(after);
  b.SetInsertPoint(after);
  if (values)
    return nullptr;
  PHINode *result = b.CreatePHI(widen(type), 3);
  result->addIncoming(whole, fullBlock);
  result->addIncoming(loaded, maskedBlock);
  result->addIncoming(gathered, scatterBlock);
  return result;
}

SelectInst *LaneWidener::getDeferredGuard(Instruction &inst) {
  auto *select = dyn_cast<SelectInst>(&inst);
  auto *spare =
      select ? dyn_cast<GlobalVariable>(select->getFalseValue()) : nullptr;
  if (!spare || !isVarying(select) ||
      !(spare->getName().starts_with(abi::kRobustZeroPrefix) ||
        spare->getName().starts_with(abi::kRobustSinkPrefix)))
    return nullptr;
  for (const User *user : select->users()) {
    const auto *load = dyn_cast<LoadInst>(user);
    const auto *store = dyn_cast<StoreInst>(user);
    if (!(load && load->isSimple()) &&
        !(store && store->isSimple() && store->getValueOperand() != select))
      return nullptr;
  }
  return select;
}

Value *LaneWidener::laneValue(Value *value, unsigned lane, unsigned depth) {
  if (!isVarying(value))
    return scalar(value);
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || depth == 8)
    return nullptr;
  // A varying load other than an invocation's field may be a buffer bound
  // that differs between lanes (an array of buffers).
  int64_t offset = 0;
  if (auto *load = dyn_cast<LoadInst>(inst)) {
    Value *lanes =
        GetPointerBaseWithConstantOffset(load->getPointerOperand(), offset,
                                         layout) == body.getArg(1)
            ? vector(value)
            : nullptr;
    return lanes ? b.CreateFreeze(b.CreateExtractElement(lanes, lane))
                 : nullptr;
  }
  // Lanes past the workgroup hold anything: no division for them.
  if (!isa<CmpInst, CastInst, GetElementPtrInst, SelectInst, MinMaxIntrinsic>(
          inst) &&
      !(isa<BinaryOperator>(inst) && !inst->isIntDivRem()))
    return nullptr;
  // The lane may be inactive, or hold what no invocation runs with: its
  // value must not become poison where the body's could not.
  Instruction *copy = inst->clone();
  copy->dropPoisonGeneratingFlags();
  for (Use &operand : copy->operands()) {
    Value *operandValue = laneValue(operand.get(), lane, depth + 1);
    if (!operandValue) {
      copy->deleteValue();
      return nullptr;
    }
    operand.set(operandValue);
  }
  return b.Insert(copy);
}

/// Whether loading through `pointer` before the loop over chunks is safe:
/// a constant offset into the dispatch block or into what an invariant
/// load of such a pointer gives (the binding table, push constants).
static bool isDispatchTablePointer(Value *pointer, const DataLayout &layout,
                                   const Function &body, unsigned depth = 0) {
  int64_t offset = 0;
  Value *base = GetPointerBaseWithConstantOffset(pointer, offset, layout);
  if (base == body.getArg(0))
    return true;
  auto *load = dyn_cast<LoadInst>(base);
  return load && depth < 4 && load->isSimple() &&
         load->hasMetadata(LLVMContext::MD_invariant_load) &&
         isDispatchTablePointer(load->getPointerOperand(), layout, body,
                                depth + 1);
}

Value *LaneWidener::getValueAtInvocation(Value *value, Value *index,
                                         DenseMap<Value *, Value *> &known,
                                         unsigned depth) {
  if (isa<Constant>(value))
    return value;
  if (value == body.getArg(0))
    return frame.dispatch;
  if (body.arg_size() > 2 && value == body.getArg(2))
    return frame.scratch;
  if (Value *done = known.lookup(value))
    return done;
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || depth == 12)
    return nullptr;
  IRBuilder<> prologue(frame.prologueEnd);
  Value *result = nullptr;
  if (auto *load = dyn_cast<LoadInst>(inst)) {
    int64_t offset = 0;
    Value *base = GetPointerBaseWithConstantOffset(load->getPointerOperand(),
                                                   offset, layout);
    if (!load->isSimple())
      return nullptr;
    if (base == body.getArg(1)) {
      std::optional<InvocationFieldAccess> access =
          getInvocationField(offset, layout.getTypeStoreSize(load->getType()));
      if (!access)
        return nullptr;
      unsigned c = access->component;
      if (isWorkgroupUniform(access->field))
        result = prologue.CreateAlignedLoad(
            load->getType(),
            prologue.CreateConstInBoundsGEP1_64(prologue.getInt8Ty(),
                                                frame.group, offset),
            load->getAlign());
      else if (access->field == InvocationField::LocalIndex)
        result = index;
      else if (frame.oneRow && access->field == InvocationField::LocalId)
        result = c == 0 ? index : prologue.getInt32(0);
      else if (frame.oneRow && access->field == InvocationField::GlobalId)
        result = c == 0 ? prologue.CreateAdd(frame.groupBase[0], index)
                        : frame.groupBase[c];
      if (result && result->getType() != load->getType())
        result = nullptr;
    } else if (load->hasMetadata(LLVMContext::MD_invariant_load) &&
               isDispatchTablePointer(load->getPointerOperand(), layout,
                                      body)) {
      Value *pointer = getValueAtInvocation(load->getPointerOperand(), index,
                                            known, depth + 1);
      if (pointer) {
        auto *copy = cast<Instruction>(load->clone());
        copy->setOperand(0, pointer);
        result = prologue.Insert(copy);
      }
    }
  } else if (isa<CmpInst, CastInst, GetElementPtrInst, SelectInst, FreezeInst,
                 MinMaxIntrinsic>(inst) ||
             (isa<BinaryOperator>(inst) && !inst->isIntDivRem())) {
    SmallVector<Value *> operands;
    for (Value *operand : inst->operand_values()) {
      operands.push_back(
          getValueAtInvocation(operand, index, known, depth + 1));
      if (!operands.back())
        return nullptr;
    }
    Instruction *copy = inst->clone();
    copy->dropPoisonGeneratingFlags();
    for (auto [i, operand] : enumerate(operands))
      copy->setOperand(i, operand);
    result = prologue.Insert(copy);
  }
  if (result)
    known[value] = result;
  return result;
}

Value *LaneWidener::getWorkgroupLine(Value *address, Value *condition,
                                     uint64_t size) {
  auto [cached, inserted] =
      workgroupLines.try_emplace({address, condition}, nullptr);
  if (!inserted)
    return cached->second;
  // A workgroup of one chunk too: computed from the ids, the check often
  // folds to a constant where the chunk's, from vector lanes, does not.
  if (!frame.prologueEnd || frame.invocations < frame.lanes ||
      !isLine(address, size, /*acrossWorkgroup=*/true))
    return nullptr;
  // On a line that does not jump (a jump would change the span), the
  // first and last invocations' bounds bracket the others'.
  IRBuilder<> prologue(frame.prologueEnd);
  Value *ends[2] = {prologue.getInt32(0),
                    prologue.getInt32(frame.invocations - 1)};
  Value *checks[2] = {prologue.getTrue(), prologue.getTrue()};
  Value *addresses[2];
  for (int end = 0; end < 2; ++end) {
    DenseMap<Value *, Value *> known;
    if (condition)
      checks[end] = getValueAtInvocation(condition, ends[end], known);
    addresses[end] = getValueAtInvocation(address, ends[end], known);
    if (!checks[end] || !addresses[end])
      return nullptr;
  }
  Value *line = prologue.CreateAnd(
      prologue.CreateAnd(checks[0], checks[1]),
      spansLine(prologue, addresses[0], addresses[1], frame.invocations, size),
      "workgroup.line");
  workgroupLines[{address, condition}] = line;
  return line;
}

/// A robust access whose lanes are all active and consecutive checks its
/// first and last lanes' bounds, which bracket the others' when the bounds
/// are uniform (AbiSymbols.h); any other takes the selected addresses lane by
/// lane. Only addresses on a line of the access's step (getLaneStride)
/// take the first path.
Value *LaneWidener::accessGuarded(Type *type, SelectInst &guard, Align align,
                                  Value *values) {
  Value *addresses = vector(guard.getTrueValue());
  Value *inside = vector(guard.getCondition());
  if (!addresses || !inside)
    return nullptr;
  auto checkLanes = [&] {
    Value *spare =
        ConstantVector::getSplat(ElementCount::getFixed(frame.lanes),
                                 cast<Constant>(guard.getFalseValue()));
    Value *loaded = accessLanes(
        type, nullptr, b.CreateSelect(inside, addresses, spare), align, values);
    return values ? values : loaded;
  };
  // All in scalars, so that the vector code sinks into the checked path.
  uint64_t size = layout.getTypeAllocSize(type);
  Value *first = isLine(guard.getTrueValue(), size)
                     ? laneValue(guard.getTrueValue(), 0)
                     : nullptr;
  if (!first)
    return checkLanes();
  Function *function = frame.start->getParent();
  auto *wholeBlock = BasicBlock::Create(context, "lanes.inside", function);
  auto *checkedBlock = BasicBlock::Create(context, "lanes.checked", function);
  auto *after = BasicBlock::Create(context, "lanes.guarded", function);
  Value *allActive = b.CreateAndReduce(loadActive());
  // Decided once for the whole workgroup where that can be, else for
  // each group of lanes.
  if (Value *workgroup =
          getWorkgroupLine(guard.getTrueValue(), guard.getCondition(), size)) {
    auto *chunkBlock = BasicBlock::Create(context, "lanes.chunk", function);
    b.CreateCondBr(b.CreateAnd(allActive, workgroup), wholeBlock, chunkBlock);
    b.SetInsertPoint(chunkBlock);
  }
  Value *firstInside = laneValue(guard.getCondition(), 0);
  Value *lastInside = laneValue(guard.getCondition(), frame.lanes - 1);
  Value *last = laneValue(guard.getTrueValue(), frame.lanes - 1);
  Value *whole = b.getFalse();
  if (firstInside && lastInside && last) {
    // An inactive lane's values may be poison: they count only when every
    // lane is active.
    whole = b.CreateLogicalAnd(
        allActive, b.CreateAnd({spansLine(b, first, last, frame.lanes, size),
                                firstInside, lastInside}));
  }
  b.CreateCondBr(whole, wholeBlock, checkedBlock);
  b.SetInsertPoint(wholeBlock);
  Value *loaded = accessWhole(type, first, align, values);
  b.CreateBr(after);
  b.SetInsertPoint(checkedBlock);
  Value *checked = checkLanes();
  BasicBlock *checkedEnd = b.GetInsertBlock();
  b.CreateBr(after);
  b.SetInsertPoint(after);
  if (values)
    return values;
  PHINode *result = b.CreatePHI(widen(type), 2);
  result->addIncoming(loaded, wholeBlock);
  result->addIncoming(checked, checkedEnd);
  return result;
}

bool LaneWidener::widenStore(StoreInst &store) {
  Value *pointer = store.getPointerOperand();
  Value *value = store.getValueOperand();
  if (!isLaneScalar(value->getType()))
    return false;
  if (AllocaInst *slot = getElementSlot(pointer)) {
    Value *values = vector(value);
    if (!values)
      return false;
    storeElement(slot, values);
    return true;
  }
  if (!store.isSimple())
    return runPerLane(store);
  if (isVarying(pointer)) {
    if (deferredGuards.contains(pointer)) {
      Value *values = vector(value);
      return values &&
             accessGuarded(value->getType(), *cast<SelectInst>(pointer),
                           store.getAlign(), values);
    }
    if (storeRecordLanes(store))
      return true;
    Value *addresses = vector(pointer);
    Value *values = vector(value);
    if (!addresses || !values)
      return false;
    // One address for every lane (a subgroup's elected store to its slot):
    // the last active lane's value, at that lane's address, stays.
    LineBreaks breaks;
    std::optional<int64_t> step = getLaneStride(pointer, breaks);
    if (step && *step == 0) {
      ++NumBroadcastStores;
      Value *last = lastActiveLane();
      Type *one = FixedVectorType::get(value->getType(), 1);
      b.CreateMaskedStore(
          b.CreateInsertElement(PoisonValue::get(one),
                                b.CreateExtractElement(values, last),
                                uint64_t(0)),
          b.CreateExtractElement(b.CreateFreeze(addresses), last),
          store.getAlign(), b.CreateVectorSplat(1, any(loadActive())));
      return true;
    }
    // Lanes that store to the same address store in lane order, as the
    // invocations would one after the other.
    accessLanes(value->getType(), pointer, addresses, store.getAlign(), values);
    return true;
  }
  Value *address = scalar(pointer);
  if (!address)
    return false;
  Value *stored = nullptr;
  if (isVarying(value)) {
    // All lanes store to one address: the last active lane's value stays.
    Value *values = vector(value);
    if (!values)
      return false;
    stored = b.CreateExtractElement(values, lastActiveLane());
  } else {
    stored = scalar(value);
  }
  if (!stored)
    return false;
  StoreInst *copy = b.CreateAlignedStore(stored, address, store.getAlign());
  copy->copyMetadata(store);
  return true;
}

bool LaneWidener::widenCall(CallInst &call) {
  Function *callee = call.getCalledFunction();
  if (callee && callee->getName().starts_with("spvb.lanes."))
    return widenMaskOperation(call, callee->getName());
  if (isQuadDerivative(call))
    return widenQuadDerivative(call);
  if (frame.subgroupSize)
    if (std::optional<LaneSubgroupCall> lane = getLaneSubgroupCall(call))
      return widenSubgroupCall(call, *lane);
  if (takesSample2Lanes(call))
    return widenSample2(call);
  if (call.isConvergent() || call.isInlineAsm())
    return false;
  auto *intrinsic = dyn_cast<IntrinsicInst>(&call);
  if (intrinsic &&
      (intrinsic->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(intrinsic)))
    return true;
  bool pure = call.doesNotAccessMemory() && call.willReturn();
  bool anyVarying = any_of(call.args(), [&](Value *arg) {
    return isVarying(arg) || arg == body.getArg(1);
  });
  if (pure && !anyVarying && !isVarying(&call))
    return widenArithmetic(call);
  if (!pure || !intrinsic || !isLaneScalar(call.getType()))
    return runPerLane(call);
  Intrinsic::ID id = intrinsic->getIntrinsicID();
  if (!isTriviallyVectorizable(id))
    return runPerLane(call);
  SmallVector<Value *> args;
  SmallVector<Type *> overloads;
  if (isVectorIntrinsicWithOverloadTypeAtArg(id, -1, nullptr))
    overloads.push_back(widen(call.getType()));
  for (unsigned i = 0; i < call.arg_size(); ++i) {
    Value *arg = call.getArgOperand(i);
    if (isVectorIntrinsicWithScalarOpAtArg(id, i, nullptr)) {
      if (isVarying(arg))
        return runPerLane(call);
      args.push_back(scalar(arg));
    } else {
      args.push_back(vector(arg));
    }
    if (!args.back())
      return false;
    if (isVectorIntrinsicWithOverloadTypeAtArg(id, i, nullptr))
      overloads.push_back(args.back()->getType());
  }
  vectors[&call] = callInParts(call, args, overloads);
  return true;
}

/// spvb_rt_sample2(image_operands, image, sampler, 8 floats, result) for
/// all lanes in one spvb_rt_sample2_uniform call (one image and sampler)
/// or spvb_rt_sample2_lanes call (the lanes' images and samplers in
/// arrays), with rows of inputs and of results.
bool LaneWidener::widenSample2(CallInst &call) {
  constexpr unsigned kImage = 1, kFirstInput = 3;
  IRBuilder<> entry(frame.allocaPoint);
  Type *ptr = b.getPtrTy();
  auto laneArray = [&](Type *element, unsigned rows, const Twine &name) {
    AllocaInst *array = entry.CreateAlloca(
        ArrayType::get(element, rows * frame.lanes), nullptr, name);
    array->setAlignment(Align(32));
    return array;
  };
  auto storeRow = [&](Value *array, unsigned row, Value *value) {
    Value *lanes = vector(value);
    if (!lanes)
      return false;
    Type *element = lanes->getType()->getScalarType();
    b.CreateAlignedStore(lanes,
                         b.CreateConstInBoundsGEP1_64(
                             element, array, uint64_t(row) * frame.lanes),
                         Align(layout.getTypeStoreSize(element)));
    return true;
  };
  Type *f32 = b.getFloatTy();
  Value *results = laneArray(f32, 4, "sample.results");
  Value *inputs = laneArray(f32, SPVB_SAMPLE2_INPUTS, "sample.inputs");
  Value *destination = call.getArgOperand(call.arg_size() - 1);
  Value *destinations = nullptr;
  if (!getElementSlot(destination) && !(destinations = vector(destination)))
    return false;
  // Only the rows the image operands ask for are read: u, v, bias (row 2),
  // lod (3), the gradients (4 to 7).
  auto operands = cast<ConstantInt>(call.getArgOperand(0))->getZExtValue();
  for (unsigned row = 0; row < SPVB_SAMPLE2_INPUTS; ++row) {
    bool read = row < 2 ||
                (row == 2 && (operands & spv::ImageOperandsBiasMask)) ||
                (row == 3 && (operands & spv::ImageOperandsLodMask)) ||
                (row >= 4 && (operands & spv::ImageOperandsGradMask));
    if (read && !storeRow(inputs, row, call.getArgOperand(kFirstInput + row)))
      return false;
  }
  Value *active = b.CreateZExt(
      b.CreateBitCast(loadActive(), b.getIntNTy(frame.lanes)), b.getInt64Ty());
  Value *image = call.getArgOperand(kImage);
  Value *sampler = call.getArgOperand(kImage + 1);
  if (!isVarying(image) && !isVarying(sampler) && scalar(image) &&
      scalar(sampler)) {
    FunctionCallee uniformFunction = module.getOrInsertFunction(
        abi::kSample2Uniform, b.getVoidTy(), b.getInt32Ty(), b.getInt32Ty(),
        b.getInt64Ty(), ptr, ptr, ptr, ptr);
    b.CreateCall(uniformFunction,
                 {call.getArgOperand(0), b.getInt32(frame.lanes), active,
                  scalar(image), scalar(sampler), inputs, results});
  } else {
    Value *images = laneArray(ptr, 1, "sample.images");
    Value *samplers = laneArray(ptr, 1, "sample.samplers");
    if (!storeRow(images, 0, image) || !storeRow(samplers, 0, sampler))
      return false;
    FunctionCallee lanesFunction = module.getOrInsertFunction(
        abi::kSample2Lanes, b.getVoidTy(), b.getInt32Ty(), b.getInt32Ty(),
        b.getInt64Ty(), ptr, ptr, ptr, ptr);
    b.CreateCall(lanesFunction, {call.getArgOperand(0), b.getInt32(frame.lanes),
                                 active, images, samplers, inputs, results});
  }
  for (unsigned c = 0; c < 4; ++c) {
    Value *row = b.CreateAlignedLoad(
        widen(f32), b.CreateConstInBoundsGEP1_64(f32, results, c * frame.lanes),
        Align(32));
    if (AllocaInst *slot = getElementSlot(destination, 4 * c))
      storeElement(slot, row);
    else
      b.CreateMaskedScatter(row, b.CreateConstGEP1_32(f32, destinations, c),
                            Align(4), loadActive());
  }
  return true;
}

/// libmvec's AVX-512 function for 16 lanes (_ZGVeN16v_sinf beside
/// _ZGVdN8v_sinf), which LLVM's table of libmvec lacks; empty unless the
/// host has AVX-512 and the process has the function.
static std::string getAVX512MathName(StringRef eightLaneName) {
  static const bool hasAVX512 = sys::getHostCPUFeatures().lookup("avx512f");
  if (!hasAVX512 || !eightLaneName.consume_front("_ZGVdN8"))
    return "";
  std::string name = ("_ZGVeN16" + eightLaneName).str();
  if (!sys::DynamicLibrary::SearchForAddressOfSymbol(name))
    return "";
  return name;
}

/// The name of the math library's function for `width` lanes, or empty.
std::string LaneWidener::getMathName(const CallInst &call, unsigned width) {
  StringRef name = call.getCalledFunction()->getName();
  StringRef vectorName = library.getVectorizedFunction(
      name, ElementCount::getFixed(width), /*Masked=*/false);
  if (!vectorName.empty() || width != 16)
    return vectorName.str();
  return getAVX512MathName(library.getVectorizedFunction(
      name, ElementCount::getFixed(8), /*Masked=*/false));
}

/// The vector math library may lack the full width: call it on the widest
/// part it has and join the parts.
unsigned LaneWidener::getMathWidth(const CallInst &call) {
  StringRef name = call.getCalledFunction()->getName();
  if (!library.isFunctionVectorizable(name))
    return frame.lanes;
  if (frame.lanes == 16 && !getMathName(call, 16).empty())
    return 16;
  // libmvec's 8-lane functions are AVX2 code (_ZGVd...).
  static const bool hasAVX2 = sys::getHostCPUFeatures().lookup("avx2");
  unsigned widest = hasAVX2 ? frame.lanes : std::min(frame.lanes, 4u);
  for (unsigned width = widest; width >= 2; width /= 2)
    if (library.isFunctionVectorizable(name, ElementCount::getFixed(width)))
      return width;
  return frame.lanes;
}

Value *LaneWidener::callInParts(const CallInst &call, ArrayRef<Value *> args,
                                ArrayRef<Type *> overloads) {
  Intrinsic::ID id = call.getIntrinsicID();
  unsigned width = getMathWidth(call);
  auto narrow = [&](Type *type) -> Type * {
    auto *vectorType = dyn_cast<FixedVectorType>(type);
    if (!vectorType || width == frame.lanes)
      return type;
    return FixedVectorType::get(vectorType->getElementType(), width);
  };
  SmallVector<Type *> partTypes;
  for (Type *type : overloads)
    partTypes.push_back(narrow(type));
  FunctionCallee callee =
      Intrinsic::getOrInsertDeclaration(&module, id, partTypes);
  // The library's function itself where it has one: LLVM would otherwise
  // join the parts again into a width it cannot call.
  std::string mathName = getMathName(call, width);
  if (!mathName.empty() &&
      all_of(args, [](Value *arg) { return arg->getType()->isVectorTy(); })) {
    SmallVector<Type *> params;
    for (Value *arg : args)
      params.push_back(narrow(arg->getType()));
    callee = module.getOrInsertFunction(
        mathName,
        FunctionType::get(narrow(widen(call.getType())), params, false));
    if (auto *function = dyn_cast<Function>(callee.getCallee())) {
      function->setDoesNotAccessMemory();
      function->setDoesNotThrow();
      function->setWillReturn();
    }
    // 512-bit arguments travel in zmm registers only where the caller
    // allows 512-bit vectors (the AVX-512 functions' ABI).
    unsigned bits = width * call.getType()->getScalarSizeInBits();
    Function &caller = *b.GetInsertBlock()->getParent();
    if (bits > 256 && caller.getFnAttributeAsParsedInteger(
                          "min-legal-vector-width", 0) < bits)
      caller.addFnAttr("min-legal-vector-width", std::to_string(bits));
  }
  SmallVector<Value *> parts;
  for (unsigned first = 0; first < frame.lanes; first += width) {
    SmallVector<Value *> partArgs;
    for (Value *arg : args)
      partArgs.push_back(width == frame.lanes || !arg->getType()->isVectorTy()
                             ? arg
                             : b.CreateShuffleVector(
                                   arg, createSequentialMask(first, width, 0)));
    CallInst *part = b.CreateCall(callee, partArgs);
    part->copyIRFlags(&call);
    parts.push_back(part);
  }
  return concatenateVectors(b, parts);
}

/// Each lane's horizontal or vertical difference in its quad (lanes
/// 4q + x + 2y), as the runtime computes it: fine derivatives use the lane's
/// own row or column, coarse ones the quad's first; a neighbour that is not
/// active (it terminated) counts as equal to the lane.
bool LaneWidener::widenQuadDerivative(CallInst &call) {
  if (frame.lanes % 4)
    return false;
  auto opcode =
      cast<ConstantInt>(call.getArgOperand(kSubgroupOpcode))->getZExtValue();
  unsigned count = cast<ConstantInt>(call.getArgOperand(kSubgroupOperandDesc))
                       ->getZExtValue() &
                   0xff;
  // Register allocas' elements are slots; other operands are read and
  // written through each lane's address.
  Value *operand = call.getArgOperand(kSubgroupOperand0);
  Value *destination = call.getArgOperand(kSubgroupResult);
  Value *operands = getElementSlot(operand) ? nullptr : vector(operand);
  Value *results = getElementSlot(destination) ? nullptr : vector(destination);
  if ((!operands && !getElementSlot(operand)) ||
      (!results && !getElementSlot(destination)))
    return false;
  SmallVector<int> right, left, below, above;
  for (unsigned lane = 0; lane < frame.lanes; ++lane) {
    unsigned quad = lane & ~3u;
    abi::QuadNeighbours of = abi::getQuadNeighbours(opcode, lane & 3u);
    right.push_back(quad + of.right);
    left.push_back(quad + of.left);
    below.push_back(quad + of.below);
    above.push_back(quad + of.above);
  }
  Value *active = loadActive();
  Type *f32 = b.getFloatTy();
  for (unsigned c = 0; c < count; ++c) {
    Value *values =
        operands ? b.CreateMaskedGather(widen(f32),
                                        b.CreateConstGEP1_32(f32, operands, c),
                                        Align(4), active)
                 : loadElement(getElementSlot(operand, 4 * c));
    auto neighbour = [&](ArrayRef<int> lanes) {
      return b.CreateSelect(b.CreateShuffleVector(active, lanes),
                            b.CreateShuffleVector(values, lanes), values);
    };
    Value *dx = b.CreateFSub(neighbour(right), neighbour(left));
    Value *dy = b.CreateFSub(neighbour(below), neighbour(above));
    Value *result = nullptr;
    switch (abi::getDerivativeKind(opcode)) {
    case abi::DerivativeKind::X:
      result = dx;
      break;
    case abi::DerivativeKind::Y:
      result = dy;
      break;
    case abi::DerivativeKind::Width:
      result = b.CreateFAdd(b.CreateUnaryIntrinsic(Intrinsic::fabs, dx),
                            b.CreateUnaryIntrinsic(Intrinsic::fabs, dy));
      break;
    }
    if (results)
      b.CreateMaskedScatter(result, b.CreateConstGEP1_32(f32, results, c),
                            Align(4), active);
    else
      storeElement(getElementSlot(destination, 4 * c), result);
  }
  return true;
}

Value *LaneWidener::accessComponent(Value *pointer, Type *type, unsigned c,
                                    Value *values) {
  uint64_t offset = c * layout.getTypeStoreSize(type);
  if (AllocaInst *slot = getElementSlot(pointer, offset)) {
    if (slot->getAllocatedType() != widen(type))
      return nullptr;
    if (!values)
      return loadElement(slot);
    storeElement(slot, values);
    return values;
  }
  Value *addresses = vector(pointer);
  if (!addresses)
    return nullptr;
  addresses = b.CreateConstGEP1_64(b.getInt8Ty(), addresses, offset);
  // Slots kept in scratch arrays (a region's) are consecutive: whole
  // vectors where the lanes' addresses are.
  Value *loaded = accessLanes(type, offset ? nullptr : pointer, addresses,
                              layout.getABITypeAlign(type), values);
  return values ? values : loaded;
}

/// A subgroup instruction of a chunk that is one subgroup, as vector
/// operations (LaneSubgroups.h).
bool LaneWidener::widenSubgroupCall(CallInst &call,
                                    const LaneSubgroupCall &lane) {
  SmallVector<Value *> operands;
  for (unsigned c = 0; lane.operandType && c < lane.operandCount; ++c) {
    operands.push_back(accessComponent(call.getArgOperand(kSubgroupOperand0),
                                       lane.operandType, c));
    if (!operands.back())
      return false;
  }
  Value *index = nullptr;
  if (lane.hasIndex &&
      !(index = accessComponent(call.getArgOperand(kSubgroupOperand0 + 1),
                                b.getInt32Ty(), 0)))
    return false;
  SmallVector<Value *> results = emitLaneSubgroupCall(
      b, lane, operands, index, loadActive(), frame.subgroupSize);
  for (auto [c, result] : enumerate(results))
    if (!accessComponent(call.getArgOperand(kSubgroupResult), lane.resultType,
                         c, result))
      return false;
  return true;
}

bool LaneWidener::widenArithmetic(Instruction &inst) {
  if (!isVarying(&inst)) {
    Instruction *copy = inst.clone();
    for (Use &operand : copy->operands()) {
      Value *value = scalar(operand.get());
      if (!value)
        return false;
      operand.set(value);
    }
    b.Insert(copy, inst.getName());
    scalars[&inst] = copy;
    return true;
  }
  if (!isLaneScalar(inst.getType()))
    return false;
  auto operand = [&](unsigned i) { return vector(inst.getOperand(i)); };
  for (Value *value : inst.operand_values())
    if (!isa<Constant>(value) && !vector(value))
      return false;
  Value *result = nullptr;
  if (auto *binary = dyn_cast<BinaryOperator>(&inst)) {
    Value *rhs = operand(1);
    // Inactive lanes hold anything: they must not divide by zero.
    if (binary->isIntDivRem() && isVarying(inst.getOperand(1)))
      rhs = b.CreateSelect(loadActive(), rhs,
                           ConstantInt::get(rhs->getType(), 1));
    result = b.CreateBinOp(binary->getOpcode(), operand(0), rhs);
  } else if (auto *unary = dyn_cast<UnaryOperator>(&inst)) {
    result = b.CreateUnOp(unary->getOpcode(), operand(0));
  } else if (auto *compare = dyn_cast<CmpInst>(&inst)) {
    result = b.CreateCmp(compare->getPredicate(), operand(0), operand(1));
  } else if (auto *cast = dyn_cast<CastInst>(&inst)) {
    result = b.CreateCast(cast->getOpcode(), operand(0), widen(inst.getType()));
  } else if (auto *select = dyn_cast<SelectInst>(&inst)) {
    Value *condition = isVarying(select->getCondition())
                           ? operand(0)
                           : scalar(select->getCondition());
    result = b.CreateSelect(condition, operand(1), operand(2));
  } else if (isa<FreezeInst>(inst)) {
    result = b.CreateFreeze(operand(0));
  } else if (auto *gep = dyn_cast<GetElementPtrInst>(&inst)) {
    Value *base = isVarying(gep->getPointerOperand())
                      ? vector(gep->getPointerOperand())
                      : scalar(gep->getPointerOperand());
    SmallVector<Value *> indices;
    for (Use &index : gep->indices()) {
      indices.push_back(isVarying(index.get()) ? vector(index.get())
                                               : scalar(index.get()));
      if (!indices.back())
        return false;
    }
    if (!base)
      return false;
    result = b.CreateGEP(gep->getSourceElementType(), base, indices, "",
                         gep->getNoWrapFlags());
    if (!result->getType()->isVectorTy())
      result = b.CreateVectorSplat(frame.lanes, result);
  } else {
    return false;
  }
  if (auto *resultInst = dyn_cast<Instruction>(result))
    if (isa<FPMathOperator>(resultInst) ||
        isa<OverflowingBinaryOperator>(resultInst) ||
        isa<PossiblyExactOperator>(resultInst))
      resultInst->copyIRFlags(&inst);
  result->setName(inst.getName());
  vectors[&inst] = result;
  return true;
}

bool LaneWidener::runPerLane(Instruction &inst) {
  // A struct result (cmpxchg, frexp) becomes one vector per field.
  Type *type = inst.getType();
  SmallVector<Type *> fields;
  // An unused result needs no vector: the copies stay unused too (an
  // atomic add's, which SkipIdentityAtomicsPass skips when it adds zero).
  if (!inst.use_empty()) {
    if (auto *structType = dyn_cast<StructType>(type))
      append_range(fields, structType->elements());
    else if (!type->isVoidTy())
      fields.push_back(type);
  }
  if (!all_of(fields, [&](Type *field) { return isLaneScalar(field); }))
    return false;
  for (Value *operand : inst.operand_values())
    if (operand != body.getArg(1) && !isa<Constant, BasicBlock>(operand) &&
        !isa<MetadataAsValue>(operand) &&
        !(isVarying(operand) ? vector(operand) : scalar(operand)))
      return false;
  if (is_contained(inst.operand_values(), body.getArg(1)) && !frame.laneBlocks)
    return false;
  Function *function = frame.start->getParent();
  Value *active = loadActive();
  BasicBlock *before = b.GetInsertBlock();
  auto *head = BasicBlock::Create(context, "lane", function);
  auto *run = BasicBlock::Create(context, "lane.run", function);
  auto *latch = BasicBlock::Create(context, "lane.next", function);
  auto *after = BasicBlock::Create(context, "lanes.done", function);
  b.CreateBr(head);

  b.SetInsertPoint(head);
  PHINode *lane = b.CreatePHI(b.getInt32Ty(), 2, "lane");
  lane->addIncoming(b.getInt32(0), before);
  SmallVector<PHINode *> results;
  for (Type *field : fields) {
    results.push_back(b.CreatePHI(widen(field), 2));
    results.back()->addIncoming(PoisonValue::get(widen(field)), before);
  }
  b.CreateCondBr(b.CreateExtractElement(active, lane), run, latch);

  b.SetInsertPoint(run);
  Instruction *copy = inst.clone();
  for (Use &operand : copy->operands()) {
    Value *value = operand.get();
    if (value == body.getArg(1))
      operand.set(b.CreateExtractElement(frame.laneBlocks, lane));
    else if (isVarying(value))
      operand.set(b.CreateExtractElement(vector(value), lane));
    else if (Value *uniform = scalar(value))
      operand.set(uniform);
  }
  b.Insert(copy);
  SmallVector<Value *> inserted;
  for (unsigned i = 0; i < fields.size(); ++i)
    inserted.push_back(b.CreateInsertElement(
        results[i], type->isStructTy() ? b.CreateExtractValue(copy, i) : copy,
        lane));
  b.CreateBr(latch);

  b.SetInsertPoint(latch);
  SmallVector<Value *> merged;
  for (unsigned i = 0; i < fields.size(); ++i) {
    PHINode *phi = b.CreatePHI(widen(fields[i]), 2);
    phi->addIncoming(results[i], head);
    phi->addIncoming(inserted[i], run);
    results[i]->addIncoming(phi, latch);
    merged.push_back(phi);
  }
  Value *next = b.CreateAdd(lane, b.getInt32(1));
  lane->addIncoming(next, latch);
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt32(frame.lanes)), head, after);
  b.SetInsertPoint(after);
  if (fields.empty())
    return true;
  if (!isVarying(&inst))
    return false;
  if (type->isStructTy())
    structFields[&inst] = std::move(merged);
  else
    vectors[&inst] = merged.front();
  return true;
}

/// An add every active lane applies to one address (a counter) is one
/// atomic of their sum: the lanes' atomics in lane order, one after
/// the other, are a valid order of them, and each lane's old value is the
/// one atomic's plus the lanes' before it (an exclusive scan in lane order).
/// Elsewhere the lanes run it one after the other.
bool LaneWidener::widenUniformAtomic(AtomicRMWInst &rmw) {
  Type *type = rmw.getType();
  Value *address = scalar(rmw.getPointerOperand());
  Value *operands = vector(rmw.getValOperand());
  if (rmw.getOperation() != AtomicRMWInst::Add || !type->isIntegerTy() ||
      rmw.isVolatile() || !isLaneScalar(type) || !address || !operands ||
      (!rmw.use_empty() && !isVarying(&rmw)))
    return runPerLane(rmw);
  ++NumCombinedAtomics;
  Value *active = loadActive();
  Value *zero = Constant::getNullValue(widen(type));
  Value *values = b.CreateSelect(active, operands, zero);
  // Inclusive sums in lane order: log2(W) shifted adds.
  Value *sums = values;
  for (unsigned shift = 1; shift < frame.lanes; shift *= 2) {
    SmallVector<int> mask;
    for (unsigned lane = 0; lane < frame.lanes; ++lane)
      mask.push_back(lane < shift ? int(frame.lanes) : int(lane - shift));
    sums = b.CreateAdd(sums, b.CreateShuffleVector(sums, zero, mask));
  }
  // No lane active: the address may be one no invocation computed.
  Function *function = frame.start->getParent();
  BasicBlock *before = b.GetInsertBlock();
  auto *run = BasicBlock::Create(context, "atomic.combined", function);
  auto *after = BasicBlock::Create(context, "atomic.done", function);
  b.CreateCondBr(b.CreateOrReduce(active), run, after);
  b.SetInsertPoint(run);
  Value *total = b.CreateExtractElement(sums, frame.lanes - 1);
  auto *combined = cast<AtomicRMWInst>(rmw.clone());
  combined->setOperand(0, address);
  combined->setOperand(1, total);
  b.Insert(combined);
  Value *earlier = b.CreateSub(sums, values);
  Value *start = b.CreateVectorSplat(frame.lanes, combined);
  Value *olds = b.CreateAdd(start, earlier);
  b.CreateBr(after);
  b.SetInsertPoint(after);
  if (rmw.use_empty())
    return true;
  PHINode *result = b.CreatePHI(widen(type), 2);
  result->addIncoming(olds, run);
  result->addIncoming(PoisonValue::get(widen(type)), before);
  vectors[&rmw] = result;
  return true;
}

/// A single-thread atomic (Workgroup memory, a buffer each thread changes
/// in a copy) whose lanes each hit an element of their own, the line
/// checks proving it, is a vector load, the operation and a vector store:
/// the lanes cannot see each other's elements, so their order does not
/// matter. Elsewhere the lanes run it one after the other.
bool LaneWidener::widenLineAtomic(AtomicRMWInst &rmw) {
  Value *pointer = rmw.getPointerOperand();
  Type *type = rmw.getType();
  uint64_t size = layout.getTypeAllocSize(type);
  bool supported = false;
  switch (rmw.getOperation()) {
  case AtomicRMWInst::Xchg:
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::And:
  case AtomicRMWInst::Nand:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::Max:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin:
    supported = type->isIntegerTy();
    break;
  default:
    break;
  }
  if (!supported || rmw.getSyncScopeID() != SyncScope::SingleThread ||
      rmw.isVolatile() || !isLaneScalar(type) ||
      layout.getTypeSizeInBits(type) != 8 * size ||
      deferredGuards.contains(pointer) ||
      !isLine(pointer, size, /*acrossWorkgroup=*/false))
    return runPerLane(rmw);
  Value *addresses = vector(pointer);
  Value *operands = vector(rmw.getValOperand());
  if (!addresses || !operands)
    return runPerLane(rmw);
  ++NumLineAtomics;
  Value *active = loadActive();
  addresses = b.CreateFreeze(addresses);
  Value *first = laneValue(pointer, 0);
  if (!first)
    first = b.CreateExtractElement(addresses, uint64_t(0));
  Function *function = frame.start->getParent();
  auto *lineBlock = BasicBlock::Create(context, "atomic.line", function);
  auto *maskedBlock = BasicBlock::Create(context, "atomic.masked", function);
  auto *perLaneBlock = BasicBlock::Create(context, "atomic.lanes", function);
  auto *after = BasicBlock::Create(context, "atomic.done", function);
  Align align = rmw.getAlign();
  b.CreateCondBr(areConsecutive(pointer, addresses, size), lineBlock,
                 perLaneBlock);
  // Every lane active: plain vector accesses (masked stores are microcoded
  // on AMD's cores).
  b.SetInsertPoint(lineBlock);
  auto *wholeBlock = BasicBlock::Create(context, "atomic.whole", function);
  b.CreateCondBr(b.CreateAndReduce(active), wholeBlock, maskedBlock);
  b.SetInsertPoint(wholeBlock);
  Value *whole = b.CreateAlignedLoad(widen(type), first, align);
  b.CreateAlignedStore(
      buildAtomicRMWValue(rmw.getOperation(), b, whole, operands), first,
      align);
  b.CreateBr(after);
  b.SetInsertPoint(maskedBlock);
  Value *masked = b.CreateMaskedLoad(widen(type), first, align, active);
  b.CreateMaskedStore(
      buildAtomicRMWValue(rmw.getOperation(), b, masked, operands), first,
      align, active);
  b.CreateBr(after);
  b.SetInsertPoint(perLaneBlock);
  if (!runPerLane(rmw))
    return false;
  Value *perLane = vectors.lookup(&rmw);
  BasicBlock *perLaneEnd = b.GetInsertBlock();
  b.CreateBr(after);
  b.SetInsertPoint(after);
  if (!perLane)
    return true;
  PHINode *result = b.CreatePHI(widen(type), 3);
  result->addIncoming(whole, wholeBlock);
  result->addIncoming(masked, maskedBlock);
  result->addIncoming(perLane, perLaneEnd);
  vectors[&rmw] = result;
  return true;
}

bool LaneWidener::widenInstruction(Instruction &inst) {
  if (isMaskChange(inst))
    storeEdgeValues(inst.getParent());
  if (auto *alloca = dyn_cast<AllocaInst>(&inst))
    return widenAlloca(*alloca);
  if (auto *load = dyn_cast<LoadInst>(&inst))
    return widenLoad(*load);
  if (auto *store = dyn_cast<StoreInst>(&inst))
    return widenStore(*store);
  if (auto *call = dyn_cast<CallInst>(&inst))
    return widenCall(*call);
  if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst))
    return isVarying(rmw->getPointerOperand()) ? widenLineAtomic(*rmw)
                                               : widenUniformAtomic(*rmw);
  if (isa<AtomicCmpXchgInst>(inst))
    return runPerLane(inst);
  if (isa<FenceInst>(inst)) {
    b.Insert(inst.clone());
    return true;
  }
  if (auto *extract = dyn_cast<ExtractValueInst>(&inst)) {
    auto parts = structFields.find(extract->getAggregateOperand());
    if (parts != structFields.end() && extract->getNumIndices() == 1) {
      vectors[&inst] = parts->second[extract->getIndices()[0]];
      return true;
    }
  }
  if (isa<ExtractValueInst, InsertValueInst>(inst))
    return !isVarying(&inst) && widenArithmetic(inst);
  int64_t offset = 0;
  if (isa<GetElementPtrInst>(inst) &&
      GetPointerBaseWithConstantOffset(&inst, offset, layout) == body.getArg(1))
    return true; // A field's address: its loads read the frame instead.
  if (auto *gep = dyn_cast<GetElementPtrInst>(&inst);
      gep && registerAllocas.contains(gep->getPointerOperand()))
    return true; // An element's address: its accesses use the slot.
  if (getDeferredGuard(inst)) {
    deferredGuards.insert(&inst);
    return true;
  }
  if (isa<BinaryOperator, UnaryOperator, CmpInst, CastInst, SelectInst,
          FreezeInst, GetElementPtrInst>(inst))
    return widenArithmetic(inst);
  LLVM_DEBUG(dbgs() << "spvb-lanes: cannot widen " << inst << "\n");
  return false;
}

bool LaneWidener::widenBlock(BasicBlock *block) {
  b.SetInsertPoint(heads[block]);
  edgesStored = false;
  for (PHINode &phi : block->phis()) {
    if (slots.count(&phi))
      continue;
    PHINode *copy =
        b.CreatePHI(phi.getType(), phi.getNumIncomingValues(), phi.getName());
    scalars[&phi] = copy;
    uniformPhis.emplace_back(&phi, copy);
  }
  for (PHINode &phi : block->phis())
    if (AllocaInst *slot = slots.lookup(&phi))
      vectors[&phi] =
          b.CreateLoad(slot->getAllocatedType(), slot, phi.getName());
  for (Instruction &inst :
       make_range(block->getFirstNonPHIIt(), block->end())) {
    if (inst.isTerminator())
      break;
    if (widenedEarly.contains(&inst))
      continue;
    if (!widenInstruction(inst)) {
      LLVM_DEBUG(dbgs() << "spvb-lanes: cannot widen " << inst << "\n");
      return false;
    }
  }
  storeEdgeValues(block);
  if (failed) {
    LLVM_DEBUG(dbgs() << "spvb-lanes: unknown phi value leaving "
                      << block->getName() << "\n");
    return false;
  }
  Instruction *terminator = block->getTerminator();
  if (isa<ReturnInst>(terminator)) {
    b.CreateBr(frame.done);
  } else if (auto *branch = dyn_cast<BranchInst>(terminator)) {
    if (branch->isUnconditional()) {
      b.CreateBr(heads[branch->getSuccessor(0)]);
    } else {
      if (isVarying(branch->getCondition())) {
        LLVM_DEBUG(dbgs() << "spvb-lanes: unmasked divergent branch in "
                          << block->getName() << "\n");
        return false;
      }
      Value *condition = scalar(branch->getCondition());
      if (!condition)
        return false;
      b.CreateCondBr(condition, heads[branch->getSuccessor(0)],
                     heads[branch->getSuccessor(1)]);
    }
  } else {
    return false;
  }
  tails[block] = b.GetInsertBlock();
  return true;
}

bool LaneWidener::run() {
  Function *function = frame.start->getParent();
  for (BasicBlock &block : body)
    heads[&block] = BasicBlock::Create(context, block.getName(), function);
  findRegisterAllocas();
  IRBuilder<> entry(frame.allocaPoint);
  for (BasicBlock &block : body)
    for (PHINode &phi : block.phis())
      if (isVarying(&phi)) {
        if (!isLaneScalar(phi.getType()))
          return false;
        slots[&phi] = entry.CreateAlloca(widen(phi.getType()), nullptr,
                                         phi.getName() + ".slot");
      }
  IRBuilder<>(frame.start).CreateBr(heads[&body.getEntryBlock()]);
  ReversePostOrderTraversal<Function *> order(&body);
  for (BasicBlock *block : order)
    if (!widenBlock(block))
      return false;
  for (auto [phi, copy] : uniformPhis) {
    for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i) {
      BasicBlock *from = tails.lookup(phi->getIncomingBlock(i));
      Value *value = scalar(phi->getIncomingValue(i));
      if (!from || !value) {
        LLVM_DEBUG(dbgs() << "spvb-lanes: uniform phi with a varying value "
                          << *phi << "\n");
        return false;
      }
      copy->addIncoming(value, from);
    }
  }
  return true;
}

bool spvb::widenBody(Function &body, const DenseSet<const Value *> &divergent,
                     const LaneFrame &frame) {
  return LaneWidener(body, divergent, frame).run();
}
