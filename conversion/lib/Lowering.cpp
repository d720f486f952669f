//===- Lowering.cpp - spirv dialect to llvm dialect, whole module ---------===//
#include "spvbridge/conversion/Lowering.h"

#include "EntryWrappers.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/conversion/TypeConverter.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Conversion/SPIRVToLLVM/SPIRVToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace spvb;

void spvb::registerLoweringDialects(MLIRContext &context) {
  context.loadDialect<spirv::SPIRVDialect, SpvbDialect, LLVM::LLVMDialect,
                      func::FuncDialect, scf::SCFDialect, arith::ArithDialect,
                      cf::ControlFlowDialect>();
  registerBuiltinDialectTranslation(context);
  registerLLVMDialectTranslation(context);
}

llvm::Expected<LoweredModule>
spvb::lowerToLLVMDialect(OwningOpRef<spirv::ModuleOp> spirvModule,
                         const LoweringOptions &options,
                         llvm::StringRef fileName) {
  MLIRContext *context = spirvModule->getContext();
  registerLoweringDialects(*context);
  annotatePointerLayouts(*spirvModule);
  llvm::Expected<InterfaceLayout> layout =
      computeInterfaceLayout(*spirvModule, options.bindings,
                             options.entryPoint);
  if (!layout)
    return layout.takeError();

  // The spirv ops move into a builtin module: the lowering's result is a
  // plain LLVM module with no spirv.module wrapper.
  LoweredModule result;
  result.layout = std::move(*layout);
  result.module = ModuleOp::create(spirvModule->getLoc());
  Block *body = result.module->getBody();
  for (Operation &op :
       llvm::make_early_inc_range(spirvModule->getBody()->getOperations()))
    op.moveBefore(body, body->end());
  spirvModule = nullptr;

  std::string firstError;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error ||
        !firstError.empty())
      return success();
    std::string loc;
    llvm::raw_string_ostream os(loc);
    diag.getLocation().print(os);
    firstError =
        llvm::formatv("error: {0}: {1}: {2}", fileName, loc, diag.str()).str();
    return success();
  });
  auto fail = [&](llvm::StringRef fallback) {
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        firstError.empty() ? ("error: " + fileName + ": " + fallback).str()
                           : firstError);
  };

  SpirvToLLVMTypeConverter converter(context);
  RewritePatternSet patterns(context);
  populateSPIRVToLLVMConversionPatterns(converter, patterns);
  populateMemoryPatterns(converter, result.layout, patterns);
  populateFunctionPatterns(converter, result.layout, patterns);
  populateArithmeticPatterns(converter, patterns);
  populateCompositePatterns(converter, patterns);
  populateAtomicAndBarrierPatterns(converter, patterns);
  populateControlFlowPatterns(converter, patterns);
  populateGLSLPatterns(converter, patterns);
  populateMatrixPatterns(converter, patterns);

  ConversionTarget target(*context);
  target.addLegalDialect<LLVM::LLVMDialect>();
  target.addLegalOp<ModuleOp>();
  target.addIllegalDialect<spirv::SPIRVDialect, SpvbDialect>();
  if (failed(applyFullConversion(*result.module, target, std::move(patterns))))
    return fail("lowering to the llvm dialect failed");
  if (failed(buildEntryWrappers(*result.module, result.layout)))
    return fail("building the entry wrappers failed");
  return result;
}
