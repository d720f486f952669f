//===- Lowering.cpp - spirv dialect to llvm dialect, whole module ---------===//
#include "spvbridge/conversion/Lowering.h"

#include "DebugTypes.h"

#include "EntryWrappers.h"
#include "HelperInvocations.h"
#include "ImplicitLod.h"
#include "NanChecks.h"
#include "PrivateAtomics.h"
#include "RaceChecks.h"
#include "Termination.h"
#include "UndefinedChecks.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/conversion/TypeConverter.h"
#include "spvbridge/cpu_runtime/QuadDerivatives.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/Deserializer.h"
#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Conversion/SPIRVToLLVM/SPIRVToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSet.h"
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

/// Only what the exported entry points call is lowered: other stages' entry
/// points of the module may use interfaces compute does not have.
static void eraseUnusedFunctions(ModuleOp module,
                                 const InterfaceLayout &layout) {
  // A module without compute entry points (a library, a lit test) keeps
  // every function.
  if (layout.entryPoints.empty())
    return;
  SymbolTable symbols(module);
  llvm::StringSet<> reachable;
  SmallVector<spirv::FuncOp> worklist;
  for (const EntryPointLayout &entry : layout.entryPoints)
    if (auto func = symbols.lookup<spirv::FuncOp>(entry.function))
      if (reachable.insert(entry.function).second)
        worklist.push_back(func);
  while (!worklist.empty()) {
    spirv::FuncOp func = worklist.pop_back_val();
    func.walk([&](spirv::FunctionCallOp call) {
      if (auto callee = symbols.lookup<spirv::FuncOp>(call.getCallee()))
        if (reachable.insert(call.getCallee()).second)
          worklist.push_back(callee);
    });
  }
  for (auto func : llvm::to_vector(module.getOps<spirv::FuncOp>()))
    if (!reachable.contains(func.getSymName()))
      func.erase();
  for (auto entry : llvm::to_vector(module.getOps<spirv::EntryPointOp>()))
    if (!reachable.contains(entry.getFn()))
      entry.erase();
  for (auto mode : llvm::to_vector(module.getOps<spirv::ExecutionModeOp>()))
    if (!reachable.contains(mode.getFn()))
      mode.erase();
}

llvm::Expected<InterfaceLayout>
spvb::lowerInPlace(mlir::ModuleOp top, const LoweringOptions &options,
                   llvm::StringRef fileName) {
  MLIRContext *context = top.getContext();
  // Upstream's form nests a spirv.module; the deserializer's does not.
  Block *body = top.getBody();
  for (auto nested : llvm::to_vector(top.getOps<spirv::ModuleOp>())) {
    for (Operation &op :
         llvm::make_early_inc_range(nested.getBody()->getOperations()))
      op.moveBefore(body, body->end());
    nested.erase();
  }
  // Unreachable blocks are never converted by the driver: drop them first.
  IRRewriter rewriter(context);
  for (auto func : top.getOps<spirv::FuncOp>())
    (void)eraseUnreachableBlocks(rewriter, func->getRegions());
  if (options.executionModel == spirv::ExecutionModel::Fragment) {
    guardHelperSideEffects(top, options.entryPoint);
    addImplicitLodGradients(top);
  }
  llvm::Expected<InterfaceLayout> layout = computeInterfaceLayout(
      top, options.bindings, options.entryPoint, options.executionModel);
  if (!layout)
    return layout.takeError();
  eraseUnusedFunctions(top, *layout);
  layout->robustBufferAccess =
      options.robustBufferAccess || options.boundsReports;
  layout->boundsReports = options.boundsReports;
  layout->perturbUndefined =
      options.undefinedChecks == UndefinedChecks::Perturb;
  layout->debugInfo = options.debugInfo;
  // A debugger shows every input, read or not.
  if (options.fillUnreadInputs)
    for (spvb_stage_variable &var : layout->stageVariables)
      var.flags &= ~uint32_t(SPVB_STAGE_UNREAD);
  if (options.debugInfo)
    top.walk([&](spirv::GlobalVariableOp global) {
      auto it = layout->variables.find(global.getSymName());
      if (it == layout->variables.end())
        return;
      if (auto name = global->getAttrOfType<StringAttr>(kDebugNameAttr))
        it->second.debugName = name.str();
      it->second.debugType = getDebugType(
          cast<spirv::PointerType>(global.getType()).getPointeeType(),
          global->getAttr(kDebugTypeNamesAttr));
    });
  // Barriers and subgroup operations count only in what the entry point
  // reaches.
  bool barriers = false, subgroupOps = false, wholeSubgroups = false;
  top.walk([&](spirv::ControlBarrierOp) { barriers = true; });
  top.walk([&](SubgroupOp op) {
    subgroupOps = true;
    uint32_t opcode = op.getOpcode();
    wholeSubgroups |= !abi::isDerivativeOpcode(opcode) &&
                      opcode != spv::OpGroupNonUniformQuadBroadcast &&
                      opcode != spv::OpGroupNonUniformQuadSwap;
  });
  for (EntryPointLayout &entry : layout->entryPoints) {
    entry.usesBarriers = barriers;
    entry.usesSubgroupOps = subgroupOps;
    // Quads fill a fragment shader's subgroups as they fill a GPU's: its
    // workgroups hold whole subgroups of every size the runtime may choose.
    if (entry.model == spirv::ExecutionModel::Fragment && wholeSubgroups)
      entry.workgroupSize[0] = SPVB_MAX_SUBGROUP_SIZE;
    if (entry.model == spirv::ExecutionModel::Fragment)
      layout->blockPerWorkgroup =
          entry.workgroupSize[0] == layout->recordLanes &&
          entry.workgroupSize[1] == 1 && entry.workgroupSize[2] == 1;
  }
  findTerminatingFunctions(top, *layout);
  top.walk([&](spirv::AddressOfOp op) {
    auto it = layout->variables.find(op.getVariable());
    if (it == layout->variables.end())
      return;
    uint32_t slot = it->second.slot;
    spirv::StorageClass storage = it->second.storageClass;
    if ((storage == spirv::StorageClass::StorageBuffer ||
         storage == spirv::StorageClass::Uniform ||
         storage == spirv::StorageClass::UniformConstant) &&
        slot < layout->bindings.size() &&
        !llvm::is_contained(layout->usedBindings, layout->bindings[slot]))
      layout->usedBindings.push_back(layout->bindings[slot]);
  });
  if (options.executionModel == spirv::ExecutionModel::GLCompute &&
      options.privateAtomics && !options.raceReports)
    findPrivateAtomicBuffers(top, *layout);
  annotatePointerLayouts(top);
  insertUndefinedChecks(top, options.undefinedChecks);
  if (options.nanChecks)
    insertNanChecks(top);
  if (options.raceReports)
    insertRaceChecks(top);

  std::string firstError;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
      firstError = formatError(fileName, diag.getLocation(), diag.str());
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
  populateMemoryPatterns(converter, *layout, patterns);
  populateFunctionPatterns(converter, *layout, patterns);
  populateArithmeticPatterns(converter, patterns);
  populateCompositePatterns(converter, patterns);
  populateCastPatterns(converter, patterns);
  populateRuntimeCallPatterns(converter, patterns);
  populateGeometryPatterns(converter, *layout, patterns);
  populateAtomicAndBarrierPatterns(converter, *layout, patterns);
  populateRaceCheckPatterns(converter, *layout, patterns);
  populateControlFlowPatterns(converter, patterns);
  populateGLSLPatterns(converter, patterns);
  populateMatrixPatterns(converter, patterns);
  populateTerminationPatterns(converter, *layout, patterns);
  populateDebugValuePatterns(converter, patterns);

  ConversionTarget target(*context);
  target.addLegalDialect<LLVM::LLVMDialect>();
  target.addLegalOp<ModuleOp>();
  target.addIllegalDialect<spirv::SPIRVDialect, SpvbDialect>();
  // Patterns before folds: upstream's spirv.CompositeExtract fold walks a
  // chain of spirv.CompositeInsert past an insert into a part of the
  // extracted element (extracting [0] after inserting at [0, 0] returns
  // the element from before the insert), a miscompile GraphicsFuzz found
  // (tests/lit/Conversion/composite-extract-of-insert.mlir). Every
  // SPIR-V op has a pattern, so no fold runs.
  ConversionConfig config;
  config.foldingMode = DialectConversionFoldingMode::AfterPatterns;
  if (failed(applyFullConversion(top, target, std::move(patterns), config)))
    return fail("lowering to the llvm dialect failed");
  returnAfterTermination(top, *layout);
  if (failed(buildEntryWrappers(top, *layout)))
    return fail("building the entry wrappers failed");
  // Translation to LLVM IR assumes valid IR; a failure here is our bug.
  if (failed(verify(top)))
    return fail("the lowered module does not verify");
  return layout;
}

llvm::Expected<LoweredModule>
spvb::lowerToLLVMDialect(OwningOpRef<ModuleOp> module,
                         const LoweringOptions &options,
                         llvm::StringRef fileName) {
  registerLoweringDialects(*module->getContext());
  LoweredModule result;
  result.module = std::move(module);
  llvm::Expected<InterfaceLayout> layout =
      lowerInPlace(*result.module, options, fileName);
  if (!layout)
    return layout.takeError();
  result.layout = std::move(*layout);
  return result;
}
