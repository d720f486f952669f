//===- CompositePatterns.cpp - Building composites ------------------------===//
//
// CompositeExtract/Insert, VectorShuffle and the dynamic vector ops use
// upstream's patterns.
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace spvb;

namespace {

class CompositeConstructPattern
    : public OpConversionPattern<spirv::CompositeConstructOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::CompositeConstructOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "type");
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    if (isa<VectorType>(type)) {
      // Scalars and vectors, flattened in order.
      int64_t position = 0;
      auto insert = [&](Value scalar) {
        Value index =
            createIntConstant(rewriter, loc, rewriter.getI32Type(), position++);
        result =
            LLVM::InsertElementOp::create(rewriter, loc, result, scalar, index);
      };
      for (Value part : adaptor.getConstituents()) {
        if (auto vector = dyn_cast<VectorType>(part.getType())) {
          for (int64_t i = 0; i < vector.getNumElements(); ++i) {
            Value index =
                createIntConstant(rewriter, loc, rewriter.getI32Type(), i);
            insert(LLVM::ExtractElementOp::create(rewriter, loc, part, index));
          }
        } else {
          insert(part);
        }
      }
    } else {
      for (auto [i, part] : llvm::enumerate(adaptor.getConstituents()))
        result =
            insertValue(rewriter, loc, result, part, static_cast<int64_t>(i));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Splits a composite index path into the aggregate part (extractvalue) and
/// a final vector component, if the path ends inside a vector.
std::pair<SmallVector<int64_t>, std::optional<int64_t>>
splitIndexPath(Type type, ArrayAttr indices) {
  SmallVector<int64_t> aggregate;
  std::optional<int64_t> component;
  for (Attribute index : indices) {
    int64_t value = cast<IntegerAttr>(index).getInt();
    if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
      type = array.getElementType();
    } else if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
      type = structType.getBody()[value];
    } else {
      component = value; // a vector: the last index
      break;
    }
    aggregate.push_back(value);
  }
  return {aggregate, component};
}

/// Upstream's lowering passes the whole path to extractvalue, which cannot
/// step into a vector (a matrix column element, m[1][0]).
class CompositeExtractPattern
    : public OpConversionPattern<spirv::CompositeExtractOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::CompositeExtractOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getComposite();
    auto [aggregate, component] =
        splitIndexPath(value.getType(), op.getIndices());
    if (!aggregate.empty())
      value = LLVM::ExtractValueOp::create(rewriter, loc, value, aggregate);
    if (component) {
      Value index =
          createIntConstant(rewriter, loc, rewriter.getI32Type(), *component);
      value = LLVM::ExtractElementOp::create(rewriter, loc, value, index);
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

class CompositeInsertPattern
    : public OpConversionPattern<spirv::CompositeInsertOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::CompositeInsertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value composite = adaptor.getComposite();
    auto [aggregate, component] =
        splitIndexPath(composite.getType(), op.getIndices());
    Value object = adaptor.getObject();
    if (component) {
      Value vector = aggregate.empty()
                         ? composite
                         : LLVM::ExtractValueOp::create(rewriter, loc,
                                                        composite, aggregate)
                               .getResult();
      Value index =
          createIntConstant(rewriter, loc, rewriter.getI32Type(), *component);
      object =
          LLVM::InsertElementOp::create(rewriter, loc, vector, object, index);
    }
    Value result = aggregate.empty()
                       ? object
                       : LLVM::InsertValueOp::create(rewriter, loc, composite,
                                                     object, aggregate)
                             .getResult();
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// An index past the end reads zero and writes nothing (LLVM would make
/// poison of it).
Value inRange(OpBuilder &b, Location loc, Value index, VectorType vector,
              Value &safeIndex) {
  Type type = index.getType();
  Value count = createIntConstant(b, loc, type, vector.getNumElements());
  Value ok =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, index, count);
  Value zero = createIntConstant(b, loc, type, 0);
  safeIndex = LLVM::SelectOp::create(b, loc, ok, index, zero);
  return ok;
}

class VectorExtractDynamicPattern
    : public OpConversionPattern<spirv::VectorExtractDynamicOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::VectorExtractDynamicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto vector = cast<VectorType>(adaptor.getVector().getType());
    Value index;
    Value ok = inRange(rewriter, loc, adaptor.getIndex(), vector, index);
    Value element = LLVM::ExtractElementOp::create(rewriter, loc,
                                                   adaptor.getVector(), index);
    Value zero = LLVM::ZeroOp::create(rewriter, loc, element.getType());
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, ok, element, zero);
    return success();
  }
};

class VectorInsertDynamicPattern
    : public OpConversionPattern<spirv::VectorInsertDynamicOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::VectorInsertDynamicOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto vector = cast<VectorType>(adaptor.getVector().getType());
    Value index;
    Value ok = inRange(rewriter, loc, adaptor.getIndex(), vector, index);
    Value inserted = LLVM::InsertElementOp::create(
        rewriter, loc, adaptor.getVector(), adaptor.getComponent(), index);
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, ok, inserted,
                                                adaptor.getVector());
    return success();
  }
};

class CompositeSelectPattern : public OpConversionPattern<CompositeSelectOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CompositeSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::SelectOp>(op, adaptor.getCondition(),
                                                adaptor.getTrueValue(),
                                                adaptor.getFalseValue());
    return success();
  }
};

/// Decorations do not change value types: the converted types are equal.
class CopyLogicalPattern : public OpConversionPattern<CopyLogicalOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyLogicalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (type != adaptor.getOperand().getType())
      return rewriter.notifyMatchFailure(op, "structurally different types");
    rewriter.replaceOp(op, adaptor.getOperand());
    return success();
  }
};

} // namespace

void spvb::populateCompositePatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns) {
  patterns
      .add<CompositeConstructPattern, CompositeExtractPattern,
           CompositeInsertPattern, CopyLogicalPattern, CompositeSelectPattern,
           VectorExtractDynamicPattern, VectorInsertDynamicPattern>(
          converter, patterns.getContext(), kOverrideBenefit);
}
