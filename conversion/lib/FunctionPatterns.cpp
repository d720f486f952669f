//===- FunctionPatterns.cpp - Functions and calls onto the kernel ABI -----===//
//
// Every function takes the dispatch and invocation blocks as its first two
// parameters, so any function can reach resources and builtins. Entry points
// become the ABI's spvb_NAME_invocation; other functions are internal.
//
//===----------------------------------------------------------------------===//
#include "DebugTypes.h"
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/Deserializer.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace spvb;

namespace {

class FuncPattern : public OpConversionPattern<spirv::FuncOp> {
public:
  FuncPattern(const TypeConverter &converter, MLIRContext *context,
              const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}

  LogicalResult
  matchAndRewrite(spirv::FuncOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FunctionType type = op.getFunctionType();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    // Old argument i becomes new argument i + 2.
    TypeConverter::SignatureConversion signature(type.getNumInputs());
    signature.addInputs(ArrayRef<Type>{ptr, ptr});
    SmallVector<Type> params{ptr, ptr};
    for (auto [i, input] : llvm::enumerate(type.getInputs())) {
      Type converted = getTypeConverter()->convertType(input);
      if (!converted)
        return rewriter.notifyMatchFailure(op, "parameter type");
      signature.addInputs(i, converted);
      params.push_back(converted);
    }
    Type result = LLVM::LLVMVoidType::get(getContext());
    if (type.getNumResults() == 1) {
      result = getTypeConverter()->convertType(type.getResult(0));
      if (!result)
        return rewriter.notifyMatchFailure(op, "result type");
    }
    auto symbol = layout.functionSymbols.find(op.getSymName());
    std::string name = symbol != layout.functionSymbols.end()
                           ? symbol->second
                           : op.getSymName().str();
    bool isEntry = llvm::any_of(layout.entryPoints, [&](const auto &entry) {
      return entry.function == op.getSymName();
    });
    auto func = LLVM::LLVMFuncOp::create(
        rewriter, op.getLoc(), name,
        LLVM::LLVMFunctionType::get(result, params),
        isEntry ? LLVM::Linkage::External : LLVM::Linkage::Internal);
    // FunctionControl hints map to LLVM's inlining attributes.
    spirv::FunctionControl control = op.getFunctionControl();
    if (spirv::bitEnumContainsAll(control, spirv::FunctionControl::Inline))
      func.setAlwaysInline(true);
    else if (spirv::bitEnumContainsAll(control,
                                       spirv::FunctionControl::DontInline))
      func.setNoInline(true);
    if (op.isExternal()) {
      rewriter.eraseOp(op);
      return success();
    }
    if (layout.debugInfo)
      for (auto [i, input] : llvm::enumerate(type.getInputs())) {
        auto name = op.getArgAttrOfType<StringAttr>(i, kDebugNameAttr);
        if (!name)
          continue;
        // A pointer parameter (glslang passes `in` and `inout` so) is
        // shown as the variable it points to.
        auto pointer = dyn_cast<spirv::PointerType>(input);
        Type shown = pointer ? pointer.getPointeeType() : input;
        func.setArgAttr(i + 2, kDebugNameAttr, name);
        func.setArgAttr(
            i + 2, kDebugTypeAttr,
            getDebugType(shown, op.getArgAttr(i, kDebugTypeNamesAttr)));
        if (pointer)
          func.setArgAttr(i + 2, kDebugIndirectAttr, rewriter.getUnitAttr());
      }
    rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
    // The entry block takes the ABI signature; the other blocks' arguments
    // (phis, pointers among them) take the converted types.
    if (failed(rewriter.convertRegionTypes(&func.getBody(), *getTypeConverter(),
                                           &signature)))
      return rewriter.notifyMatchFailure(op, "block argument types");
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

class FunctionCallPattern : public OpConversionPattern<spirv::FunctionCallOp> {
public:
  FunctionCallPattern(const TypeConverter &converter, MLIRContext *context,
                      const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}

  LogicalResult
  matchAndRewrite(spirv::FunctionCallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto caller = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!caller)
      return rewriter.notifyMatchFailure(op, "caller not converted");
    SmallVector<Value> args{caller.getArgument(0), caller.getArgument(1)};
    llvm::append_range(args, adaptor.getArguments());
    SmallVector<Type> results;
    if (op.getNumResults() == 1)
      results.push_back(getTypeConverter()->convertType(op.getType(0)));
    auto symbol = layout.functionSymbols.find(op.getCallee());
    std::string callee = symbol != layout.functionSymbols.end()
                             ? symbol->second
                             : op.getCallee().str();
    auto call = LLVM::CallOp::create(
        rewriter, op.getLoc(), results,
        FlatSymbolRefAttr::get(getContext(), callee), args);
    rewriter.replaceOp(op, call.getResults());
    return success();
  }

private:
  const InterfaceLayout &layout;
};

} // namespace

void spvb::populateFunctionPatterns(const TypeConverter &converter,
                                    const InterfaceLayout &layout,
                                    RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<FuncPattern, FunctionCallPattern>(converter, context, layout);
  patterns.add<ErasePattern<spirv::EntryPointOp>,
               ErasePattern<spirv::ExecutionModeOp>>(converter, context,
                                                     kOverrideBenefit);
}
