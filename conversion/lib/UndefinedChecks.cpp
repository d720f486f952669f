//===- UndefinedChecks.cpp - Reports and perturbs undefined results -------===//
//
// The rules, each from the specification that makes the result undefined:
// SPIR-V for integer division by zero or of the minimum value by -1,
// conversions to an integer too narrow for the value, shifts by the bit
// width or more, bit fields past the width, dynamic vector indices and
// access-chain indices past the size; Vulkan's SPIR-V environment for OpSRem
// and OpSMod of negative operands; GLSL.std.450 for the domains of Pow, Sqrt,
// InverseSqrt, Log, Log2, Asin, Acos, Acosh, Atanh, Atan2, the clamps,
// SmoothStep, FMin and FMax.
//
//===----------------------------------------------------------------------===//
#include "UndefinedChecks.h"

#include "CheckMessages.h"

#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

#include <spirv/unified1/GLSL.std.450.h>

using namespace mlir;
using namespace spvb;

namespace {

/// One way an operation's result can be undefined: `undefined` is i1, or a
/// vector of i1 lane by lane when the result is a vector.
struct Rule {
  Value undefined;
  std::string message;
  SmallVector<Value> args;
};

/// spirv ops computing the conditions, at one place.
class ConditionBuilder {
public:
  ConditionBuilder(OpBuilder &builder, Location loc) : b(builder), loc(loc) {}

  Value floatConstant(Type type, APFloat value) {
    auto element = cast<FloatType>(getElementTypeOrSelf(type));
    bool lost;
    value.convert(element.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &lost);
    return constant(type, FloatAttr::get(element, value));
  }
  Value floatConstant(Type type, double value) {
    return floatConstant(type, APFloat(value));
  }
  Value intConstant(Type type, int64_t value) {
    auto element = cast<IntegerType>(getElementTypeOrSelf(type));
    return constant(type,
                    IntegerAttr::get(element, APInt(element.getWidth(), value,
                                                    /*isSigned=*/true)));
  }
  Value minSigned(Type type) {
    auto element = cast<IntegerType>(getElementTypeOrSelf(type));
    return constant(type, IntegerAttr::get(element, APInt::getSignedMinValue(
                                                        element.getWidth())));
  }
  Value constant(Type type, TypedAttr scalar) {
    Attribute value = scalar;
    if (auto vector = dyn_cast<VectorType>(type))
      value = DenseElementsAttr::get(vector, scalar);
    return spirv::ConstantOp::create(b, loc, type, value);
  }

  template <typename CompareOp> Value compare(Value lhs, Value rhs) {
    return CompareOp::create(b, loc, lhs, rhs);
  }
  Value either(Value lhs, Value rhs) {
    return spirv::LogicalOrOp::create(b, loc, lhs, rhs);
  }
  Value both(Value lhs, Value rhs) {
    return spirv::LogicalAndOp::create(b, loc, lhs, rhs);
  }
  Value negate(Value value) {
    return spirv::LogicalNotOp::create(b, loc, value);
  }
  /// |x| > limit (or >= with `inclusive`), ordered.
  Value magnitudeAbove(Value x, double limit, bool inclusive) {
    if (inclusive)
      return either(compare<spirv::FOrdGreaterThanEqualOp>(
                        x, floatConstant(x.getType(), limit)),
                    compare<spirv::FOrdLessThanEqualOp>(
                        x, floatConstant(x.getType(), -limit)));
    return either(
        compare<spirv::FOrdGreaterThanOp>(x, floatConstant(x.getType(), limit)),
        compare<spirv::FOrdLessThanOp>(x, floatConstant(x.getType(), -limit)));
  }

private:
  OpBuilder &b;
  Location loc;
};

unsigned elementWidth(Value value) {
  return getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
}

/// The GLSL.std.450 instruction `op` is, if any.
std::optional<unsigned> getGlslInstruction(Operation *op) {
  if (auto ext = dyn_cast<GLSLExtOp>(op))
    return ext.getInst();
  StringRef name = op->getName().getStringRef();
  if (!name.consume_front("spirv.GL."))
    return std::nullopt;
  unsigned inst = llvm::StringSwitch<unsigned>(name)
                      .Case("Pow", GLSLstd450Pow)
                      .Case("Sqrt", GLSLstd450Sqrt)
                      .Case("InverseSqrt", GLSLstd450InverseSqrt)
                      .Case("Log", GLSLstd450Log)
                      .Case("Log2", GLSLstd450Log2)
                      .Case("Asin", GLSLstd450Asin)
                      .Case("Acos", GLSLstd450Acos)
                      .Case("Acosh", GLSLstd450Acosh)
                      .Case("Atanh", GLSLstd450Atanh)
                      .Case("FClamp", GLSLstd450FClamp)
                      .Case("UClamp", GLSLstd450UClamp)
                      .Case("SClamp", GLSLstd450SClamp)
                      .Case("FMin", GLSLstd450FMin)
                      .Case("FMax", GLSLstd450FMax)
                      .Default(GLSLstd450Bad);
  if (inst == GLSLstd450Bad)
    return std::nullopt;
  return inst;
}

/// "OpConvertFToU" for spirv.ConvertFToU.
std::string getOpcodeName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("spirv.");
  return ("Op" + name).str();
}

void addConversionRules(Operation *op, ConditionBuilder &c,
                        SmallVectorImpl<Rule> &rules) {
  Value x = op->getOperand(0);
  bool isUnsigned = isa<spirv::ConvertFToUOp>(op);
  unsigned width =
      getElementTypeOrSelf(op->getResult(0)).getIntOrFloatBitWidth();
  const llvm::fltSemantics &semantics =
      cast<FloatType>(getElementTypeOrSelf(x.getType())).getFloatSemantics();
  // Conversion rounds toward zero: (-1, 2^N) or (-2^(N-1) - 1, 2^(N-1))
  // truncate to a representable value.
  APFloat high(semantics);
  high.convertFromAPInt(
      APInt::getOneBitSet(width + 1, isUnsigned ? width : width - 1),
      /*IsSigned=*/false, APFloat::rmNearestTiesToEven);
  Value below;
  if (isUnsigned) {
    below = c.compare<spirv::FOrdGreaterThanOp>(
        x, c.floatConstant(x.getType(), -1.0));
  } else {
    APFloat low(semantics);
    APInt lowInt = -APInt::getOneBitSet(width + 1, width - 1) - 1;
    if (low.convertFromAPInt(lowInt, /*IsSigned=*/true,
                             APFloat::rmTowardZero) == APFloat::opOK) {
      below = c.compare<spirv::FOrdGreaterThanOp>(
          x, c.floatConstant(x.getType(), low));
    } else {
      // No float lies strictly between -2^(N-1) - 1 and -2^(N-1).
      APFloat min(semantics);
      min.convertFromAPInt(APInt::getSignedMinValue(width), /*IsSigned=*/true,
                           APFloat::rmNearestTiesToEven);
      below = c.compare<spirv::FOrdGreaterThanEqualOp>(
          x, c.floatConstant(x.getType(), min));
    }
  }
  Value inRange = c.both(below, c.compare<spirv::FOrdLessThanOp>(
                                    x, c.floatConstant(x.getType(), high)));
  std::string bits = std::to_string(width);
  rules.push_back(
      {c.negate(inRange),
       getOpcodeName(op) + " of " + conversionFor(x.getType(), 'g') + " to " +
           bits + "-bit " + (isUnsigned ? "unsigned" : "signed") +
           " is undefined (the value must be in " +
           (isUnsigned ? "(-1, 2^" + bits + ")"
                       : "(-2^" + std::to_string(width - 1) + " - 1, 2^" +
                             std::to_string(width - 1) + ")") +
           ")",
       {x}});
}

void addDivisionRules(Operation *op, ConditionBuilder &c,
                      SmallVectorImpl<Rule> &rules) {
  Value a = op->getOperand(0), d = op->getOperand(1);
  Type type = a.getType();
  bool isSigned = isa<spirv::SDivOp, spirv::SRemOp, spirv::SModOp>(op);
  char conversion = isSigned ? 'd' : 'u';
  std::string what = getOpcodeName(op) + " of " +
                     conversionFor(type, conversion) + " by " +
                     conversionFor(type, conversion) + " is undefined";
  rules.push_back({c.compare<spirv::IEqualOp>(d, c.intConstant(type, 0)),
                   what + " (division by zero)",
                   {a, d}});
  if (!isSigned)
    return;
  rules.push_back(
      {c.both(c.compare<spirv::IEqualOp>(a, c.minSigned(type)),
              c.compare<spirv::IEqualOp>(d, c.intConstant(type, -1))),
       what + " (the minimum value by -1 overflows)",
       {a, d}});
  if (isa<spirv::SDivOp>(op))
    return;
  Value zero = c.intConstant(type, 0);
  rules.push_back({c.either(c.compare<spirv::SLessThanOp>(a, zero),
                            c.compare<spirv::SLessThanOp>(d, zero)),
                   what + " in Vulkan (an operand is negative)",
                   {a, d}});
}

void addShiftRules(Operation *op, ConditionBuilder &c,
                   SmallVectorImpl<Rule> &rules) {
  Value base = op->getOperand(0), shift = op->getOperand(1);
  unsigned width = elementWidth(base);
  rules.push_back({c.compare<spirv::UGreaterThanEqualOp>(
                       shift, c.intConstant(shift.getType(), width)),
                   getOpcodeName(op) + " of a " + std::to_string(width) +
                       "-bit value by " + conversionFor(shift.getType(), 'u') +
                       " is undefined (the shift must be below " +
                       std::to_string(width) + ")",
                   {shift}});
}

void addBitFieldRules(Operation *op, ConditionBuilder &c, OpBuilder &b,
                      SmallVectorImpl<Rule> &rules) {
  unsigned first = isa<spirv::BitFieldInsertOp>(op) ? 2 : 1;
  Value offset = op->getOperand(first), count = op->getOperand(first + 1);
  unsigned width = elementWidth(op->getOperand(0));
  Type type = offset.getType();
  Value countInType = count;
  if (count.getType() != type)
    countInType = spirv::UConvertOp::create(b, op->getLoc(), type, count);
  Value limit = c.intConstant(type, width);
  // With offset and count at most the width, their sum cannot wrap.
  Value sum = spirv::IAddOp::create(b, op->getLoc(), type, offset, countInType);
  Value undefined =
      c.either(c.either(c.compare<spirv::UGreaterThanOp>(offset, limit),
                        c.compare<spirv::UGreaterThanOp>(countInType, limit)),
               c.compare<spirv::UGreaterThanOp>(sum, limit));
  rules.push_back({undefined,
                   getOpcodeName(op) +
                       " with offset %u and count %u is "
                       "undefined (offset + count must be at "
                       "most " +
                       std::to_string(width) + ")",
                   {offset, count}});
}

void addVectorIndexRules(Operation *op, ConditionBuilder &c,
                         SmallVectorImpl<Rule> &rules) {
  Value vector = op->getOperand(0);
  Value index = op->getOperand(isa<spirv::VectorInsertDynamicOp>(op) ? 2 : 1);
  int64_t size = cast<VectorType>(vector.getType()).getNumElements();
  rules.push_back({c.compare<spirv::UGreaterThanEqualOp>(
                       index, c.intConstant(index.getType(), size)),
                   getOpcodeName(op) +
                       " of component %d is undefined (the "
                       "vector has " +
                       std::to_string(size) + ")",
                   {index}});
}

void addGlslRules(Operation *op, unsigned inst, ConditionBuilder &c,
                  SmallVectorImpl<Rule> &rules) {
  auto operands = op->getOperands();
  if (operands.empty())
    return;
  Value x = operands[0];
  Type type = x.getType();
  auto zero = [&] { return c.floatConstant(type, 0.0); };
  // "Name(%g, %g) is undefined (rule)" with every operand.
  auto add = [&](const char *name, Value undefined, const char *rule,
                 char conversion = 'g') {
    std::string spec = conversionFor(type, conversion);
    std::string list = spec;
    for (size_t i = 1; i < operands.size(); ++i)
      list += ", " + spec;
    rules.push_back(
        {undefined,
         std::string(name) + "(" + list + ") is undefined (" + rule + ")",
         SmallVector<Value>(operands)});
  };
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(type));
  switch (inst) {
  case GLSLstd450Pow:
    if (operands.size() == 2 && isFloat)
      add("Pow",
          c.either(c.compare<spirv::FOrdLessThanOp>(x, zero()),
                   c.both(c.compare<spirv::FOrdEqualOp>(x, zero()),
                          c.compare<spirv::FOrdLessThanEqualOp>(operands[1],
                                                                zero()))),
          "x < 0, or x = 0 and y <= 0");
    return;
  case GLSLstd450Sqrt:
    add("Sqrt", c.compare<spirv::FOrdLessThanOp>(x, zero()), "x < 0");
    return;
  case GLSLstd450InverseSqrt:
    add("InverseSqrt", c.compare<spirv::FOrdLessThanEqualOp>(x, zero()),
        "x <= 0");
    return;
  case GLSLstd450Log:
    add("Log", c.compare<spirv::FOrdLessThanEqualOp>(x, zero()), "x <= 0");
    return;
  case GLSLstd450Log2:
    add("Log2", c.compare<spirv::FOrdLessThanEqualOp>(x, zero()), "x <= 0");
    return;
  case GLSLstd450Asin:
    add("Asin", c.magnitudeAbove(x, 1.0, false), "|x| > 1");
    return;
  case GLSLstd450Acos:
    add("Acos", c.magnitudeAbove(x, 1.0, false), "|x| > 1");
    return;
  case GLSLstd450Acosh:
    add("Acosh",
        c.compare<spirv::FOrdLessThanOp>(x, c.floatConstant(type, 1.0)),
        "x < 1");
    return;
  case GLSLstd450Atanh:
    add("Atanh", c.magnitudeAbove(x, 1.0, true), "|x| >= 1");
    return;
  case GLSLstd450Atan2:
    if (operands.size() == 2)
      add("Atan2",
          c.both(c.compare<spirv::FOrdEqualOp>(operands[0], zero()),
                 c.compare<spirv::FOrdEqualOp>(operands[1], zero())),
          "x = y = 0");
    return;
  case GLSLstd450FClamp:
    if (operands.size() == 3)
      add("FClamp",
          c.compare<spirv::FOrdGreaterThanOp>(operands[1], operands[2]),
          "minVal > maxVal");
    return;
  case GLSLstd450UClamp:
    if (operands.size() == 3)
      add("UClamp", c.compare<spirv::UGreaterThanOp>(operands[1], operands[2]),
          "minVal > maxVal", 'u');
    return;
  case GLSLstd450SClamp:
    if (operands.size() == 3)
      add("SClamp", c.compare<spirv::SGreaterThanOp>(operands[1], operands[2]),
          "minVal > maxVal", 'd');
    return;
  case GLSLstd450SmoothStep:
    if (operands.size() == 3)
      add("SmoothStep",
          c.compare<spirv::FOrdGreaterThanEqualOp>(operands[0], operands[1]),
          "edge0 >= edge1");
    return;
  case GLSLstd450FMin:
  case GLSLstd450FMax:
    if (operands.size() == 2)
      add(inst == GLSLstd450FMin ? "FMin" : "FMax",
          c.either(
              c.compare<spirv::FUnordNotEqualOp>(operands[0], operands[0]),
              c.compare<spirv::FUnordNotEqualOp>(operands[1], operands[1])),
          "an operand is NaN");
    return;
  default:
    return;
  }
}

/// An index of an access chain past its array, vector or matrix: the rule,
/// and the operand a perturbed run changes (to 0) instead of the result.
struct IndexRule {
  Rule rule;
  unsigned operand;
};

/// Dynamic indices of OpAccessChain and OpPtrAccessChain into composites of
/// known size (a runtime array's has none; constants spirv-val checks).
SmallVector<IndexRule> buildIndexRules(Operation *op, ConditionBuilder &c) {
  SmallVector<IndexRule> rules;
  Value base = op->getOperand(0);
  Type type = cast<spirv::PointerType>(base.getType()).getPointeeType();
  // OpPtrAccessChain's Element steps over whole pointees, unbounded.
  unsigned first = isa<spirv::PtrAccessChainOp>(op) ? 2 : 1;
  for (unsigned i = first, e = op->getNumOperands(); i < e; ++i) {
    Value index = op->getOperand(i);
    APInt constant;
    bool isConstant = matchPattern(index, m_ConstantInt(&constant));
    int64_t size = 0;
    const char *what = "";
    if (auto structType = dyn_cast<spirv::StructType>(type)) {
      if (!isConstant)
        return rules;
      type = structType.getElementType(constant.getZExtValue());
      continue;
    }
    if (auto array = dyn_cast<spirv::ArrayType>(type)) {
      size = array.getNumElements();
      type = array.getElementType();
      what = "-element array";
    } else if (auto array = dyn_cast<spirv::RuntimeArrayType>(type)) {
      type = array.getElementType();
      continue;
    } else if (auto matrix = dyn_cast<spirv::MatrixType>(type)) {
      size = matrix.getNumColumns();
      type = matrix.getColumnType();
      what = "-column matrix";
    } else if (auto vector = dyn_cast<VectorType>(type)) {
      size = vector.getNumElements();
      type = vector.getElementType();
      what = "-component vector";
    } else {
      return rules;
    }
    if (isConstant || size == 0)
      continue;
    rules.push_back(
        {{c.compare<spirv::UGreaterThanEqualOp>(
              index, c.intConstant(index.getType(), size)),
          getOpcodeName(op) + " index %d into a " + std::to_string(size) +
              what + " is undefined (out of bounds)",
          {index}},
         i});
  }
  return rules;
}

/// The rules for `op`, their conditions built before it.
SmallVector<Rule> buildRules(Operation *op, OpBuilder &b) {
  SmallVector<Rule> rules;
  ConditionBuilder c(b, op->getLoc());
  if (isa<spirv::ConvertFToUOp, spirv::ConvertFToSOp>(op))
    addConversionRules(op, c, rules);
  else if (isa<spirv::SDivOp, spirv::UDivOp, spirv::SRemOp, spirv::SModOp,
               spirv::UModOp>(op))
    addDivisionRules(op, c, rules);
  else if (isa<spirv::ShiftLeftLogicalOp, spirv::ShiftRightLogicalOp,
               spirv::ShiftRightArithmeticOp>(op))
    addShiftRules(op, c, rules);
  else if (isa<spirv::BitFieldInsertOp, spirv::BitFieldSExtractOp,
               spirv::BitFieldUExtractOp>(op))
    addBitFieldRules(op, c, b, rules);
  else if (isa<spirv::VectorExtractDynamicOp, spirv::VectorInsertDynamicOp>(op))
    addVectorIndexRules(op, c, rules);
  else if (std::optional<unsigned> inst = getGlslInstruction(op))
    addGlslRules(op, *inst, c, rules);
  return rules;
}

void reportRules(Operation *op, ArrayRef<Rule> rules, OpBuilder &b) {
  for (const Rule &rule : rules)
    insertCheck(b, op, rule.undefined, rule.message, rule.args);
}

/// The value with every bit flipped.
Value complement(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  Type element = getElementTypeOrSelf(type);
  if (element.isInteger(1))
    return spirv::LogicalNotOp::create(b, loc, value);
  if (isa<IntegerType>(element))
    return spirv::NotOp::create(b, loc, type, value);
  Type bitsElement = b.getIntegerType(element.getIntOrFloatBitWidth());
  Type bits = bitsElement;
  if (auto vector = dyn_cast<VectorType>(type))
    bits = VectorType::get(vector.getShape(), bitsElement);
  Value flipped = spirv::NotOp::create(
      b, loc, bits, spirv::BitcastOp::create(b, loc, bits, value));
  return spirv::BitcastOp::create(b, loc, type, flipped);
}

void perturbResult(Operation *op, ArrayRef<Rule> rules, OpBuilder &b) {
  Value result = op->getResult(0);
  SmallVector<OpOperand *> uses = llvm::map_to_vector(
      result.getUses(), [](OpOperand &use) { return &use; });
  Value undefined = rules.front().undefined;
  for (const Rule &rule : rules.drop_front())
    undefined =
        spirv::LogicalOrOp::create(b, op->getLoc(), undefined, rule.undefined);
  Value chosen = spirv::SelectOp::create(
      b, op->getLoc(), undefined, complement(b, op->getLoc(), result), result);
  for (OpOperand *use : uses)
    use->set(chosen);
}

/// OpUndef of a scalar or vector: every bit set.
void perturbUndef(spirv::UndefOp undef, OpBuilder &b) {
  Type type = undef.getType();
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar;
  if (auto integer = dyn_cast<IntegerType>(element))
    scalar = IntegerAttr::get(integer, APInt::getAllOnes(integer.getWidth()));
  else if (auto real = dyn_cast<FloatType>(element))
    scalar = FloatAttr::get(
        real, APFloat(real.getFloatSemantics(),
                      APInt::getAllOnes(real.getIntOrFloatBitWidth())));
  else
    return;
  b.setInsertionPoint(undef);
  ConditionBuilder c(b, undef.getLoc());
  undef.replaceAllUsesWith(c.constant(type, scalar));
  undef.erase();
}

} // namespace

void spvb::insertUndefinedChecks(ModuleOp module, UndefinedChecks mode) {
  if (mode == UndefinedChecks::None)
    return;
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (op->getParentOfType<spirv::FuncOp>() && op->getNumResults() == 1)
      ops.push_back(op);
  });
  OpBuilder b(module.getContext());
  for (Operation *op : ops) {
    if (auto undef = dyn_cast<spirv::UndefOp>(op)) {
      if (mode == UndefinedChecks::Perturb)
        perturbUndef(undef, b);
      continue;
    }
    b.setInsertionPoint(op);
    if (isa<spirv::AccessChainOp, spirv::PtrAccessChainOp>(op)) {
      ConditionBuilder c(b, op->getLoc());
      for (const IndexRule &index : buildIndexRules(op, c)) {
        if (mode == UndefinedChecks::Report) {
          reportRules(op, index.rule, b);
          continue;
        }
        // Another element than the lowering's clamp (to the last) picks.
        Value original = op->getOperand(index.operand);
        op->setOperand(index.operand,
                       spirv::SelectOp::create(
                           b, op->getLoc(), index.rule.undefined,
                           c.intConstant(original.getType(), 0), original));
      }
      continue;
    }
    SmallVector<Rule> rules = buildRules(op, b);
    if (rules.empty())
      continue;
    if (mode == UndefinedChecks::Report) {
      reportRules(op, rules, b);
      continue;
    }
    b.setInsertionPointAfter(op);
    perturbResult(op, rules, b);
  }
}
