//===- ControlFlowPatterns.cpp - Branches, switch, unreachable ------------===//
//
// Branch and the returns use upstream's patterns.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/conversion/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace spvb;

namespace {

class SwitchPattern : public OpConversionPattern<spirv::SwitchOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::SwitchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<APInt> values;
    if (auto literals = op.getLiterals())
      for (APInt value : literals->getValues<APInt>())
        values.push_back(value);
    // A switch with only a default is a branch (and MLIR 22's translation
    // crashes on a case-less llvm.switch whose default takes operands).
    if (values.empty()) {
      rewriter.replaceOpWithNewOp<LLVM::BrOp>(op, adaptor.getDefaultOperands(),
                                              op.getDefaultTarget());
      return success();
    }
    SmallVector<ValueRange> operands;
    for (ValueRange range : adaptor.getTargetOperands())
      operands.push_back(range);
    rewriter.replaceOpWithNewOp<LLVM::SwitchOp>(
        op, adaptor.getSelector(), op.getDefaultTarget(),
        adaptor.getDefaultOperands(), values, op.getTargets(), operands);
    return success();
  }
};

/// OpBranchConditional with the converted block arguments: MLIR 22's
/// pattern passes the unconverted ones, which breaks on pointer arguments
/// (a variable pointer chosen in a loop, the CTS's spirv1p4 OpPtrEqual
/// tests).
class BranchConditionalPattern
    : public OpConversionPattern<spirv::BranchConditionalOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::BranchConditionalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    DenseI32ArrayAttr weights;
    if (std::optional<ArrayAttr> attr = op.getBranchWeights()) {
      SmallVector<int32_t> values;
      for (Attribute weight : *attr)
        values.push_back(cast<IntegerAttr>(weight).getInt());
      weights = rewriter.getDenseI32ArrayAttr(values);
    }
    rewriter.replaceOpWithNewOp<LLVM::CondBrOp>(
        op, adaptor.getCondition(), adaptor.getTrueTargetOperands(),
        adaptor.getFalseTargetOperands(), weights, op.getTrueBlock(),
        op.getFalseBlock());
    return success();
  }
};

/// A reached OpUnreachable ends the function with a zero result: never host
/// undefined behaviour (LLVM's `unreachable` would let the optimizer assume the
/// path is dead).
template <typename Op>
class EndInvocationPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->template getParentOfType<LLVM::LLVMFuncOp>();
    Type result = func.getFunctionType().getReturnType();
    if (isa<LLVM::LLVMVoidType>(result)) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    } else {
      Value zero = LLVM::ZeroOp::create(rewriter, op.getLoc(), result);
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, zero);
    }
    return success();
  }
};

} // namespace

void spvb::populateControlFlowPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<BranchConditionalPattern, SwitchPattern,
               EndInvocationPattern<spirv::UnreachableOp>>(
      converter, patterns.getContext(), kOverrideBenefit);
}
