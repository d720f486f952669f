//===- CastPatterns.cpp - Conversions between pointers and integers -------===//
//
// Buffer device addresses (PhysicalStorageBuffer64) are host pointers: a
// 64-bit integer or a uvec2 converts to and from them bit for bit. Numeric
// conversions and other bitcasts use upstream's patterns.
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "spvbridge/conversion/Layout.h"
#include "llvm/Support/MathExtras.h"

#include <spirv/unified1/spirv.hpp>

using namespace mlir;
using namespace spvb;

namespace {

/// Integer (scalar or 2 x i32) to pointer.
Value intToPointer(OpBuilder &b, Location loc, Value value) {
  Type i64 = b.getI64Type();
  if (isa<VectorType>(value.getType()))
    value = LLVM::BitcastOp::create(b, loc, i64, value);
  else
    value = castIntegerToWidthOf(b, loc, value, i64, false);
  return LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), value);
}

/// Pointer to an integer type (scalar or 2 x i32).
Value pointerToInt(OpBuilder &b, Location loc, Value pointer, Type type) {
  Value wide = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), pointer);
  if (isa<VectorType>(type))
    return LLVM::BitcastOp::create(b, loc, type, wide);
  return castIntegerToWidthOf(b, loc, wide, type, false);
}

class ConvertUToPtrPattern
    : public OpConversionPattern<spirv::ConvertUToPtrOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::ConvertUToPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, intToPointer(rewriter, op.getLoc(), adaptor.getOperand()));
    return success();
  }
};

class ConvertPtrToUPattern
    : public OpConversionPattern<spirv::ConvertPtrToUOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::ConvertPtrToUOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(
        op, pointerToInt(rewriter, op.getLoc(), adaptor.getPointer(), type));
    return success();
  }
};

/// OpBitcast where either side is a pointer; value bitcasts go upstream.
template <typename Op>
class PointerBitcastPattern : public OpConversionPattern<Op> {
public:
  PointerBitcastPattern(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<Op>(converter, context, kOverrideBenefit) {}
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type result = this->getTypeConverter()->convertType(op.getType());
    Value operand = adaptor.getOperand();
    bool toPointer = isa<LLVM::LLVMPointerType>(result);
    bool fromPointer = isa<LLVM::LLVMPointerType>(operand.getType());
    if (toPointer && fromPointer)
      rewriter.replaceOp(op, operand);
    else if (toPointer)
      rewriter.replaceOp(op, intToPointer(rewriter, op.getLoc(), operand));
    else if (fromPointer)
      rewriter.replaceOp(op,
                         pointerToInt(rewriter, op.getLoc(), operand, result));
    else
      return rewriter.notifyMatchFailure(op, "not a pointer cast");
    return success();
  }
};

class PointerComparePattern : public OpConversionPattern<PointerCompareOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PointerCompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op.getOpcode() == spv::OpPtrEqual ||
        op.getOpcode() == spv::OpPtrNotEqual) {
      auto predicate = op.getOpcode() == spv::OpPtrEqual
                           ? LLVM::ICmpPredicate::eq
                           : LLVM::ICmpPredicate::ne;
      rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, predicate, adaptor.getLhs(),
                                                adaptor.getRhs());
      return success();
    }
    Type pointee =
        cast<spirv::PointerType>(op.getLhs().getType()).getPointeeType();
    uint64_t stride = op.getStride();
    if (!stride)
      stride = llvm::alignTo(getByteSize(pointee), getAlignment(pointee));
    Type i64 = rewriter.getI64Type();
    Value lhs = LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getLhs());
    Value rhs = LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getRhs());
    Value bytes = LLVM::SubOp::create(rewriter, loc, lhs, rhs);
    Value divisor =
        createIntConstant(rewriter, loc, i64, std::max<uint64_t>(stride, 1));
    Value count = LLVM::SDivOp::create(rewriter, loc, bytes, divisor);
    Type type = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op,
                       castIntegerToWidthOf(rewriter, loc, count, type, true));
    return success();
  }
};

} // namespace

void spvb::populateCastPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<PointerBitcastPattern<spirv::BitcastOp>,
               PointerBitcastPattern<PointerBitcastOp>>(converter, context);
  patterns
      .add<ConvertUToPtrPattern, ConvertPtrToUPattern, PointerComparePattern>(
          converter, context, kOverrideBenefit);
}
