//===- GLSLPatterns.cpp - GLSL.std.450 ------------------------------------===//
//
// Every GLSL.std.450 instruction a compute shader can use (all but the
// InterpolateAt* ones). The deserializer produces `spirv.GL.*` where the
// spirv dialect has the op and `spvb.glsl` otherwise; both forms go through
// one builder per instruction number, so `spvb.glsl` accepts every number.
//
// Upstream lowers Ceil, Cos, FAbs, Floor, FMax, FMin, Log, Sin, SMax,
// SMin, Sqrt, InverseSqrt and Tan as we would; we override its Tanh, whose
// (e^2x - 1) / (e^2x + 1) is NaN once e^2x overflows (|x| > ~44 in f32),
// and its Exp (buildExp).
//
// Float operations run in the order the specification writes them, with no
// fast-math flags. What the specification leaves undefined still yields a
// defined value here, never LLVM poison:
//   FClamp, UClamp, SClamp, NClamp, min > max  -> max
//   SmoothStep, edge0 >= edge1                 -> from the clamped quotient;
//                                                 0 where it is 0 / 0
//   Pow, Log, Log2, Sqrt, InverseSqrt, Asin,
//   Acos, Acosh, Atanh outside their domain    -> NaN or +-inf
//   Atan2(0, 0)                                -> +-0 or +-pi, as C's atan2
//   Modf(+-inf)                                -> fraction +-0, whole +-inf
//   Frexp, FrexpStruct of inf or NaN           -> exponent 0
//   Ldexp exponent outside i32                 -> clamped to i32
//   Pack{S,U}norm* of a NaN component          -> -1 (snorm) or 0 (unorm), as
//                                                 clamping with maxnum gives;
//                                                 0 for a signaling NaN
//   FindILsb(0), FindUMsb(0), FindSMsb(0, -1)  -> -1 (defined by the spec)
//   SAbs(INT_MIN)                              -> INT_MIN
//   Normalize(0), MatrixInverse(singular)      -> NaN or inf components
//   IMix (reserved by the spec)                -> x * (1 - a) + y * a in
//                                                 wrapping integer arithmetic
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/MathExtras.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <cmath>
#include <limits>

using namespace mlir;
using namespace spvb;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool isFloatLike(Type type) {
  return isa<FloatType>(getElementTypeOrSelf(type));
}

bool isIntegerLike(Type type) {
  return isa<IntegerType>(getElementTypeOrSelf(type));
}

int64_t getNumComponents(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector ? vector.getNumElements() : 1;
}

unsigned getComponentWidth(Type type) {
  return getElementTypeOrSelf(type).getIntOrFloatBitWidth();
}

/// `element`, or a vector of it with as many components as `like`.
Type shapeLike(Type like, Type element) {
  if (auto vector = dyn_cast<VectorType>(like))
    return VectorType::get(vector.getShape(), element);
  return element;
}

/// Broadcasts a scalar to `type` when that is a vector type.
Value splat(OpBuilder &b, Location loc, Value scalar, Type type) {
  auto vector = dyn_cast<VectorType>(type);
  if (!vector || isa<VectorType>(scalar.getType()))
    return scalar;
  return splatScalar(b, loc, scalar, vector);
}

Value select(OpBuilder &b, Location loc, Value condition, Value ifTrue,
             Value ifFalse) {
  return LLVM::SelectOp::create(b, loc, condition, ifTrue, ifFalse);
}

Value fcmp(OpBuilder &b, Location loc, LLVM::FCmpPredicate predicate, Value a,
           Value c) {
  return LLVM::FCmpOp::create(b, loc, predicate, a, c);
}

/// x0 * y0 + x1 * y1 + ... summed from component 0: no reassociation, and
/// unlike an ordered vector.reduce.fadd LLVM can constant-fold it.
Value buildDot(OpBuilder &b, Location loc, Value x, Value y) {
  Value product = LLVM::FMulOp::create(b, loc, x, y);
  if (!isa<VectorType>(product.getType()))
    return product;
  int64_t n = getNumComponents(product.getType());
  Value sum = extractElement(b, loc, product, 0);
  for (int64_t i = 1; i < n; ++i) {
    Value term = extractElement(b, loc, product, i);
    sum = LLVM::FAddOp::create(b, loc, sum, term);
  }
  return sum;
}

Value buildLength(OpBuilder &b, Location loc, Value x) {
  if (!isa<VectorType>(x.getType()))
    return LLVM::FAbsOp::create(b, loc, x.getType(), x);
  Value squares = buildDot(b, loc, x, x);
  return LLVM::SqrtOp::create(b, loc, squares.getType(), squares);
}

/// An intrinsic of the LLVM dialect with one operand and its type as result.
template <typename LLVMOp>
Value buildUnary(OpBuilder &b, Location loc, Value x) {
  return LLVMOp::create(b, loc, x.getType(), x);
}

template <typename LLVMOp>
Value buildBinary(OpBuilder &b, Location loc, Value x, Value y) {
  return LLVMOp::create(b, loc, x.getType(), x, y);
}

/// min(max(x, low), high) with the given min and max.
template <typename MinOp, typename MaxOp>
Value buildClamp(OpBuilder &b, Location loc, Value x, Value low, Value high) {
  Value raised = MaxOp::create(b, loc, x.getType(), x, low);
  return MinOp::create(b, loc, x.getType(), raised, high);
}

/// NMin, NMax, NClamp: a NaN operand yields the other one, which is
/// IEEE 754-2019 minimumNumber / maximumNumber (llvm.minnum may return a
/// NaN for a signaling NaN operand).
Value buildNumberMinMax(OpBuilder &b, Location loc, bool isMax, Value x,
                        Value y) {
  return createIntrinsic(b, loc, isMax ? "llvm.maximumnum" : "llvm.minimumnum",
                         x.getType(), {x, y});
}

//===----------------------------------------------------------------------===//
// Common math
//===----------------------------------------------------------------------===//

/// 1.0, 0.0 or -1.0; zeros keep their sign and NaN stays NaN.
Value buildFSign(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value zero = createConstant(b, loc, type, 0.0);
  Value one = createConstant(b, loc, type, 1.0);
  Value minusOne = createConstant(b, loc, type, -1.0);
  Value positive = fcmp(b, loc, LLVM::FCmpPredicate::ogt, x, zero);
  Value negative = fcmp(b, loc, LLVM::FCmpPredicate::olt, x, zero);
  Value result = select(b, loc, positive, one, x);
  return select(b, loc, negative, minusOne, result);
}

Value buildSSign(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value minusOne = createAllOnes(b, loc, type);
  Value one = createIntConstant(b, loc, type, 1);
  Value raised = LLVM::SMaxOp::create(b, loc, type, x, minusOne);
  return LLVM::SMinOp::create(b, loc, type, raised, one);
}

Value buildFract(OpBuilder &b, Location loc, Value x) {
  Value floor = LLVM::FFloorOp::create(b, loc, x.getType(), x);
  return LLVM::FSubOp::create(b, loc, x, floor);
}

Value buildScale(OpBuilder &b, Location loc, Value x, double factor) {
  Value constant = createConstant(b, loc, x.getType(), factor);
  return LLVM::FMulOp::create(b, loc, x, constant);
}

Value buildInverseSqrt(OpBuilder &b, Location loc, Value x) {
  Value one = createConstant(b, loc, x.getType(), 1.0);
  Value root = LLVM::SqrtOp::create(b, loc, x.getType(), x);
  return LLVM::FDivOp::create(b, loc, one, root);
}

Value buildTanh(OpBuilder &b, Location loc, Value x) {
  return LLVM::TanhOp::create(b, loc, x.getType(), x);
}

/// e^x, or 2^x with `base2`. glibc's exp (scalar and libmvec's vectors)
/// leaves its fast path to set errno for arguments whose float result
/// underflows or overflows, one scalar call per such lane; softmax-like
/// kernels pass many. Where the result is known (below half the smallest
/// subnormal it rounds to +0, above the largest float to +inf) it is
/// chosen instead and exp sees 0.
Value buildExp(OpBuilder &b, Location loc, Value x, bool base2) {
  Type type = x.getType();
  if (!getElementTypeOrSelf(type).isF32())
    return base2 ? buildUnary<LLVM::Exp2Op>(b, loc, x)
                 : buildUnary<LLVM::ExpOp>(b, loc, x);
  // e^-105 < 2^-150 and e^89.5 > 2^128; 2^-151 and 2^129 likewise.
  Value low = createConstant(b, loc, type, base2 ? -151.0 : -105.0);
  Value high = createConstant(b, loc, type, base2 ? 129.0 : 89.5);
  Value zero = createConstant(b, loc, type, 0.0);
  Value inf =
      createConstant(b, loc, type, std::numeric_limits<double>::infinity());
  Value under = fcmp(b, loc, LLVM::FCmpPredicate::olt, x, low);
  Value over = fcmp(b, loc, LLVM::FCmpPredicate::ogt, x, high);
  Value argument = select(b, loc, under, zero, select(b, loc, over, zero, x));
  Value result = base2 ? buildUnary<LLVM::Exp2Op>(b, loc, argument)
                       : buildUnary<LLVM::ExpOp>(b, loc, argument);
  return select(b, loc, under, zero, select(b, loc, over, inf, result));
}

/// From this magnitude on sqrt(x * x +- 1) rounds to |x| and x * x may
/// overflow (f16 already at 256): log(2 |x|) = log |x| + ln 2 replaces
/// log(|x| + sqrt(x * x +- 1)) there.
Value buildLargeArgumentBound(OpBuilder &b, Location loc, Type type) {
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  int exponent = (element.getFPMantissaWidth() + 3) / 2;
  return createConstant(b, loc, type, std::ldexp(1.0, exponent));
}

/// log(a + sqrt(a * a + c)) for a >= 0, c = +-1, also for large a.
Value buildLogOfSumWithRoot(OpBuilder &b, Location loc, Value a, double c) {
  Type type = a.getType();
  Value square = LLVM::FMulOp::create(b, loc, a, a);
  Value constant = createConstant(b, loc, type, c);
  Value radicand = LLVM::FAddOp::create(b, loc, square, constant);
  Value root = LLVM::SqrtOp::create(b, loc, type, radicand);
  Value sum = LLVM::FAddOp::create(b, loc, a, root);
  Value direct = LLVM::LogOp::create(b, loc, type, sum);
  Value logA = LLVM::LogOp::create(b, loc, type, a);
  Value ln2 = createConstant(b, loc, type, llvm::numbers::ln2);
  Value asymptotic = LLVM::FAddOp::create(b, loc, logA, ln2);
  Value bound = buildLargeArgumentBound(b, loc, type);
  Value large = fcmp(b, loc, LLVM::FCmpPredicate::oge, a, bound);
  return select(b, loc, large, asymptotic, direct);
}

Value buildAsinh(OpBuilder &b, Location loc, Value x) {
  Value abs = LLVM::FAbsOp::create(b, loc, x.getType(), x);
  Value magnitude = buildLogOfSumWithRoot(b, loc, abs, 1.0);
  return LLVM::CopySignOp::create(b, loc, x.getType(), magnitude, x);
}

Value buildAcosh(OpBuilder &b, Location loc, Value x) {
  return buildLogOfSumWithRoot(b, loc, x, -1.0);
}

/// 0.5 * log((1 + x) / (1 - x)).
Value buildAtanh(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value one = createConstant(b, loc, type, 1.0);
  Value numerator = LLVM::FAddOp::create(b, loc, one, x);
  Value denominator = LLVM::FSubOp::create(b, loc, one, x);
  Value quotient = LLVM::FDivOp::create(b, loc, numerator, denominator);
  Value log = LLVM::LogOp::create(b, loc, type, quotient);
  return buildScale(b, loc, log, 0.5);
}

/// {fraction, whole}, both with the sign of x. x - trunc(x) would be NaN for
/// infinities, whose fraction is a zero.
std::pair<Value, Value> buildModf(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value whole = LLVM::FTruncOp::create(b, loc, type, x);
  Value difference = LLVM::FSubOp::create(b, loc, x, whole);
  Value abs = LLVM::FAbsOp::create(b, loc, type, x);
  Value inf =
      createConstant(b, loc, type, std::numeric_limits<double>::infinity());
  Value isInf = fcmp(b, loc, LLVM::FCmpPredicate::oeq, abs, inf);
  Value zero = createConstant(b, loc, type, 0.0);
  Value fraction = select(b, loc, isInf, zero, difference);
  // x - trunc(x) is +0 for negative whole numbers.
  fraction = LLVM::CopySignOp::create(b, loc, type, fraction, x);
  return {fraction, whole};
}

/// {mantissa, exponent} of llvm.frexp with exponents of `exponentType`; the
/// exponent of inf and NaN, unspecified in LLVM, is 0.
std::pair<Value, Value> buildFrexp(OpBuilder &b, Location loc, Value x,
                                   Type exponentType) {
  Type type = x.getType();
  Type i32 = shapeLike(type, b.getI32Type());
  auto pairType = LLVM::LLVMStructType::getLiteral(b.getContext(), {type, i32});
  Value pair = LLVM::FractionExpOp::create(b, loc, pairType, x);
  Value mantissa = extractValue(b, loc, pair, 0);
  Value exponent = extractValue(b, loc, pair, 1);
  Value abs = LLVM::FAbsOp::create(b, loc, type, x);
  Value inf =
      createConstant(b, loc, type, std::numeric_limits<double>::infinity());
  // Unordered: true for NaN as well.
  Value notFinite = fcmp(b, loc, LLVM::FCmpPredicate::ueq, abs, inf);
  Value zero = createIntConstant(b, loc, i32, 0);
  exponent = select(b, loc, notFinite, zero, exponent);
  exponent = castIntegerToWidthOf(b, loc, exponent, exponentType, true);
  return {mantissa, exponent};
}

/// x * 2^exp with the exponent brought to i32 (clamped when wider): LLVM's
/// backends expect i32 exponents. llvm.intr.ldexp admits no vector
/// exponents, hence the generic intrinsic call. Half goes through float:
/// exact there for every half x and i32 exp, so the one rounding back is
/// the correctly rounded result; and LLVM 22's x86 backend with AVX-512
/// miscompiles llvm.ldexp on half vectors (lane 0 unchanged, lane 1 NaN).
Value buildLdexp(OpBuilder &b, Location loc, Value x, Value exponent) {
  if (getElementTypeOrSelf(x.getType()).isF16()) {
    Type f32 = shapeLike(x.getType(), b.getF32Type());
    Value wide = LLVM::FPExtOp::create(b, loc, f32, x);
    return LLVM::FPTruncOp::create(b, loc, x.getType(),
                                   buildLdexp(b, loc, wide, exponent));
  }
  Type i32 = shapeLike(x.getType(), b.getI32Type());
  if (getComponentWidth(exponent.getType()) > 32) {
    Type type = exponent.getType();
    Value low =
        createIntConstant(b, loc, type, std::numeric_limits<int32_t>::min());
    Value high =
        createIntConstant(b, loc, type, std::numeric_limits<int32_t>::max());
    exponent =
        buildClamp<LLVM::SMinOp, LLVM::SMaxOp>(b, loc, exponent, low, high);
  }
  exponent = castIntegerToWidthOf(b, loc, exponent, i32, true);
  return createIntrinsic(b, loc, "llvm.ldexp", x.getType(), {x, exponent});
}

/// x * (1 - a) + y * a, as the specification writes it.
Value buildMix(OpBuilder &b, Location loc, Value x, Value y, Value a) {
  if (isIntegerLike(x.getType())) {
    Value one = createIntConstant(b, loc, x.getType(), 1);
    Value complement = LLVM::SubOp::create(b, loc, one, a);
    Value left = LLVM::MulOp::create(b, loc, x, complement);
    Value right = LLVM::MulOp::create(b, loc, y, a);
    return LLVM::AddOp::create(b, loc, left, right);
  }
  Value one = createConstant(b, loc, x.getType(), 1.0);
  Value complement = LLVM::FSubOp::create(b, loc, one, a);
  Value left = LLVM::FMulOp::create(b, loc, x, complement);
  Value right = LLVM::FMulOp::create(b, loc, y, a);
  return LLVM::FAddOp::create(b, loc, left, right);
}

/// 0.0 if x < edge, else 1.0 (NaN compares false: 1.0).
Value buildStep(OpBuilder &b, Location loc, Value edge, Value x) {
  Value zero = createConstant(b, loc, x.getType(), 0.0);
  Value one = createConstant(b, loc, x.getType(), 1.0);
  Value below = fcmp(b, loc, LLVM::FCmpPredicate::olt, x, edge);
  return select(b, loc, below, zero, one);
}

/// t * t * (3 - 2 * t), t = clamp((x - edge0) / (edge1 - edge0), 0, 1).
Value buildSmoothStep(OpBuilder &b, Location loc, Value edge0, Value edge1,
                      Value x) {
  Type type = x.getType();
  Value offset = LLVM::FSubOp::create(b, loc, x, edge0);
  Value range = LLVM::FSubOp::create(b, loc, edge1, edge0);
  Value quotient = LLVM::FDivOp::create(b, loc, offset, range);
  Value zero = createConstant(b, loc, type, 0.0);
  Value one = createConstant(b, loc, type, 1.0);
  // maxnum turns the 0 / 0 of equal edges into 0.
  Value t =
      buildClamp<LLVM::MinNumOp, LLVM::MaxNumOp>(b, loc, quotient, zero, one);
  Value two = createConstant(b, loc, type, 2.0);
  Value three = createConstant(b, loc, type, 3.0);
  Value square = LLVM::FMulOp::create(b, loc, t, t);
  Value twoT = LLVM::FMulOp::create(b, loc, two, t);
  Value factor = LLVM::FSubOp::create(b, loc, three, twoT);
  return LLVM::FMulOp::create(b, loc, square, factor);
}

//===----------------------------------------------------------------------===//
// Integer bits
//===----------------------------------------------------------------------===//

Value buildFindILsb(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value trailing = LLVM::CountTrailingZerosOp::create(
      b, loc, type, x, b.getIntegerAttr(b.getI1Type(), 0));
  Value zero = createIntConstant(b, loc, type, 0);
  Value isZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, x, zero);
  Value minusOne = createAllOnes(b, loc, type);
  return select(b, loc, isZero, minusOne, trailing);
}

/// (width - 1) - ctlz(x): -1 for 0 since ctlz(0) is the width here.
Value buildFindUMsb(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value leading = LLVM::CountLeadingZerosOp::create(
      b, loc, type, x, b.getIntegerAttr(b.getI1Type(), 0));
  Value top = createIntConstant(b, loc, type, getComponentWidth(type) - 1);
  return LLVM::SubOp::create(b, loc, top, leading);
}

/// The highest bit that differs from the sign bit: FindUMsb of x, or of ~x
/// for negative x, which makes 0 and -1 both give -1.
Value buildFindSMsb(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  Value top = createIntConstant(b, loc, type, getComponentWidth(type) - 1);
  Value sign = LLVM::AShrOp::create(b, loc, x, top);
  Value magnitude = LLVM::XOrOp::create(b, loc, x, sign);
  return buildFindUMsb(b, loc, magnitude);
}

//===----------------------------------------------------------------------===//
// Packing
//===----------------------------------------------------------------------===//

/// Concatenates the components of an integer vector, component 0 in the
/// least significant bits, with shifts (a bitcast would follow the host's
/// byte order).
Value packComponents(OpBuilder &b, Location loc, Value parts, Type result) {
  int64_t n = getNumComponents(parts.getType());
  unsigned width = getComponentWidth(parts.getType());
  Value packed;
  for (int64_t i = 0; i < n; ++i) {
    Value part = extractElement(b, loc, parts, i);
    Value wide = LLVM::ZExtOp::create(b, loc, result, part);
    if (i > 0) {
      Value amount = createIntConstant(b, loc, result, i * width);
      wide = LLVM::ShlOp::create(b, loc, wide, amount);
      packed = LLVM::OrOp::create(b, loc, packed, wide);
    } else {
      packed = wide;
    }
  }
  return packed;
}

/// The inverse of packComponents: `n` components of `width` bits.
Value unpackComponents(OpBuilder &b, Location loc, Value word, int64_t n,
                       unsigned width) {
  Type part = b.getIntegerType(width);
  Type vector = VectorType::get({n}, part);
  Value result = LLVM::PoisonOp::create(b, loc, vector);
  for (int64_t i = 0; i < n; ++i) {
    Value shifted = word;
    if (i > 0) {
      Value amount = createIntConstant(b, loc, word.getType(), i * width);
      shifted = LLVM::LShrOp::create(b, loc, word, amount);
    }
    Value narrow = LLVM::TruncOp::create(b, loc, part, shifted);
    result = insertElement(b, loc, result, narrow, i);
  }
  return result;
}

/// round(clamp(v, low, 1) * scale) packed into `result`, `width` bits each.
/// maxnum maps a quiet NaN to `low`; a signaling NaN may get through, and the
/// saturating conversion makes it 0 rather than poison.
Value buildPackNorm(OpBuilder &b, Location loc, Value v, Type result,
                    unsigned width, bool isSigned) {
  Type type = v.getType();
  Value low = createConstant(b, loc, type, isSigned ? -1.0 : 0.0);
  Value high = createConstant(b, loc, type, 1.0);
  Value clamped =
      buildClamp<LLVM::MinNumOp, LLVM::MaxNumOp>(b, loc, v, low, high);
  double scale = std::ldexp(1.0, isSigned ? width - 1 : width) - 1.0;
  Value scaled = buildScale(b, loc, clamped, scale);
  Value rounded = LLVM::RoundEvenOp::create(b, loc, type, scaled);
  Type parts = shapeLike(type, b.getIntegerType(width));
  Value integers = createIntrinsic(
      b, loc, isSigned ? "llvm.fptosi.sat" : "llvm.fptoui.sat", parts, rounded);
  return packComponents(b, loc, integers, result);
}

/// Components of `width` bits of `word` divided by 2^width - 1 (unsigned) or
/// 2^(width-1) - 1 and clamped to [-1, 1] (signed).
Value buildUnpackNorm(OpBuilder &b, Location loc, Value word, Type result,
                      unsigned width, bool isSigned) {
  int64_t n = getNumComponents(result);
  Value parts = unpackComponents(b, loc, word, n, width);
  Value floats;
  if (isSigned)
    floats = LLVM::SIToFPOp::create(b, loc, result, parts);
  else
    floats = LLVM::UIToFPOp::create(b, loc, result, parts);
  double scale = std::ldexp(1.0, isSigned ? width - 1 : width) - 1.0;
  Value divisor = createConstant(b, loc, result, scale);
  Value quotient = LLVM::FDivOp::create(b, loc, floats, divisor);
  if (!isSigned)
    return quotient;
  Value low = createConstant(b, loc, result, -1.0);
  Value high = createConstant(b, loc, result, 1.0);
  return buildClamp<LLVM::MinNumOp, LLVM::MaxNumOp>(b, loc, quotient, low,
                                                    high);
}

Value buildPackHalf2x16(OpBuilder &b, Location loc, Value v, Type result) {
  Type halves = VectorType::get({2}, b.getF16Type());
  Value narrow = LLVM::FPTruncOp::create(b, loc, halves, v);
  Type bits = VectorType::get({2}, b.getI16Type());
  Value parts = LLVM::BitcastOp::create(b, loc, bits, narrow);
  return packComponents(b, loc, parts, result);
}

Value buildUnpackHalf2x16(OpBuilder &b, Location loc, Value word, Type result) {
  Value parts = unpackComponents(b, loc, word, 2, 16);
  Type halves = VectorType::get({2}, b.getF16Type());
  Value narrow = LLVM::BitcastOp::create(b, loc, halves, parts);
  return LLVM::FPExtOp::create(b, loc, result, narrow);
}

/// Component 0 holds the 32 least significant bits of the double.
Value buildPackDouble2x32(OpBuilder &b, Location loc, Value v, Type result) {
  Value bits = packComponents(b, loc, v, b.getI64Type());
  return LLVM::BitcastOp::create(b, loc, result, bits);
}

Value buildUnpackDouble2x32(OpBuilder &b, Location loc, Value x) {
  Value bits = LLVM::BitcastOp::create(b, loc, b.getI64Type(), x);
  return unpackComponents(b, loc, bits, 2, 32);
}

//===----------------------------------------------------------------------===//
// Geometry
//===----------------------------------------------------------------------===//

/// x.yzx * y.zxy - x.zxy * y.yzx.
Value buildCross(OpBuilder &b, Location loc, Value x, Value y) {
  auto rotate = [&](Value v, ArrayRef<int32_t> mask) -> Value {
    return LLVM::ShuffleVectorOp::create(b, loc, v, v, mask);
  };
  SmallVector<int32_t> yzx = {1, 2, 0};
  SmallVector<int32_t> zxy = {2, 0, 1};
  Value x1 = rotate(x, yzx);
  Value y1 = rotate(y, zxy);
  Value x2 = rotate(x, zxy);
  Value y2 = rotate(y, yzx);
  Value left = LLVM::FMulOp::create(b, loc, x1, y1);
  Value right = LLVM::FMulOp::create(b, loc, x2, y2);
  return LLVM::FSubOp::create(b, loc, left, right);
}

Value buildNormalize(OpBuilder &b, Location loc, Value x) {
  Value length = buildLength(b, loc, x);
  Value divisor = splat(b, loc, length, x.getType());
  return LLVM::FDivOp::create(b, loc, x, divisor);
}

/// dot(nRef, i) < 0 ? n : -n.
Value buildFaceForward(OpBuilder &b, Location loc, Value n, Value i,
                       Value nRef) {
  Value d = buildDot(b, loc, nRef, i);
  Value zero = createConstant(b, loc, d.getType(), 0.0);
  Value facing = fcmp(b, loc, LLVM::FCmpPredicate::olt, d, zero);
  Value negated = LLVM::FNegOp::create(b, loc, n.getType(), n);
  return select(b, loc, facing, n, negated);
}

/// i - 2 * dot(n, i) * n.
Value buildReflect(OpBuilder &b, Location loc, Value i, Value n) {
  Value d = buildDot(b, loc, n, i);
  Value twice = buildScale(b, loc, d, 2.0);
  Value factor = splat(b, loc, twice, n.getType());
  Value projection = LLVM::FMulOp::create(b, loc, factor, n);
  return LLVM::FSubOp::create(b, loc, i, projection);
}

/// k = 1 - eta * eta * (1 - dot(n, i) * dot(n, i));
/// k < 0 ? 0 : eta * i - (eta * dot(n, i) + sqrt(k)) * n.
Value buildRefract(OpBuilder &b, Location loc, Value i, Value n, Value eta) {
  Type type = i.getType();
  Type scalar = getElementTypeOrSelf(type);
  // eta may be narrower than the vectors (a 16- or 32-bit float).
  unsigned etaWidth = getComponentWidth(eta.getType());
  if (etaWidth < scalar.getIntOrFloatBitWidth())
    eta = LLVM::FPExtOp::create(b, loc, scalar, eta);
  else if (etaWidth > scalar.getIntOrFloatBitWidth())
    eta = LLVM::FPTruncOp::create(b, loc, scalar, eta);
  Value d = buildDot(b, loc, n, i);
  Value one = createConstant(b, loc, scalar, 1.0);
  Value dSquared = LLVM::FMulOp::create(b, loc, d, d);
  Value cosRemainder = LLVM::FSubOp::create(b, loc, one, dSquared);
  Value etaSquared = LLVM::FMulOp::create(b, loc, eta, eta);
  Value product = LLVM::FMulOp::create(b, loc, etaSquared, cosRemainder);
  Value k = LLVM::FSubOp::create(b, loc, one, product);
  Value root = LLVM::SqrtOp::create(b, loc, scalar, k);
  Value etaD = LLVM::FMulOp::create(b, loc, eta, d);
  Value sum = LLVM::FAddOp::create(b, loc, etaD, root);
  Value etaVector = splat(b, loc, eta, type);
  Value sumVector = splat(b, loc, sum, type);
  Value scaledI = LLVM::FMulOp::create(b, loc, etaVector, i);
  Value scaledN = LLVM::FMulOp::create(b, loc, sumVector, n);
  Value refracted = LLVM::FSubOp::create(b, loc, scaledI, scaledN);
  Value zero = createConstant(b, loc, scalar, 0.0);
  Value total = fcmp(b, loc, LLVM::FCmpPredicate::olt, k, zero);
  Value zeros = createConstant(b, loc, type, 0.0);
  return select(b, loc, total, zeros, refracted);
}

//===----------------------------------------------------------------------===//
// Matrices
//===----------------------------------------------------------------------===//

/// A 2x2, 3x3 or 4x4 float matrix: an array of as many column vectors.
bool isSquareMatrix(Type type) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(type);
  if (!array)
    return false;
  auto column = dyn_cast<VectorType>(array.getElementType());
  int64_t n = array.getNumElements();
  return column && column.getNumElements() == n && n >= 2 && n <= 4 &&
         isFloatLike(column);
}

/// The components of a square matrix as m[column][row].
SmallVector<SmallVector<Value>> extractSquareMatrix(OpBuilder &b, Location loc,
                                                    Value matrix) {
  int64_t n = cast<LLVM::LLVMArrayType>(matrix.getType()).getNumElements();
  SmallVector<SmallVector<Value>> m(n);
  for (int64_t c = 0; c < n; ++c) {
    Value vector = extractValue(b, loc, matrix, c);
    for (int64_t r = 0; r < n; ++r)
      m[c].push_back(extractElement(b, loc, vector, r));
  }
  return m;
}

/// Determinant of the submatrix of `m` on `columns` and `rows`, by cofactor
/// expansion along its first column, terms summed in row order.
Value buildMinor(OpBuilder &b, Location loc, ArrayRef<SmallVector<Value>> m,
                 ArrayRef<int64_t> columns, ArrayRef<int64_t> rows) {
  if (columns.size() == 1)
    return m[columns[0]][rows[0]];
  Value det;
  SmallVector<int64_t> rest(columns.drop_front());
  for (size_t i = 0; i < rows.size(); ++i) {
    SmallVector<int64_t> otherRows(rows);
    otherRows.erase(otherRows.begin() + i);
    Value minor = buildMinor(b, loc, m, rest, otherRows);
    Value term = LLVM::FMulOp::create(b, loc, m[columns[0]][rows[i]], minor);
    if (!det)
      det = term;
    else if (i % 2)
      det = LLVM::FSubOp::create(b, loc, det, term);
    else
      det = LLVM::FAddOp::create(b, loc, det, term);
  }
  return det;
}

Value buildDeterminant(OpBuilder &b, Location loc, Value matrix) {
  SmallVector<SmallVector<Value>> m = extractSquareMatrix(b, loc, matrix);
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, static_cast<int64_t>(m.size())));
  return buildMinor(b, loc, m, all, all);
}

/// adj(M) / det(M), det(M) expanded along the first column with the same
/// cofactors.
Value buildMatrixInverse(OpBuilder &b, Location loc, Value matrix) {
  SmallVector<SmallVector<Value>> m = extractSquareMatrix(b, loc, matrix);
  int64_t n = m.size();
  // cofactor[c][r] belongs to the component in column c, row r.
  SmallVector<SmallVector<Value>> cofactor(n);
  for (int64_t c = 0; c < n; ++c) {
    for (int64_t r = 0; r < n; ++r) {
      SmallVector<int64_t> columns, rows;
      for (int64_t k = 0; k < n; ++k) {
        if (k != c)
          columns.push_back(k);
        if (k != r)
          rows.push_back(k);
      }
      Value minor = buildMinor(b, loc, m, columns, rows);
      if ((c + r) % 2)
        minor = LLVM::FNegOp::create(b, loc, minor.getType(), minor);
      cofactor[c].push_back(minor);
    }
  }
  Value det;
  for (int64_t r = 0; r < n; ++r) {
    Value term = LLVM::FMulOp::create(b, loc, m[0][r], cofactor[0][r]);
    det = det ? LLVM::FAddOp::create(b, loc, det, term).getResult() : term;
  }
  // The inverse is the transposed cofactor matrix divided by det.
  Type type = matrix.getType();
  Type columnType = cast<LLVM::LLVMArrayType>(type).getElementType();
  Value result = LLVM::PoisonOp::create(b, loc, type);
  for (int64_t c = 0; c < n; ++c) {
    Value column = LLVM::PoisonOp::create(b, loc, columnType);
    for (int64_t r = 0; r < n; ++r) {
      Value component = LLVM::FDivOp::create(b, loc, cofactor[r][c], det);
      column = insertElement(b, loc, column, component, r);
    }
    result = insertValue(b, loc, result, column, c);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Dispatch
//===----------------------------------------------------------------------===//

/// Operand kinds of an instruction, one letter per operand: f float, i
/// integer, m matrix, p pointer; empty for the numbers we reject.
llvm::StringRef getSignature(unsigned inst) {
  switch (inst) {
  case GLSLstd450SAbs:
  case GLSLstd450SSign:
  case GLSLstd450FindILsb:
  case GLSLstd450FindSMsb:
  case GLSLstd450FindUMsb:
  case GLSLstd450UnpackSnorm2x16:
  case GLSLstd450UnpackUnorm2x16:
  case GLSLstd450UnpackHalf2x16:
  case GLSLstd450UnpackSnorm4x8:
  case GLSLstd450UnpackUnorm4x8:
  case GLSLstd450PackDouble2x32:
    return "i";
  case GLSLstd450UMin:
  case GLSLstd450SMin:
  case GLSLstd450UMax:
  case GLSLstd450SMax:
    return "ii";
  case GLSLstd450UClamp:
  case GLSLstd450SClamp:
  case GLSLstd450IMix:
    return "iii";
  case GLSLstd450Determinant:
  case GLSLstd450MatrixInverse:
    return "m";
  case GLSLstd450Modf:
  case GLSLstd450Frexp:
    return "fp";
  case GLSLstd450Ldexp:
    return "fi";
  case GLSLstd450Atan2:
  case GLSLstd450Pow:
  case GLSLstd450FMin:
  case GLSLstd450FMax:
  case GLSLstd450Step:
  case GLSLstd450Distance:
  case GLSLstd450Cross:
  case GLSLstd450Reflect:
  case GLSLstd450NMin:
  case GLSLstd450NMax:
    return "ff";
  case GLSLstd450FClamp:
  case GLSLstd450FMix:
  case GLSLstd450SmoothStep:
  case GLSLstd450Fma:
  case GLSLstd450FaceForward:
  case GLSLstd450Refract:
  case GLSLstd450NClamp:
    return "fff";
  case GLSLstd450InterpolateAtCentroid:
  case GLSLstd450InterpolateAtSample:
  case GLSLstd450InterpolateAtOffset:
    return "";
  default:
    return inst >= GLSLstd450Round && inst < GLSLstd450Count ? "f" : "";
  }
}

bool hasKind(Type type, char kind) {
  switch (kind) {
  case 'f':
    return isFloatLike(type);
  case 'i':
    return isIntegerLike(type);
  case 'm':
    return isa<LLVM::LLVMArrayType>(type);
  case 'p':
    return isa<LLVM::LLVMPointerType>(type);
  default:
    return false;
  }
}

/// Pack operands and Unpack results: `n` components of a float of `width`.
bool isFloatVector(Type type, int64_t n, unsigned width) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getNumElements() == n &&
         vector.getElementType().isFloat(width);
}

/// ModfStruct and FrexpStruct results: a struct of `first` and `second`.
bool isPairOf(Type type, Type first, Type second) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(type);
  return structType && structType.getBody().size() == 2 &&
         structType.getBody()[0] == first && structType.getBody()[1] == second;
}

bool isInteger(Type type, unsigned width) {
  return isa<IntegerType>(type) && type.getIntOrFloatBitWidth() == width;
}

/// Builds instruction `inst` on converted operands of the kinds
/// getSignature gives. `source` are the operands before conversion, for the
/// pointee types of out-parameters. Returns null when the types don't fit.
Value buildGLSL(OpBuilder &b, Location loc, unsigned inst, ValueRange args,
                ValueRange source, Type result) {
  Value x = args[0];
  Value y = args.size() > 1 ? args[1] : Value();
  Value z = args.size() > 2 ? args[2] : Value();
  // Operands have the type of the first, except out-parameters, Ldexp's
  // exponent and Refract's eta.
  for (auto [index, arg] : llvm::enumerate(args)) {
    bool exempt =
        (index == 1 && (inst == GLSLstd450Modf || inst == GLSLstd450Frexp ||
                        inst == GLSLstd450Ldexp)) ||
        (index == 2 && inst == GLSLstd450Refract);
    if (!exempt && arg.getType() != x.getType())
      return nullptr;
  }
  if (inst == GLSLstd450Refract && isa<VectorType>(z.getType()))
    return nullptr;
  if (inst == GLSLstd450Ldexp &&
      getNumComponents(y.getType()) != getNumComponents(x.getType()))
    return nullptr;

  switch (inst) {
  case GLSLstd450Round:
    return buildUnary<LLVM::RoundOp>(b, loc, x);
  case GLSLstd450RoundEven:
    return buildUnary<LLVM::RoundEvenOp>(b, loc, x);
  case GLSLstd450Trunc:
    return buildUnary<LLVM::FTruncOp>(b, loc, x);
  case GLSLstd450FAbs:
    return buildUnary<LLVM::FAbsOp>(b, loc, x);
  case GLSLstd450SAbs:
    return LLVM::AbsOp::create(b, loc, x.getType(), x,
                               /*is_int_min_poison=*/false);
  case GLSLstd450FSign:
    return buildFSign(b, loc, x);
  case GLSLstd450SSign:
    return buildSSign(b, loc, x);
  case GLSLstd450Floor:
    return buildUnary<LLVM::FFloorOp>(b, loc, x);
  case GLSLstd450Ceil:
    return buildUnary<LLVM::FCeilOp>(b, loc, x);
  case GLSLstd450Fract:
    return buildFract(b, loc, x);
  case GLSLstd450Radians:
    return buildScale(b, loc, x, llvm::numbers::pi / 180.0);
  case GLSLstd450Degrees:
    return buildScale(b, loc, x, 180.0 / llvm::numbers::pi);
  case GLSLstd450Sin:
    return buildUnary<LLVM::SinOp>(b, loc, x);
  case GLSLstd450Cos:
    return buildUnary<LLVM::CosOp>(b, loc, x);
  case GLSLstd450Tan:
    return buildUnary<LLVM::TanOp>(b, loc, x);
  case GLSLstd450Asin:
    return buildUnary<LLVM::ASinOp>(b, loc, x);
  case GLSLstd450Acos:
    return buildUnary<LLVM::ACosOp>(b, loc, x);
  case GLSLstd450Atan:
    return buildUnary<LLVM::ATanOp>(b, loc, x);
  case GLSLstd450Sinh:
    return buildUnary<LLVM::SinhOp>(b, loc, x);
  case GLSLstd450Cosh:
    return buildUnary<LLVM::CoshOp>(b, loc, x);
  case GLSLstd450Tanh:
    return buildTanh(b, loc, x);
  case GLSLstd450Asinh:
    return buildAsinh(b, loc, x);
  case GLSLstd450Acosh:
    return buildAcosh(b, loc, x);
  case GLSLstd450Atanh:
    return buildAtanh(b, loc, x);
  case GLSLstd450Atan2:
    return buildBinary<LLVM::ATan2Op>(b, loc, x, y);
  case GLSLstd450Pow:
    return buildBinary<LLVM::PowOp>(b, loc, x, y);
  case GLSLstd450Exp:
    return buildExp(b, loc, x, /*base2=*/false);
  case GLSLstd450Log:
    return buildUnary<LLVM::LogOp>(b, loc, x);
  case GLSLstd450Exp2:
    return buildExp(b, loc, x, /*base2=*/true);
  case GLSLstd450Log2:
    return buildUnary<LLVM::Log2Op>(b, loc, x);
  case GLSLstd450Sqrt:
    return buildUnary<LLVM::SqrtOp>(b, loc, x);
  case GLSLstd450InverseSqrt:
    return buildInverseSqrt(b, loc, x);
  case GLSLstd450Determinant:
    if (!isSquareMatrix(x.getType()))
      return nullptr;
    return buildDeterminant(b, loc, x);
  case GLSLstd450MatrixInverse:
    if (!isSquareMatrix(x.getType()))
      return nullptr;
    return buildMatrixInverse(b, loc, x);
  case GLSLstd450Modf: {
    auto pointer = dyn_cast<spirv::PointerType>(source[1].getType());
    if (!pointer || pointer.getPointeeType() != source[0].getType())
      return nullptr;
    auto [fraction, whole] = buildModf(b, loc, x);
    // Out-parameters are plain Function variables: the natural layout.
    LLVM::StoreOp::create(b, loc, whole, y, getComponentWidth(x.getType()) / 8);
    return fraction;
  }
  case GLSLstd450ModfStruct: {
    if (!isPairOf(result, x.getType(), x.getType()))
      return nullptr;
    auto [fraction, whole] = buildModf(b, loc, x);
    Value pair = LLVM::PoisonOp::create(b, loc, result);
    pair = insertValue(b, loc, pair, fraction, 0);
    return insertValue(b, loc, pair, whole, 1);
  }
  case GLSLstd450FMin:
    return buildBinary<LLVM::MinNumOp>(b, loc, x, y);
  case GLSLstd450UMin:
    return buildBinary<LLVM::UMinOp>(b, loc, x, y);
  case GLSLstd450SMin:
    return buildBinary<LLVM::SMinOp>(b, loc, x, y);
  case GLSLstd450FMax:
    return buildBinary<LLVM::MaxNumOp>(b, loc, x, y);
  case GLSLstd450UMax:
    return buildBinary<LLVM::UMaxOp>(b, loc, x, y);
  case GLSLstd450SMax:
    return buildBinary<LLVM::SMaxOp>(b, loc, x, y);
  case GLSLstd450FClamp:
    return buildClamp<LLVM::MinNumOp, LLVM::MaxNumOp>(b, loc, x, y, z);
  case GLSLstd450UClamp:
    return buildClamp<LLVM::UMinOp, LLVM::UMaxOp>(b, loc, x, y, z);
  case GLSLstd450SClamp:
    return buildClamp<LLVM::SMinOp, LLVM::SMaxOp>(b, loc, x, y, z);
  case GLSLstd450FMix:
  case GLSLstd450IMix:
    return buildMix(b, loc, x, y, z);
  case GLSLstd450Step:
    return buildStep(b, loc, x, y);
  case GLSLstd450SmoothStep:
    return buildSmoothStep(b, loc, x, y, z);
  case GLSLstd450Fma:
    return LLVM::FMAOp::create(b, loc, x.getType(), x, y, z);
  case GLSLstd450Frexp: {
    auto pointer = dyn_cast<spirv::PointerType>(source[1].getType());
    if (!pointer || !isIntegerLike(pointer.getPointeeType()) ||
        getNumComponents(pointer.getPointeeType()) !=
            getNumComponents(x.getType()))
      return nullptr;
    unsigned width = getComponentWidth(pointer.getPointeeType());
    Type exponentType = shapeLike(x.getType(), b.getIntegerType(width));
    auto [mantissa, exponent] = buildFrexp(b, loc, x, exponentType);
    LLVM::StoreOp::create(b, loc, exponent, y, width / 8);
    return mantissa;
  }
  case GLSLstd450FrexpStruct: {
    auto structType = dyn_cast<LLVM::LLVMStructType>(result);
    if (!structType || structType.getBody().size() != 2)
      return nullptr;
    Type exponentType = structType.getBody()[1];
    if (!isPairOf(result, x.getType(), exponentType) ||
        !isIntegerLike(exponentType) ||
        getNumComponents(exponentType) != getNumComponents(x.getType()))
      return nullptr;
    auto [mantissa, exponent] = buildFrexp(b, loc, x, exponentType);
    Value pair = LLVM::PoisonOp::create(b, loc, result);
    pair = insertValue(b, loc, pair, mantissa, 0);
    return insertValue(b, loc, pair, exponent, 1);
  }
  case GLSLstd450Ldexp:
    return buildLdexp(b, loc, x, y);
  case GLSLstd450PackSnorm4x8:
  case GLSLstd450PackUnorm4x8:
    if (!isFloatVector(x.getType(), 4, 32) || !isInteger(result, 32))
      return nullptr;
    return buildPackNorm(b, loc, x, result, 8, inst == GLSLstd450PackSnorm4x8);
  case GLSLstd450PackSnorm2x16:
  case GLSLstd450PackUnorm2x16:
    if (!isFloatVector(x.getType(), 2, 32) || !isInteger(result, 32))
      return nullptr;
    return buildPackNorm(b, loc, x, result, 16,
                         inst == GLSLstd450PackSnorm2x16);
  case GLSLstd450PackHalf2x16:
    if (!isFloatVector(x.getType(), 2, 32) || !isInteger(result, 32))
      return nullptr;
    return buildPackHalf2x16(b, loc, x, result);
  case GLSLstd450PackDouble2x32:
    if (getNumComponents(x.getType()) != 2 ||
        getComponentWidth(x.getType()) != 32 || !result.isF64())
      return nullptr;
    return buildPackDouble2x32(b, loc, x, result);
  case GLSLstd450UnpackSnorm2x16:
  case GLSLstd450UnpackUnorm2x16:
    if (!isInteger(x.getType(), 32) || !isFloatVector(result, 2, 32))
      return nullptr;
    return buildUnpackNorm(b, loc, x, result, 16,
                           inst == GLSLstd450UnpackSnorm2x16);
  case GLSLstd450UnpackSnorm4x8:
  case GLSLstd450UnpackUnorm4x8:
    if (!isInteger(x.getType(), 32) || !isFloatVector(result, 4, 32))
      return nullptr;
    return buildUnpackNorm(b, loc, x, result, 8,
                           inst == GLSLstd450UnpackSnorm4x8);
  case GLSLstd450UnpackHalf2x16:
    if (!isInteger(x.getType(), 32) || !isFloatVector(result, 2, 32))
      return nullptr;
    return buildUnpackHalf2x16(b, loc, x, result);
  case GLSLstd450UnpackDouble2x32: {
    auto vector = dyn_cast<VectorType>(result);
    if (!x.getType().isF64() || !vector || vector.getNumElements() != 2 ||
        !isInteger(vector.getElementType(), 32))
      return nullptr;
    return buildUnpackDouble2x32(b, loc, x);
  }
  case GLSLstd450Length:
    return buildLength(b, loc, x);
  case GLSLstd450Distance: {
    Value difference = LLVM::FSubOp::create(b, loc, x, y);
    return buildLength(b, loc, difference);
  }
  case GLSLstd450Cross:
    if (getNumComponents(x.getType()) != 3 || !isa<VectorType>(x.getType()))
      return nullptr;
    return buildCross(b, loc, x, y);
  case GLSLstd450Normalize:
    return buildNormalize(b, loc, x);
  case GLSLstd450FaceForward:
    return buildFaceForward(b, loc, x, y, z);
  case GLSLstd450Reflect:
    return buildReflect(b, loc, x, y);
  case GLSLstd450Refract:
    return buildRefract(b, loc, x, y, z);
  case GLSLstd450FindILsb:
    return buildFindILsb(b, loc, x);
  case GLSLstd450FindSMsb:
    return buildFindSMsb(b, loc, x);
  case GLSLstd450FindUMsb:
    return buildFindUMsb(b, loc, x);
  case GLSLstd450NMin:
  case GLSLstd450NMax:
    return buildNumberMinMax(b, loc, inst == GLSLstd450NMax, x, y);
  case GLSLstd450NClamp: {
    Value raised = buildNumberMinMax(b, loc, /*isMax=*/true, x, y);
    return buildNumberMinMax(b, loc, /*isMax=*/false, raised, z);
  }
  default:
    return nullptr;
  }
}

/// Lowers one GLSL instruction given as an op of either form; reports what
/// it cannot lower as an error on the op.
LogicalResult lowerGLSL(Operation *op, unsigned inst, ValueRange args,
                        const TypeConverter &converter,
                        ConversionPatternRewriter &rewriter) {
  llvm::StringRef signature = getSignature(inst);
  // Fragment shaders' are runtime calls (RuntimeCallPatterns.cpp).
  if (inst >= GLSLstd450InterpolateAtCentroid &&
      inst <= GLSLstd450InterpolateAtOffset)
    return op->emitError() << "GLSL.std.450 instruction " << inst
                           << " (InterpolateAt*) is only valid in fragment "
                              "shaders";
  if (signature.empty())
    return op->emitError() << "unknown GLSL.std.450 instruction " << inst;
  if (args.size() != signature.size() || op->getNumResults() != 1)
    return op->emitError() << "GLSL.std.450 instruction " << inst << " expects "
                           << signature.size() << " operands and one result";
  for (auto [arg, kind] : llvm::zip(args, signature))
    if (!hasKind(arg.getType(), kind))
      return op->emitError() << "GLSL.std.450 instruction " << inst
                             << ": unexpected operand type " << arg.getType();
  Type result = converter.convertType(op->getResult(0).getType());
  if (!result)
    return rewriter.notifyMatchFailure(op, "result type");
  Value value =
      buildGLSL(rewriter, op->getLoc(), inst, args, op->getOperands(), result);
  if (!value)
    return op->emitError() << "GLSL.std.450 instruction " << inst
                           << ": unsupported operand or result types";
  // FindILsb & co. may have a result narrower or wider than the operand.
  if (value.getType() != result && isIntegerLike(result) &&
      isIntegerLike(value.getType()) &&
      getNumComponents(result) == getNumComponents(value.getType()))
    value = castIntegerToWidthOf(rewriter, op->getLoc(), value, result, true);
  if (value.getType() != result)
    return op->emitError() << "GLSL.std.450 instruction " << inst
                           << ": result type " << op->getResult(0).getType()
                           << " does not match the operands";
  rewriter.replaceOp(op, value);
  return success();
}

/// A `spirv.GL.*` op; `Inst` is its GLSL.std.450 number.
template <typename Op, unsigned Inst>
class GLOpPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerGLSL(op, Inst, adaptor.getOperands(), *this->getTypeConverter(),
                     rewriter);
  }
};

/// `spvb.glsl`: the instructions the spirv dialect has no op for.
class GLSLExtPattern : public OpConversionPattern<GLSLExtOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GLSLExtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return lowerGLSL(op, op.getInst(), adaptor.getOperands(),
                     *getTypeConverter(), rewriter);
  }
};

} // namespace

void spvb::populateGLSLPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns) {
  // Upstream's lowering of Ceil, Cos, FAbs, Floor, FMax, FMin, Log, Sin,
  // SMax, SMin, Sqrt, InverseSqrt and Tan stays.
  patterns.add<GLSLExtPattern, GLOpPattern<spirv::GLRoundOp, GLSLstd450Round>,
               GLOpPattern<spirv::GLRoundEvenOp, GLSLstd450RoundEven>,
               GLOpPattern<spirv::GLSAbsOp, GLSLstd450SAbs>,
               GLOpPattern<spirv::GLFSignOp, GLSLstd450FSign>,
               GLOpPattern<spirv::GLSSignOp, GLSLstd450SSign>,
               GLOpPattern<spirv::GLFractOp, GLSLstd450Fract>,
               GLOpPattern<spirv::GLAsinOp, GLSLstd450Asin>,
               GLOpPattern<spirv::GLAcosOp, GLSLstd450Acos>,
               GLOpPattern<spirv::GLAtanOp, GLSLstd450Atan>,
               GLOpPattern<spirv::GLSinhOp, GLSLstd450Sinh>,
               GLOpPattern<spirv::GLCoshOp, GLSLstd450Cosh>,
               GLOpPattern<spirv::GLTanhOp, GLSLstd450Tanh>,
               GLOpPattern<spirv::GLAsinhOp, GLSLstd450Asinh>,
               GLOpPattern<spirv::GLAcoshOp, GLSLstd450Acosh>,
               GLOpPattern<spirv::GLAtanhOp, GLSLstd450Atanh>,
               GLOpPattern<spirv::GLPowOp, GLSLstd450Pow>,
               GLOpPattern<spirv::GLExpOp, GLSLstd450Exp>,
               GLOpPattern<spirv::GLExp2Op, GLSLstd450Exp2>,
               GLOpPattern<spirv::GLLog2Op, GLSLstd450Log2>,
               GLOpPattern<spirv::GLUMinOp, GLSLstd450UMin>,
               GLOpPattern<spirv::GLUMaxOp, GLSLstd450UMax>,
               GLOpPattern<spirv::GLFClampOp, GLSLstd450FClamp>,
               GLOpPattern<spirv::GLUClampOp, GLSLstd450UClamp>,
               GLOpPattern<spirv::GLSClampOp, GLSLstd450SClamp>,
               GLOpPattern<spirv::GLFMixOp, GLSLstd450FMix>,
               GLOpPattern<spirv::GLFmaOp, GLSLstd450Fma>,
               GLOpPattern<spirv::GLFrexpStructOp, GLSLstd450FrexpStruct>,
               GLOpPattern<spirv::GLLdexpOp, GLSLstd450Ldexp>,
               GLOpPattern<spirv::GLPackHalf2x16Op, GLSLstd450PackHalf2x16>,
               GLOpPattern<spirv::GLUnpackHalf2x16Op, GLSLstd450UnpackHalf2x16>,
               GLOpPattern<spirv::GLPackSnorm4x8Op, GLSLstd450PackSnorm4x8>,
               GLOpPattern<spirv::GLUnpackSnorm4x8Op, GLSLstd450UnpackSnorm4x8>,
               GLOpPattern<spirv::GLLengthOp, GLSLstd450Length>,
               GLOpPattern<spirv::GLDistanceOp, GLSLstd450Distance>,
               GLOpPattern<spirv::GLCrossOp, GLSLstd450Cross>,
               GLOpPattern<spirv::GLNormalizeOp, GLSLstd450Normalize>,
               GLOpPattern<spirv::GLReflectOp, GLSLstd450Reflect>,
               GLOpPattern<spirv::GLFindILsbOp, GLSLstd450FindILsb>,
               GLOpPattern<spirv::GLFindSMsbOp, GLSLstd450FindSMsb>,
               GLOpPattern<spirv::GLFindUMsbOp, GLSLstd450FindUMsb>>(
      converter, patterns.getContext(), kOverrideBenefit);
}
