//===- LaneSubgroups.cpp - Subgroup instructions in SIMD lanes -----------===//
#include "LaneSubgroups.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace spvb;

/// spvb_rt_subgroup's operands (kernel_abi.h).
enum Operand {
  kOpcode = 1,
  kGroupOperation = 2,
  kClusterSize = 3,
  kOperandDesc = 5,
  kResultDesc = 6,
  kOperand1 = 8,
};

/// The component type an SPVB_TYPE_DESC names, or null.
static Type *getComponentType(LLVMContext &context, uint32_t desc) {
  unsigned bytes = (desc >> 8) & 0xff;
  switch (desc >> 16) {
  case SPVB_KIND_INT:
    return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8
               ? IntegerType::get(context, 8 * bytes)
               : nullptr;
  case SPVB_KIND_FLOAT:
    return bytes == 4   ? Type::getFloatTy(context)
           : bytes == 8 ? Type::getDoubleTy(context)
                        : nullptr;
  case SPVB_KIND_BOOL:
    return bytes == 1 ? Type::getInt8Ty(context) : nullptr;
  default:
    return nullptr;
  }
}

static bool isArithmetic(uint32_t opcode) {
  return opcode >= spv::OpGroupNonUniformIAdd &&
         opcode <= spv::OpGroupNonUniformLogicalXor;
}

static bool isFloatArithmetic(uint32_t opcode) {
  return opcode == spv::OpGroupNonUniformFAdd ||
         opcode == spv::OpGroupNonUniformFMul ||
         opcode == spv::OpGroupNonUniformFMin ||
         opcode == spv::OpGroupNonUniformFMax;
}

std::optional<LaneSubgroupCall>
spvb::getLaneSubgroupCall(const CallBase &call) {
  Function *callee = call.getCalledFunction();
  if (!callee || callee->getName() != abi::kSubgroup || call.arg_size() != 10)
    return std::nullopt;
  uint32_t fields[10] = {};
  for (unsigned i :
       {kOpcode, kGroupOperation, kClusterSize, kOperandDesc, kResultDesc}) {
    auto *constant = dyn_cast<ConstantInt>(call.getArgOperand(i));
    if (!constant)
      return std::nullopt;
    fields[i] = constant->getZExtValue();
  }
  LLVMContext &context = call.getContext();
  LaneSubgroupCall lane;
  lane.opcode = fields[kOpcode];
  lane.operation = fields[kGroupOperation];
  lane.clusterSize = fields[kClusterSize];
  lane.operandType = getComponentType(context, fields[kOperandDesc]);
  lane.operandCount = fields[kOperandDesc] & 0xff;
  lane.resultType = getComponentType(context, fields[kResultDesc]);
  lane.resultCount = fields[kResultDesc] & 0xff;
  if (!lane.resultType || lane.resultCount == 0)
    return std::nullopt;
  bool sameTypes = lane.operandType == lane.resultType &&
                   lane.operandCount == lane.resultCount;
  auto isBoolResult = [&] {
    return fields[kResultDesc] == SPVB_TYPE_DESC(SPVB_KIND_BOOL, 1, 1);
  };
  switch (lane.opcode) {
  case spv::OpGroupNonUniformElect:
    return isBoolResult() ? std::optional(lane) : std::nullopt;
  case spv::OpGroupNonUniformAll:
  case spv::OpGroupNonUniformAny:
  case spv::OpSubgroupAllKHR:
  case spv::OpSubgroupAnyKHR:
    return isBoolResult() && fields[kOperandDesc] == fields[kResultDesc]
               ? std::optional(lane)
               : std::nullopt;
  case spv::OpGroupNonUniformBallot:
  case spv::OpSubgroupBallotKHR:
    return fields[kOperandDesc] == SPVB_TYPE_DESC(SPVB_KIND_BOOL, 1, 1) &&
                   lane.resultType->isIntegerTy(32) && lane.resultCount == 4
               ? std::optional(lane)
               : std::nullopt;
  case spv::OpGroupNonUniformBroadcastFirst:
  case spv::OpSubgroupFirstInvocationKHR:
    return sameTypes ? std::optional(lane) : std::nullopt;
  case spv::OpGroupNonUniformAllEqual:
  case spv::OpSubgroupAllEqualKHR:
    return isBoolResult() && lane.operandType ? std::optional(lane)
                                              : std::nullopt;
  case spv::OpGroupNonUniformInverseBallot:
  case spv::OpGroupNonUniformBallotBitExtract:
  case spv::OpGroupNonUniformBallotBitCount:
  case spv::OpGroupNonUniformBallotFindLSB:
  case spv::OpGroupNonUniformBallotFindMSB: {
    // A ballot (uvec4) in, a bool or a uint out.
    bool ballot = lane.operandType && lane.operandType->isIntegerTy(32) &&
                  lane.operandCount == 4;
    bool flag = lane.opcode == spv::OpGroupNonUniformInverseBallot ||
                lane.opcode == spv::OpGroupNonUniformBallotBitExtract;
    bool result =
        flag ? isBoolResult()
             : lane.resultType->isIntegerTy(32) && lane.resultCount == 1;
    lane.hasIndex = lane.opcode == spv::OpGroupNonUniformBallotBitExtract;
    bool operation = lane.opcode != spv::OpGroupNonUniformBallotBitCount ||
                     lane.operation <= spv::GroupOperationExclusiveScan;
    if (!ballot || !result || !operation ||
        (lane.hasIndex &&
         isa<ConstantPointerNull>(call.getArgOperand(kOperand1))))
      return std::nullopt;
    return lane;
  }
  case spv::OpGroupNonUniformBroadcast:
  case spv::OpSubgroupReadInvocationKHR:
  case spv::OpGroupNonUniformShuffle:
  case spv::OpGroupNonUniformShuffleXor:
  case spv::OpGroupNonUniformShuffleUp:
  case spv::OpGroupNonUniformShuffleDown:
  case spv::OpGroupNonUniformRotateKHR:
  case spv::OpGroupNonUniformQuadBroadcast:
  case spv::OpGroupNonUniformQuadSwap:
    lane.hasIndex = true;
    return sameTypes && !isa<ConstantPointerNull>(call.getArgOperand(kOperand1))
               ? std::optional(lane)
               : std::nullopt;
  default:
    break;
  }
  if (!isArithmetic(lane.opcode) || !sameTypes ||
      lane.operation > spv::GroupOperationClusteredReduce ||
      isFloatArithmetic(lane.opcode) != lane.resultType->isFloatingPointTy())
    return std::nullopt;
  return lane;
}

namespace {

/// Emits one subgroup instruction for a chunk of lanes.
class SubgroupEmitter {
public:
  SubgroupEmitter(IRBuilder<> &b, const LaneSubgroupCall &call, Value *active,
                  unsigned subgroupSize)
      : b(b), call(call), active(active),
        lanes(cast<FixedVectorType>(active->getType())->getNumElements()),
        subgroupSize(subgroupSize) {}

  SmallVector<Value *> emit(ArrayRef<Value *> operands, Value *index);

private:
  Type *widen(Type *type) const { return FixedVectorType::get(type, lanes); }
  Value *splat(Value *value) { return b.CreateVectorSplat(lanes, value); }
  /// The active lanes as an integer of W bits, lane i at bit i.
  Value *activeBits() {
    return b.CreateBitCast(active, b.getIntNTy(lanes), "active.bits");
  }
  /// The lowest active lane (i32).
  Value *firstActive() {
    return b.CreateZExtOrTrunc(
        b.CreateBinaryIntrinsic(Intrinsic::cttz, activeBits(), b.getFalse()),
        b.getInt32Ty(), "first");
  }
  Value *laneIds() {
    SmallVector<Constant *> ids;
    for (unsigned lane = 0; lane < lanes; ++lane)
      ids.push_back(b.getInt32(lane));
    return ConstantVector::get(ids);
  }
  /// Each lane's value from lane `source` (<W x i32>), zero where that lane
  /// is outside the subgroup or inactive, as the runtime reads it.
  Value *readLanes(Value *values, Value *source);
  Value *identity(Type *type) const;
  Value *combine(Value *lower, Value *upper);
  Value *reduce(Value *values, unsigned width);
  Value *inclusiveScan(Value *values);
  Value *arithmetic(Value *values);
  /// The ballot (<W x i64>) in a uvec4's components, limited to the
  /// subgroup as the runtime reads it.
  Value *ballotMask(ArrayRef<Value *> components);
  Value *ballotOperation(Value *mask, Value *index);

  IRBuilder<> &b;
  const LaneSubgroupCall &call;
  Value *active;
  unsigned lanes;
  unsigned subgroupSize;
};

} // namespace

Value *SubgroupEmitter::readLanes(Value *values, Value *source) {
  Value *inRange = b.CreateICmpULT(source, splat(b.getInt32(lanes)));
  Value *wrapped = b.CreateAnd(source, splat(b.getInt32(lanes - 1)));
  Value *readable = b.CreateAnd(
      inRange,
      b.CreateICmpNE(
          b.CreateAnd(
              b.CreateLShr(
                  b.CreateZExt(splat(activeBits()), widen(b.getInt64Ty())),
                  b.CreateZExt(wrapped, widen(b.getInt64Ty()))),
              splat(b.getInt64(1))),
          splat(b.getInt64(0))));
  // Other lanes' values through a stack copy of the chunk's.
  Type *element = cast<VectorType>(values->getType())->getElementType();
  IRBuilder<> entry(
      &*b.GetInsertBlock()->getParent()->getEntryBlock().getFirstInsertionPt());
  AllocaInst *copy =
      entry.CreateAlloca(ArrayType::get(element, lanes), nullptr, "lanes.copy");
  b.CreateAlignedStore(values, copy, copy->getAlign());
  Value *addresses = b.CreateInBoundsGEP(element, copy, {wrapped});
  return b.CreateMaskedGather(values->getType(), addresses, copy->getAlign(),
                              readable,
                              Constant::getNullValue(values->getType()));
}

Value *SubgroupEmitter::identity(Type *type) const {
  if (type->isFloatingPointTy()) {
    switch (call.opcode) {
    case spv::OpGroupNonUniformFAdd:
      return ConstantFP::get(type, 0.0);
    case spv::OpGroupNonUniformFMul:
      return ConstantFP::get(type, 1.0);
    case spv::OpGroupNonUniformFMin:
      return ConstantFP::getInfinity(type);
    default: // FMax
      return ConstantFP::getInfinity(type, /*Negative=*/true);
    }
  }
  unsigned bits = type->getIntegerBitWidth();
  switch (call.opcode) {
  case spv::OpGroupNonUniformIMul:
  case spv::OpGroupNonUniformLogicalAnd:
    return ConstantInt::get(type, 1);
  case spv::OpGroupNonUniformSMin:
    return ConstantInt::get(type, APInt::getSignedMaxValue(bits));
  case spv::OpGroupNonUniformSMax:
    return ConstantInt::get(type, APInt::getSignedMinValue(bits));
  case spv::OpGroupNonUniformUMin:
  case spv::OpGroupNonUniformBitwiseAnd:
    return ConstantInt::get(type, APInt::getAllOnes(bits));
  default:
    return ConstantInt::get(type, 0);
  }
}

/// The runtime's combining of two lanes' values, the lower lane's first
/// (Combiner in SubgroupOperations.cpp): a min or max keeps the first of
/// equal values, a float one the other operand of a NaN.
Value *SubgroupEmitter::combine(Value *lower, Value *upper) {
  switch (call.opcode) {
  case spv::OpGroupNonUniformIAdd:
    return b.CreateAdd(lower, upper);
  case spv::OpGroupNonUniformFAdd:
    return b.CreateFAdd(lower, upper);
  case spv::OpGroupNonUniformIMul:
    return b.CreateMul(lower, upper);
  case spv::OpGroupNonUniformFMul:
    return b.CreateFMul(lower, upper);
  case spv::OpGroupNonUniformSMin:
    return b.CreateSelect(b.CreateICmpSLT(upper, lower), upper, lower);
  case spv::OpGroupNonUniformSMax:
    return b.CreateSelect(b.CreateICmpSGT(upper, lower), upper, lower);
  case spv::OpGroupNonUniformUMin:
    return b.CreateSelect(b.CreateICmpULT(upper, lower), upper, lower);
  case spv::OpGroupNonUniformUMax:
    return b.CreateSelect(b.CreateICmpUGT(upper, lower), upper, lower);
  case spv::OpGroupNonUniformFMin:
  case spv::OpGroupNonUniformFMax: {
    Value *better = call.opcode == spv::OpGroupNonUniformFMin
                        ? b.CreateFCmpOLT(upper, lower)
                        : b.CreateFCmpOGT(upper, lower);
    Value *ordered = b.CreateSelect(better, upper, lower);
    return b.CreateSelect(
        b.CreateFCmpUNO(lower, lower), upper,
        b.CreateSelect(b.CreateFCmpUNO(upper, upper), lower, ordered));
  }
  case spv::OpGroupNonUniformBitwiseAnd:
  case spv::OpGroupNonUniformLogicalAnd:
    return b.CreateAnd(lower, upper);
  case spv::OpGroupNonUniformBitwiseOr:
  case spv::OpGroupNonUniformLogicalOr:
    return b.CreateOr(lower, upper);
  default: // BitwiseXor, LogicalXor
    return b.CreateXor(lower, upper);
  }
}

/// A pairwise tree within each aligned group of `width` lanes: after the
/// step of distance d every lane holds its group of 2d lanes' total, the
/// lower half combined first, so all lanes of a group hold the same bits.
Value *SubgroupEmitter::reduce(Value *values, unsigned width) {
  for (unsigned distance = 1; distance < width; distance *= 2) {
    SmallVector<int> partner;
    SmallVector<Constant *> upperHalf;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      partner.push_back(lane ^ distance);
      upperHalf.push_back(b.getInt1(lane & distance));
    }
    Value *other = b.CreateShuffleVector(values, partner);
    Value *isUpper = ConstantVector::get(upperHalf);
    values = combine(b.CreateSelect(isUpper, other, values),
                     b.CreateSelect(isUpper, values, other));
  }
  return values;
}

/// Doubling steps (Hillis and Steele): after the step of distance d, lane i
/// holds lanes max(0, i - 2d + 1) .. i combined.
Value *SubgroupEmitter::inclusiveScan(Value *values) {
  for (unsigned distance = 1; distance < lanes; distance *= 2) {
    SmallVector<int> below;
    SmallVector<Constant *> reaches;
    for (unsigned lane = 0; lane < lanes; ++lane) {
      below.push_back(lane >= distance ? lane - distance : lane);
      reaches.push_back(b.getInt1(lane >= distance));
    }
    Value *lower = b.CreateShuffleVector(values, below);
    values = b.CreateSelect(ConstantVector::get(reaches),
                            combine(lower, values), values);
  }
  return values;
}

Value *SubgroupEmitter::arithmetic(Value *values) {
  Type *type = cast<VectorType>(values->getType())->getElementType();
  Value *none = splat(identity(type));
  values = b.CreateSelect(active, values, none);
  switch (call.operation) {
  case spv::GroupOperationReduce:
    return reduce(values, lanes);
  case spv::GroupOperationClusteredReduce:
    return reduce(values, std::min(std::max(call.clusterSize, 1u), lanes));
  case spv::GroupOperationInclusiveScan:
    return inclusiveScan(values);
  default: { // ExclusiveScan: each lane takes the lane below's inclusive one.
    SmallVector<int> below{int(lanes)};
    for (unsigned lane = 1; lane < lanes; ++lane)
      below.push_back(lane - 1);
    return b.CreateShuffleVector(inclusiveScan(values), none, below);
  }
  }
}

Value *SubgroupEmitter::ballotMask(ArrayRef<Value *> components) {
  Type *i64 = widen(b.getInt64Ty());
  Value *mask = b.CreateOr(
      b.CreateZExt(components[0], i64),
      b.CreateShl(b.CreateZExt(components[1], i64), splat(b.getInt64(32))));
  if (subgroupSize < 64)
    mask = b.CreateAnd(mask, splat(b.getInt64((1ull << subgroupSize) - 1)));
  return mask;
}

Value *SubgroupEmitter::ballotOperation(Value *mask, Value *index) {
  Type *i64 = b.getInt64Ty();
  Value *one = splat(b.getInt64(1));
  Value *zero = splat(b.getInt64(0));
  Value *ids = b.CreateZExt(laneIds(), widen(i64));
  auto bit = [&](Value *position) {
    return b.CreateZExt(
        b.CreateICmpNE(b.CreateAnd(b.CreateLShr(mask, position), one), zero),
        widen(b.getInt8Ty()));
  };
  Value *none = b.CreateICmpEQ(mask, zero);
  Value *allOnes = splat(b.getInt32(~0u));
  Type *i32 = widen(b.getInt32Ty());
  switch (call.opcode) {
  case spv::OpGroupNonUniformInverseBallot:
    return bit(ids);
  case spv::OpGroupNonUniformBallotBitExtract: {
    Value *wide = b.CreateZExt(index, widen(i64));
    Value *inside = b.CreateICmpULT(wide, splat(b.getInt64(64)));
    return b.CreateSelect(inside, bit(b.CreateAnd(wide, splat(b.getInt64(63)))),
                          splat(b.getInt8(0)));
  }
  case spv::OpGroupNonUniformBallotFindLSB:
    return b.CreateSelect(
        none, allOnes,
        b.CreateTrunc(
            b.CreateBinaryIntrinsic(Intrinsic::cttz, mask, b.getTrue()), i32));
  case spv::OpGroupNonUniformBallotFindMSB:
    return b.CreateSelect(
        none, allOnes,
        b.CreateTrunc(b.CreateSub(splat(b.getInt64(63)),
                                  b.CreateBinaryIntrinsic(Intrinsic::ctlz, mask,
                                                          b.getTrue())),
                      i32));
  default: { // BallotBitCount
    Value *below = b.CreateSub(b.CreateShl(one, ids), one);
    if (call.operation == spv::GroupOperationInclusiveScan)
      mask = b.CreateAnd(mask, b.CreateOr(below, b.CreateShl(one, ids)));
    else if (call.operation == spv::GroupOperationExclusiveScan)
      mask = b.CreateAnd(mask, below);
    return b.CreateTrunc(b.CreateUnaryIntrinsic(Intrinsic::ctpop, mask), i32);
  }
  }
}

SmallVector<Value *> SubgroupEmitter::emit(ArrayRef<Value *> operands,
                                           Value *index) {
  SmallVector<Value *> results;
  Type *i8 = b.getInt8Ty();
  auto asBool = [&](Value *byte) {
    return b.CreateICmpNE(byte, Constant::getNullValue(byte->getType()));
  };
  auto fromBool = [&](Value *flag) { return b.CreateZExt(flag, widen(i8)); };
  Value *ids = laneIds();
  switch (call.opcode) {
  case spv::OpGroupNonUniformElect:
    results.push_back(fromBool(b.CreateICmpEQ(ids, splat(firstActive()))));
    return results;
  case spv::OpGroupNonUniformAll:
  case spv::OpSubgroupAllKHR:
    results.push_back(fromBool(splat(b.CreateAndReduce(
        b.CreateOr(asBool(operands[0]), b.CreateNot(active))))));
    return results;
  case spv::OpGroupNonUniformAny:
  case spv::OpSubgroupAnyKHR:
    results.push_back(fromBool(
        splat(b.CreateOrReduce(b.CreateAnd(asBool(operands[0]), active)))));
    return results;
  case spv::OpGroupNonUniformBallot:
  case spv::OpSubgroupBallotKHR: {
    Value *bits =
        b.CreateZExt(b.CreateBitCast(b.CreateAnd(asBool(operands[0]), active),
                                     b.getIntNTy(lanes)),
                     b.getInt64Ty());
    Type *i32 = b.getInt32Ty();
    results.push_back(splat(b.CreateTrunc(bits, i32)));
    results.push_back(splat(b.CreateTrunc(b.CreateLShr(bits, 32), i32)));
    results.push_back(splat(b.getInt32(0)));
    results.push_back(splat(b.getInt32(0)));
    return results;
  }
  case spv::OpGroupNonUniformAllEqual:
  case spv::OpSubgroupAllEqualKHR: {
    // Every active lane's value equals the first's (floats by value).
    Value *first = firstActive();
    Value *equal = active;
    for (Value *operand : operands) {
      Value *theirs = splat(b.CreateExtractElement(operand, first));
      Value *same = operand->getType()->isFPOrFPVectorTy()
                        ? b.CreateFCmpOEQ(operand, theirs)
                        : b.CreateICmpEQ(operand, theirs);
      equal = b.CreateAnd(equal, same);
    }
    results.push_back(fromBool(
        splat(b.CreateAndReduce(b.CreateOr(equal, b.CreateNot(active))))));
    return results;
  }
  case spv::OpGroupNonUniformInverseBallot:
  case spv::OpGroupNonUniformBallotBitExtract:
  case spv::OpGroupNonUniformBallotBitCount:
  case spv::OpGroupNonUniformBallotFindLSB:
  case spv::OpGroupNonUniformBallotFindMSB:
    results.push_back(ballotOperation(ballotMask(operands), index));
    return results;
  default:
    break;
  }
  if (!call.hasIndex && call.opcode != spv::OpGroupNonUniformBroadcastFirst &&
      call.opcode != spv::OpSubgroupFirstInvocationKHR) {
    for (Value *operand : operands)
      results.push_back(arithmetic(operand));
    return results;
  }
  // The instructions that read another lane's value.
  Value *source = nullptr;
  auto uniformIndex = [&] {
    // Dynamically uniform: the first active lane's index is every lane's.
    return splat(b.CreateExtractElement(index, firstActive()));
  };
  switch (call.opcode) {
  case spv::OpGroupNonUniformBroadcastFirst:
  case spv::OpSubgroupFirstInvocationKHR:
    source = splat(firstActive());
    break;
  case spv::OpGroupNonUniformBroadcast:
  case spv::OpSubgroupReadInvocationKHR:
    source = uniformIndex();
    break;
  case spv::OpGroupNonUniformShuffle:
    source = index;
    break;
  case spv::OpGroupNonUniformShuffleXor:
    source = b.CreateXor(ids, index);
    break;
  case spv::OpGroupNonUniformShuffleUp:
    source = b.CreateSub(ids, index);
    break;
  case spv::OpGroupNonUniformShuffleDown:
    source = b.CreateAdd(ids, index);
    break;
  case spv::OpGroupNonUniformRotateKHR:
    source = b.CreateAnd(b.CreateAdd(ids, index),
                         splat(b.getInt32(subgroupSize - 1)));
    break;
  case spv::OpGroupNonUniformQuadBroadcast:
    source = b.CreateAdd(b.CreateAnd(ids, splat(b.getInt32(~3u))), index);
    break;
  default: // QuadSwap: 0 horizontal, 1 vertical, 2 diagonal.
    source = b.CreateXor(ids, b.CreateAdd(index, splat(b.getInt32(1))));
    break;
  }
  for (Value *operand : operands)
    results.push_back(readLanes(operand, source));
  return results;
}

SmallVector<Value *> spvb::emitLaneSubgroupCall(IRBuilder<> &b,
                                                const LaneSubgroupCall &call,
                                                ArrayRef<Value *> operands,
                                                Value *index, Value *active,
                                                unsigned subgroupSize) {
  return SubgroupEmitter(b, call, active, subgroupSize).emit(operands, index);
}
