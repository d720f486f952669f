//===- ArithmeticPatterns.cpp - Host-safe integer and float arithmetic ----===//
//
// What SPIR-V leaves undefined yields a defined value here, never a trap or
// LLVM poison (documented in docs/semantics.md):
//   x / 0 and x % 0 (all integer forms)    -> all bits set (-1)
//   INT_MIN / -1 -> INT_MIN, INT_MIN % -1  -> 0
//   shifts by >= bit width                 -> amount taken modulo the width
//   float -> int out of range              -> saturated; NaN -> 0
//   bitfield offset + count > bit width    -> offset and count clamped
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include <spirv/unified1/spirv.hpp>

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace spvb;

namespace {

enum class DivKind { UDiv, SDiv, UMod, SRem, SMod };

template <typename Op, DivKind Kind>
class SafeDivisionPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getOperand1();
    Value b = adaptor.getOperand2();
    Type type = a.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Value zero = createIntConstant(rewriter, loc, type, 0);
    Value one = createIntConstant(rewriter, loc, type, 1);
    Value allOnes = createAllOnes(rewriter, loc, type);
    Value isZero =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, b, zero);
    Value unsafe = isZero;
    bool isSigned = Kind != DivKind::UDiv && Kind != DivKind::UMod;
    if (isSigned) {
      Value intMin = createIntConstant(
          rewriter, loc, type,
          llvm::APInt::getSignedMinValue(width).getSExtValue());
      Value aIsMin = LLVM::ICmpOp::create(rewriter, loc,
                                          LLVM::ICmpPredicate::eq, a, intMin);
      Value bIsMinusOne = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, b, allOnes);
      Value overflow = LLVM::AndOp::create(rewriter, loc, aIsMin, bIsMinusOne);
      unsafe = LLVM::OrOp::create(rewriter, loc, isZero, overflow);
    }
    Value divisor = LLVM::SelectOp::create(rewriter, loc, unsafe, one, b);
    Value result;
    switch (Kind) {
    case DivKind::UDiv:
      result = LLVM::UDivOp::create(rewriter, loc, a, divisor);
      break;
    case DivKind::SDiv:
      result = LLVM::SDivOp::create(rewriter, loc, a, divisor);
      break;
    case DivKind::UMod:
      result = LLVM::URemOp::create(rewriter, loc, a, divisor);
      break;
    case DivKind::SRem:
      result = LLVM::SRemOp::create(rewriter, loc, a, divisor);
      break;
    case DivKind::SMod: {
      // The sign follows the divisor: add it back when the signs differ.
      Value rem = LLVM::SRemOp::create(rewriter, loc, a, divisor);
      Value remNonZero = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ne, rem, zero);
      Value signsDiffer = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::slt,
          LLVM::XOrOp::create(rewriter, loc, rem, divisor), zero);
      Value adjust =
          LLVM::AndOp::create(rewriter, loc, remNonZero, signsDiffer);
      result = LLVM::SelectOp::create(
          rewriter, loc, adjust,
          LLVM::AddOp::create(rewriter, loc, rem, divisor), rem);
      break;
    }
    }
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, isZero, allOnes, result);
    return success();
  }
};

/// GLSL's mod: x - y * floor(x / y), which is also what Mesa computes.
class FModPattern : public OpConversionPattern<spirv::FModOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::FModOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand1();
    Value y = adaptor.getOperand2();
    Value quotient = LLVM::FDivOp::create(rewriter, loc, x, y);
    Value floor = LLVM::FFloorOp::create(rewriter, loc, quotient);
    Value product = LLVM::FMulOp::create(rewriter, loc, y, floor);
    rewriter.replaceOpWithNewOp<LLVM::FSubOp>(op, x, product);
    return success();
  }
};

template <typename Op, typename LLVMOp>
class MaskedShiftPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = adaptor.getOperand1();
    Type type = base.getType();
    Value shift =
        castIntegerToWidthOf(rewriter, loc, adaptor.getOperand2(), type, false);
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Value mask = createIntConstant(rewriter, loc, type, width - 1);
    Value amount = LLVM::AndOp::create(rewriter, loc, shift, mask);
    rewriter.replaceOpWithNewOp<LLVMOp>(op, type, base, amount);
    return success();
  }
};

/// Clamps bitfield offset and count so that offset + count <= width.
std::pair<Value, Value> clampBitfield(OpBuilder &b, Location loc, Type type,
                                      Value offset, Value count) {
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  offset =
      castIntegerToWidthOf(b, loc, offset, getElementTypeOrSelf(type), false);
  count =
      castIntegerToWidthOf(b, loc, count, getElementTypeOrSelf(type), false);
  Type scalar = getElementTypeOrSelf(type);
  Value w = createIntConstant(b, loc, scalar, width);
  offset = LLVM::UMinOp::create(b, loc, offset, w);
  Value room = LLVM::SubOp::create(b, loc, w, offset);
  count = LLVM::UMinOp::create(b, loc, count, room);
  if (auto vector = dyn_cast<VectorType>(type)) {
    // Offset and Count are scalars: splat them.
    offset = splatScalar(b, loc, offset, vector);
    count = splatScalar(b, loc, count, vector);
  }
  return {offset, count};
}

/// (1 << count) - 1, correct for count == width.
Value lowBitsMask(OpBuilder &b, Location loc, Type type, Value count) {
  unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  Value allOnes = createAllOnes(b, loc, type);
  Value w = createIntConstant(b, loc, type, width);
  Value isFull =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, count, w);
  Value safeCount = LLVM::SelectOp::create(
      b, loc, isFull, createIntConstant(b, loc, type, 0), count);
  Value shifted = LLVM::ShlOp::create(
      b, loc, createIntConstant(b, loc, type, 1), safeCount);
  Value mask =
      LLVM::SubOp::create(b, loc, shifted, createIntConstant(b, loc, type, 1));
  return LLVM::SelectOp::create(b, loc, isFull, allOnes, mask);
}

class BitFieldInsertPattern
    : public OpConversionPattern<spirv::BitFieldInsertOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::BitFieldInsertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = adaptor.getBase().getType();
    auto [offset, count] = clampBitfield(
        rewriter, loc, type, adaptor.getOffset(), adaptor.getCount());
    Value low = lowBitsMask(rewriter, loc, type, count);
    // offset < width unless count == 0; keep the shift defined.
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Value safeOffset =
        LLVM::AndOp::create(rewriter, loc, offset,
                            createIntConstant(rewriter, loc, type, width - 1));
    Value countZero =
        LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, count,
                             createIntConstant(rewriter, loc, type, 0));
    Value mask = LLVM::ShlOp::create(rewriter, loc, low, safeOffset);
    Value inserted = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::ShlOp::create(rewriter, loc, adaptor.getInsert(), safeOffset),
        mask);
    Value kept = LLVM::AndOp::create(
        rewriter, loc, adaptor.getBase(),
        LLVM::XOrOp::create(rewriter, loc, mask,
                            createAllOnes(rewriter, loc, type)));
    Value result = LLVM::OrOp::create(rewriter, loc, kept, inserted);
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, countZero,
                                                adaptor.getBase(), result);
    return success();
  }
};

template <typename Op, bool Signed>
class BitFieldExtractPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value base = adaptor.getBase();
    Type type = base.getType();
    auto [offset, count] = clampBitfield(
        rewriter, loc, type, adaptor.getOffset(), adaptor.getCount());
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Value w = createIntConstant(rewriter, loc, type, width);
    Value wMinus1 = createIntConstant(rewriter, loc, type, width - 1);
    Value zero = createIntConstant(rewriter, loc, type, 0);
    Value countZero = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::eq, count, zero);
    Value result;
    if (Signed) {
      // (base << (w - offset - count)) >>s (w - count), both amounts < w
      // when count > 0.
      Value left = LLVM::SubOp::create(
          rewriter, loc, LLVM::SubOp::create(rewriter, loc, w, offset), count);
      Value right = LLVM::SubOp::create(rewriter, loc, w, count);
      left = LLVM::AndOp::create(rewriter, loc, left, wMinus1);
      right = LLVM::AndOp::create(rewriter, loc, right, wMinus1);
      Value shifted = LLVM::ShlOp::create(rewriter, loc, base, left);
      result = LLVM::AShrOp::create(rewriter, loc, shifted, right);
    } else {
      Value safeOffset = LLVM::AndOp::create(rewriter, loc, offset, wMinus1);
      Value shifted = LLVM::LShrOp::create(rewriter, loc, base, safeOffset);
      result = LLVM::AndOp::create(rewriter, loc, shifted,
                                   lowBitsMask(rewriter, loc, type, count));
    }
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, countZero, zero, result);
    return success();
  }
};

template <typename Op, bool Signed>
class SaturatingFToIPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = this->getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(
        op, createIntrinsic(rewriter, op.getLoc(),
                            Signed ? "llvm.fptosi.sat" : "llvm.fptoui.sat",
                            type, adaptor.getOperand()));
    return success();
  }
};

class DotPattern : public OpConversionPattern<spirv::DotOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value product = LLVM::FMulOp::create(rewriter, loc, adaptor.getVector1(),
                                         adaptor.getVector2());
    // In order from component 0, no reassociation: a strict reduction.
    Value zero = createConstant(rewriter, loc, op.getType(), -0.0);
    rewriter.replaceOpWithNewOp<LLVM::vector_reduce_fadd>(op, op.getType(),
                                                          zero, product);
    return success();
  }
};

class VectorTimesScalarPattern
    : public OpConversionPattern<spirv::VectorTimesScalarOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::VectorTimesScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<VectorType>(adaptor.getVector().getType());
    Value splat = splatScalar(rewriter, loc, adaptor.getScalar(), type);
    rewriter.replaceOpWithNewOp<LLVM::FMulOp>(op, adaptor.getVector(), splat);
    return success();
  }
};

/// The two-member structs of the extended arithmetic results.
Value makePair(OpBuilder &b, Location loc, Type structType, Value first,
               Value second) {
  Value pair = LLVM::PoisonOp::create(b, loc, structType);
  pair = insertValue(b, loc, pair, first, 0);
  return insertValue(b, loc, pair, second, 1);
}

/// IAddCarry / ISubBorrow: {result, carry as 0 or 1}.
template <typename Op, bool IsAdd>
class CarryPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getOperand1();
    Value b = adaptor.getOperand2();
    Type type = a.getType();
    Value result = IsAdd ? LLVM::AddOp::create(rewriter, loc, a, b).getResult()
                         : LLVM::SubOp::create(rewriter, loc, a, b).getResult();
    Value flag = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult,
                                      IsAdd ? result : a, IsAdd ? a : b);
    Value carry = LLVM::ZExtOp::create(rewriter, loc, type, flag);
    rewriter.replaceOp(
        op, makePair(rewriter, loc,
                     this->getTypeConverter()->convertType(op.getType()),
                     result, carry));
    return success();
  }
};

/// UMulExtended / SMulExtended: {low, high} via the double-width product.
template <typename Op, bool Signed>
class MulExtendedPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getOperand1();
    Value b = adaptor.getOperand2();
    Type type = a.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Type wideScalar = rewriter.getIntegerType(2 * width);
    Type wide = wideScalar;
    if (auto vector = dyn_cast<VectorType>(type))
      wide = VectorType::get(vector.getShape(), wideScalar);
    Value wa = castIntegerToWidthOf(rewriter, loc, a, wide, Signed);
    Value wb = castIntegerToWidthOf(rewriter, loc, b, wide, Signed);
    Value product = LLVM::MulOp::create(rewriter, loc, wa, wb);
    Value low = LLVM::TruncOp::create(rewriter, loc, type, product);
    Value high = LLVM::TruncOp::create(
        rewriter, loc, type,
        LLVM::LShrOp::create(rewriter, loc, product,
                             createIntConstant(rewriter, loc, wide, width)));
    rewriter.replaceOp(
        op, makePair(rewriter, loc,
                     this->getTypeConverter()->convertType(op.getType()), low,
                     high));
    return success();
  }
};

template <typename Op, LLVM::FCmpPredicate Predicate, bool Unary>
class FloatClassPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    Value rhs = Unary ? operands[0] : operands[1];
    rewriter.replaceOpWithNewOp<LLVM::FCmpOp>(op, Predicate, operands[0], rhs);
    return success();
  }
};

class IsInfPattern : public OpConversionPattern<spirv::IsInfOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::IsInfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Value abs = LLVM::FAbsOp::create(rewriter, loc, x);
    Value inf = createConstant(rewriter, loc, x.getType(),
                               std::numeric_limits<double>::infinity());
    rewriter.replaceOpWithNewOp<LLVM::FCmpOp>(op, LLVM::FCmpPredicate::oeq, abs,
                                              inf);
    return success();
  }
};

template <typename Op, bool IsAny>
class BoolReducePattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i1 = rewriter.getI1Type();
    if (IsAny)
      rewriter.replaceOpWithNewOp<LLVM::vector_reduce_or>(op, i1,
                                                          adaptor.getVector());
    else
      rewriter.replaceOpWithNewOp<LLVM::vector_reduce_and>(op, i1,
                                                           adaptor.getVector());
    return success();
  }
};

/// Integer dot products (SPV_KHR_integer_dot_product), exact in 128 bits:
/// the plain forms wrap to the result width, the AccSat forms add the
/// accumulator to the exact sum and saturate once.
class IntegerDotPattern : public OpConversionPattern<IntegerDotOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IntegerDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    uint32_t opcode = op.getOpcode();
    bool signedA = opcode == spv::OpSDot || opcode == spv::OpSUDot ||
                   opcode == spv::OpSDotAccSat || opcode == spv::OpSUDotAccSat;
    bool signedB = opcode == spv::OpSDot || opcode == spv::OpSDotAccSat;
    bool accSat = opcode == spv::OpSDotAccSat || opcode == spv::OpUDotAccSat ||
                  opcode == spv::OpSUDotAccSat;
    Value a = adaptor.getVector1();
    Value b = adaptor.getVector2();
    // Packed 4x8: four 8-bit lanes of a 32-bit scalar.
    if (op.getPacked()) {
      Type lanes = VectorType::get({4}, rewriter.getI8Type());
      a = LLVM::BitcastOp::create(rewriter, loc, lanes, a);
      b = LLVM::BitcastOp::create(rewriter, loc, lanes, b);
    }
    auto vector = dyn_cast<VectorType>(a.getType());
    if (!vector)
      return rewriter.notifyMatchFailure(op, "operands are not vectors");
    Type i128 = rewriter.getIntegerType(128);
    Type wide = VectorType::get(vector.getShape(), i128);
    Value wa = castIntegerToWidthOf(rewriter, loc, a, wide, signedA);
    Value wb = castIntegerToWidthOf(rewriter, loc, b, wide, signedB);
    Value products = LLVM::MulOp::create(rewriter, loc, wa, wb);
    Value sum = LLVM::vector_reduce_add::create(rewriter, loc, i128, products);
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!accSat) {
      rewriter.replaceOpWithNewOp<LLVM::TruncOp>(op, resultType, sum);
      return success();
    }
    // The accumulator has the result's signedness: signed if either vector
    // is.
    bool isSigned = signedA || signedB;
    sum = LLVM::AddOp::create(rewriter, loc, sum,
                              castIntegerToWidthOf(rewriter, loc,
                                                   adaptor.getAccumulator(),
                                                   i128, isSigned));
    unsigned width = resultType.getIntOrFloatBitWidth();
    llvm::APInt max = isSigned ? llvm::APInt::getSignedMaxValue(width)
                               : llvm::APInt::getMaxValue(width);
    llvm::APInt min = isSigned ? llvm::APInt::getSignedMinValue(width)
                               : llvm::APInt::getMinValue(width);
    auto constant = [&](const llvm::APInt &value) -> Value {
      return LLVM::ConstantOp::create(
          rewriter, loc, i128,
          rewriter.getIntegerAttr(i128, isSigned ? value.sext(128)
                                                 : value.zext(128)));
    };
    Value clamped = LLVM::SMinOp::create(rewriter, loc, sum, constant(max));
    clamped = LLVM::SMaxOp::create(rewriter, loc, clamped, constant(min));
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(op, resultType, clamped);
    return success();
  }
};

/// Through f16 and back; f16 denormals flush to a zero of the same sign.
class QuantizeToF16Pattern : public OpConversionPattern<QuantizeToF16Op> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QuantizeToF16Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    Type type = x.getType();
    Type half = rewriter.getF16Type();
    if (auto vector = dyn_cast<VectorType>(type))
      half = VectorType::get(vector.getShape(), half);
    Value narrow = LLVM::FPTruncOp::create(rewriter, loc, half, x);
    Value wide = LLVM::FPExtOp::create(rewriter, loc, type, narrow);
    Value abs = LLVM::FAbsOp::create(rewriter, loc, wide);
    Value smallest = createConstant(rewriter, loc, type, 0x1p-14);
    Value isDenormal = LLVM::FCmpOp::create(
        rewriter, loc, LLVM::FCmpPredicate::olt, abs, smallest);
    Value zero = createConstant(rewriter, loc, type, 0.0);
    Value signedZero = LLVM::CopySignOp::create(rewriter, loc, zero, x);
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, isDenormal, signedZero,
                                                wide);
    return success();
  }
};

class SNegatePattern : public OpConversionPattern<spirv::SNegateOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::SNegateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value zero = createIntConstant(rewriter, op.getLoc(),
                                   adaptor.getOperand().getType(), 0);
    rewriter.replaceOpWithNewOp<LLVM::SubOp>(op, zero, adaptor.getOperand());
    return success();
  }
};

} // namespace

void spvb::populateArithmeticPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<
      SafeDivisionPattern<spirv::UDivOp, DivKind::UDiv>,
      SafeDivisionPattern<spirv::SDivOp, DivKind::SDiv>,
      SafeDivisionPattern<spirv::UModOp, DivKind::UMod>,
      SafeDivisionPattern<spirv::SRemOp, DivKind::SRem>,
      SafeDivisionPattern<spirv::SModOp, DivKind::SMod>, FModPattern,
      MaskedShiftPattern<spirv::ShiftLeftLogicalOp, LLVM::ShlOp>,
      MaskedShiftPattern<spirv::ShiftRightLogicalOp, LLVM::LShrOp>,
      MaskedShiftPattern<spirv::ShiftRightArithmeticOp, LLVM::AShrOp>,
      BitFieldInsertPattern,
      BitFieldExtractPattern<spirv::BitFieldSExtractOp, true>,
      BitFieldExtractPattern<spirv::BitFieldUExtractOp, false>,
      SaturatingFToIPattern<spirv::ConvertFToSOp, true>,
      SaturatingFToIPattern<spirv::ConvertFToUOp, false>, DotPattern,
      VectorTimesScalarPattern, CarryPattern<spirv::IAddCarryOp, true>,
      CarryPattern<spirv::ISubBorrowOp, false>,
      MulExtendedPattern<spirv::UMulExtendedOp, false>,
      MulExtendedPattern<spirv::SMulExtendedOp, true>,
      FloatClassPattern<spirv::IsNanOp, LLVM::FCmpPredicate::uno, true>,
      FloatClassPattern<spirv::OrderedOp, LLVM::FCmpPredicate::ord, false>,
      FloatClassPattern<spirv::UnorderedOp, LLVM::FCmpPredicate::uno, false>,
      IsInfPattern, SNegatePattern, QuantizeToF16Pattern,
      BoolReducePattern<AnyOp, true>, IntegerDotPattern,
      BoolReducePattern<AllOp, false>>(converter, patterns.getContext(),
                                       kOverrideBenefit);
}
