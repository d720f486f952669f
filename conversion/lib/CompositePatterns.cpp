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
        result = insertValue(rewriter, loc, result, part,
                                             static_cast<int64_t>(i));
    }
    rewriter.replaceOp(op, result);
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
  patterns.add<CompositeConstructPattern, CopyLogicalPattern>(converter, patterns.getContext(),
                                          kOverrideBenefit);
}
