//===- MatrixPatterns.cpp - Matrix arithmetic -----------------------------===//
//
// A matrix is an array of column vectors (TypeConverter.h). Every product is
// a plain sum of products from index 0 up, with no reassociation and no
// fused multiply-add, so a result never depends on how LLVM vectorizes; the
// column-wise vector operations below compute each component in exactly
// that order.
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

/// A converted matrix type: `columns` vectors of type `column`.
struct MatrixShape {
  int64_t columns;
  VectorType column;
};

std::optional<MatrixShape> getMatrixShape(Type type) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(type);
  if (!array)
    return std::nullopt;
  auto column = dyn_cast<VectorType>(array.getElementType());
  if (!column || !isa<FloatType>(column.getElementType()))
    return std::nullopt;
  return MatrixShape{static_cast<int64_t>(array.getNumElements()), column};
}

/// x0 * y0 + x1 * y1 + ... in component order.
Value buildDot(OpBuilder &b, Location loc, Value x, Value y) {
  Value product = LLVM::FMulOp::create(b, loc, x, y);
  int64_t n = cast<VectorType>(product.getType()).getNumElements();
  Value sum = extractElement(b, loc, product, 0);
  for (int64_t i = 1; i < n; ++i) {
    Value term = extractElement(b, loc, product, i);
    sum = LLVM::FAddOp::create(b, loc, sum, term);
  }
  return sum;
}

/// column 0 * v[0] + column 1 * v[1] + ...: component r of the sum is
/// m[0][r] * v[0] + m[1][r] * v[1] + ..., summed from column 0.
Value buildMatrixTimesVector(OpBuilder &b, Location loc, Value matrix,
                             const MatrixShape &shape, Value vector) {
  Value sum;
  for (int64_t c = 0; c < shape.columns; ++c) {
    Value column = extractValue(b, loc, matrix, c);
    Value component = extractElement(b, loc, vector, c);
    Value factor = splatScalar(b, loc, component, shape.column);
    Value product = LLVM::FMulOp::create(b, loc, column, factor);
    sum =
        sum ? LLVM::FAddOp::create(b, loc, sum, product).getResult() : product;
  }
  return sum;
}

class MatrixTimesScalarPattern
    : public OpConversionPattern<spirv::MatrixTimesScalarOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::MatrixTimesScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value matrix = adaptor.getMatrix();
    std::optional<MatrixShape> shape = getMatrixShape(matrix.getType());
    if (!shape)
      return rewriter.notifyMatchFailure(op, "not an array of columns");
    Location loc = op.getLoc();
    Value factor =
        splatScalar(rewriter, loc, adaptor.getScalar(), shape->column);
    Value result = LLVM::PoisonOp::create(rewriter, loc, matrix.getType());
    for (int64_t c = 0; c < shape->columns; ++c) {
      Value column = extractValue(rewriter, loc, matrix, c);
      Value product = LLVM::FMulOp::create(rewriter, loc, column, factor);
      result = insertValue(rewriter, loc, result, product, c);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

class MatrixTimesVectorPattern
    : public OpConversionPattern<spirv::MatrixTimesVectorOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::MatrixTimesVectorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value matrix = adaptor.getMatrix();
    std::optional<MatrixShape> shape = getMatrixShape(matrix.getType());
    if (!shape)
      return rewriter.notifyMatchFailure(op, "not an array of columns");
    rewriter.replaceOp(op, buildMatrixTimesVector(rewriter, op.getLoc(), matrix,
                                                  *shape, adaptor.getVector()));
    return success();
  }
};

/// Component c of the result is dot(v, column c).
class VectorTimesMatrixPattern
    : public OpConversionPattern<spirv::VectorTimesMatrixOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::VectorTimesMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value matrix = adaptor.getMatrix();
    std::optional<MatrixShape> shape = getMatrixShape(matrix.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!shape || !type)
      return rewriter.notifyMatchFailure(op, "not an array of columns");
    Location loc = op.getLoc();
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    for (int64_t c = 0; c < shape->columns; ++c) {
      Value column = extractValue(rewriter, loc, matrix, c);
      Value dot = buildDot(rewriter, loc, adaptor.getVector(), column);
      result = insertElement(rewriter, loc, result, dot, c);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Column c of the result is left times column c of right.
class MatrixTimesMatrixPattern
    : public OpConversionPattern<spirv::MatrixTimesMatrixOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::MatrixTimesMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value left = adaptor.getLeftmatrix();
    Value right = adaptor.getRightmatrix();
    std::optional<MatrixShape> leftShape = getMatrixShape(left.getType());
    std::optional<MatrixShape> rightShape = getMatrixShape(right.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    if (!leftShape || !rightShape || !type)
      return rewriter.notifyMatchFailure(op, "not an array of columns");
    Location loc = op.getLoc();
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    for (int64_t c = 0; c < rightShape->columns; ++c) {
      Value column = extractValue(rewriter, loc, right, c);
      Value product =
          buildMatrixTimesVector(rewriter, loc, left, *leftShape, column);
      result = insertValue(rewriter, loc, result, product, c);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Component r of result column c is component c of column r.
class TransposePattern : public OpConversionPattern<spirv::TransposeOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value matrix = adaptor.getMatrix();
    std::optional<MatrixShape> shape = getMatrixShape(matrix.getType());
    Type type = getTypeConverter()->convertType(op.getType());
    std::optional<MatrixShape> resultShape =
        type ? getMatrixShape(type) : std::nullopt;
    if (!shape || !resultShape)
      return rewriter.notifyMatchFailure(op, "not an array of columns");
    Location loc = op.getLoc();
    SmallVector<Value> columns;
    for (int64_t c = 0; c < shape->columns; ++c)
      columns.push_back(extractValue(rewriter, loc, matrix, c));
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    for (int64_t r = 0; r < resultShape->columns; ++r) {
      Value column = LLVM::PoisonOp::create(rewriter, loc, resultShape->column);
      for (int64_t c = 0; c < shape->columns; ++c) {
        Value component = extractElement(rewriter, loc, columns[c], r);
        column = insertElement(rewriter, loc, column, component, c);
      }
      result = insertValue(rewriter, loc, result, column, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Column j of the result is `column` times component j of `row`.
class OuterProductPattern : public OpConversionPattern<OuterProductOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OuterProductOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    std::optional<MatrixShape> shape =
        type ? getMatrixShape(type) : std::nullopt;
    Value column = adaptor.getColumn();
    Value row = adaptor.getRow();
    auto rowType = dyn_cast<VectorType>(row.getType());
    if (!shape || column.getType() != shape->column || !rowType ||
        rowType.getNumElements() != shape->columns)
      return rewriter.notifyMatchFailure(op, "not an array of columns");
    Location loc = op.getLoc();
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    for (int64_t j = 0; j < shape->columns; ++j) {
      Value component = extractElement(rewriter, loc, row, j);
      Value factor = splatScalar(rewriter, loc, component, shape->column);
      Value product = LLVM::FMulOp::create(rewriter, loc, column, factor);
      result = insertValue(rewriter, loc, result, product, j);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void spvb::populateMatrixPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns) {
  patterns.add<MatrixTimesScalarPattern, MatrixTimesVectorPattern,
               VectorTimesMatrixPattern, MatrixTimesMatrixPattern,
               TransposePattern, OuterProductPattern>(
      converter, patterns.getContext(), kOverrideBenefit);
}
