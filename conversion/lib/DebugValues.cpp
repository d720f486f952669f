//===- DebugValues.cpp - Variables the optimizer kept in registers --------===//
//
// An optimized module with NonSemantic.Shader.DebugInfo.100 names its
// variables through DebugValue (spvb.debug_value): they live in SSA values,
// not memory. Each becomes an llvm.intr.dbg.value of its converted value.
// The variable's scope is the function's or inlined function's subprogram,
// which only ShaderDebugInfo creates, so the variable is scoped to a
// placeholder file until then.
//
//===----------------------------------------------------------------------===//
#include "DebugTypes.h"

#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace {

class DebugValuePattern : public OpConversionPattern<spvb::DebugValueOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spvb::DebugValueOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *context = getContext();
    auto placeholder = LLVM::DIFileAttr::get(context, "", "");
    auto variable = LLVM::DILocalVariableAttr::get(
        context, placeholder, op.getNameAttr(), placeholder, op.getLine(),
        op.getArg(), /*alignInBits=*/0,
        spvb::getDebugType(op.getValue().getType(), op.getTypeNames()),
        LLVM::DIFlags::Zero);
    rewriter.replaceOpWithNewOp<LLVM::DbgValueOp>(
        op, adaptor.getValue(), variable, LLVM::DIExpressionAttr());
    return success();
  }
};

} // namespace

void spvb::populateDebugValuePatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns) {
  patterns.add<DebugValuePattern>(converter, patterns.getContext(),
                                  kOverrideBenefit);
}
