//===- ConversionPasses.cpp - The conversion's passes by name -------------===//
#include "spvbridge/conversion/Passes.h"

#include "HelperInvocations.h"
#include "ImplicitLod.h"
#include "NanChecks.h"
#include "RaceChecks.h"
#include "UndefinedChecks.h"
#include "spvbridge/conversion/Lowering.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace spvb;

namespace {

/// A pass over the whole module on the spirv dialect, which may add ops of
/// ours (spvb.check_defined, spvb.subgroup, ...).
template <typename Derived>
struct ModulePass : PassWrapper<Derived, OperationPass<ModuleOp>> {
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<spirv::SPIRVDialect, SpvbDialect>();
  }
};

struct GuardHelperInvocationsPass : ModulePass<GuardHelperInvocationsPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GuardHelperInvocationsPass)
  GuardHelperInvocationsPass() = default;
  GuardHelperInvocationsPass(const GuardHelperInvocationsPass &other)
      : ModulePass(other) {}
  StringRef getArgument() const final {
    return "spvb-guard-helper-invocations";
  }
  StringRef getDescription() const final {
    return "Keep helper invocations of a fragment entry point from writing "
           "memory other invocations see";
  }
  void runOnOperation() override {
    guardHelperSideEffects(getOperation(), entry);
  }
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("The fragment entry point")};
};

struct ImplicitLodPass : ModulePass<ImplicitLodPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ImplicitLodPass)
  StringRef getArgument() const final { return "spvb-implicit-lod"; }
  StringRef getDescription() const final {
    return "Give a fragment shader's implicit-LOD samples the gradients of "
           "their coordinate in the quad";
  }
  void runOnOperation() override { addImplicitLodGradients(getOperation()); }
};

struct UndefinedChecksPass : ModulePass<UndefinedChecksPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(UndefinedChecksPass)
  UndefinedChecksPass() = default;
  UndefinedChecksPass(const UndefinedChecksPass &other) : ModulePass(other) {}
  StringRef getArgument() const final { return "spvb-undefined-checks"; }
  StringRef getDescription() const final {
    return "Report or perturb results the specifications leave undefined";
  }
  void runOnOperation() override {
    std::optional<UndefinedChecks> checks =
        llvm::StringSwitch<std::optional<UndefinedChecks>>(mode)
            .Case("report", UndefinedChecks::Report)
            .Case("perturb", UndefinedChecks::Perturb)
            .Default(std::nullopt);
    if (!checks) {
      // Not the module's emitError: that would print the whole module.
      mlir::emitError(getOperation().getLoc(),
                      "spvb-undefined-checks: unknown mode '")
          << mode << "' (expected report or perturb)";
      return signalPassFailure();
    }
    insertUndefinedChecks(getOperation(), *checks);
  }
  Option<std::string> mode{*this, "mode", llvm::cl::desc("report or perturb"),
                           llvm::cl::init("report")};
};

struct NanChecksPass : ModulePass<NanChecksPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(NanChecksPass)
  StringRef getArgument() const final { return "spvb-nan-checks"; }
  StringRef getDescription() const final {
    return "Report the first NaN or infinity made from finite operands";
  }
  void runOnOperation() override { insertNanChecks(getOperation()); }
};

struct RaceChecksPass : ModulePass<RaceChecksPass> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RaceChecksPass)
  StringRef getArgument() const final { return "spvb-race-checks"; }
  StringRef getDescription() const final {
    return "Record each access to memory other invocations see for the "
           "data-race report";
  }
  void runOnOperation() override { insertRaceChecks(getOperation()); }
};

struct LowerToLLVMPass : PassWrapper<LowerToLLVMPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LowerToLLVMPass)
  LowerToLLVMPass() = default;
  LowerToLLVMPass(const LowerToLLVMPass &other) : PassWrapper(other) {}
  StringRef getArgument() const final { return "spvb-lower-to-llvm"; }
  StringRef getDescription() const final {
    return "Lower spirv ops to the llvm dialect on the spvbridge kernel ABI";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    // SpvbDialect: the checks the lowering inserts first are its ops.
    registry
        .insert<SpvbDialect, LLVM::LLVMDialect, func::FuncDialect,
                scf::SCFDialect, arith::ArithDialect, cf::ControlFlowDialect>();
  }
  void runOnOperation() override {
    ModuleOp top = getOperation();
    LoweringOptions options;
    options.entryPoint = entry;
    std::optional<spirv::ExecutionModel> model =
        llvm::StringSwitch<std::optional<spirv::ExecutionModel>>(stage)
            .Case("compute", spirv::ExecutionModel::GLCompute)
            .Case("vertex", spirv::ExecutionModel::Vertex)
            .Case("geometry", spirv::ExecutionModel::Geometry)
            .Case("tess-control", spirv::ExecutionModel::TessellationControl)
            .Case("tess-evaluation",
                  spirv::ExecutionModel::TessellationEvaluation)
            .Case("fragment", spirv::ExecutionModel::Fragment)
            .Default(std::nullopt);
    std::optional<UndefinedChecks> checks =
        llvm::StringSwitch<std::optional<UndefinedChecks>>(undefinedChecks)
            .Case("none", UndefinedChecks::None)
            .Case("report", UndefinedChecks::Report)
            .Case("perturb", UndefinedChecks::Perturb)
            .Default(std::nullopt);
    if (!model || !checks) {
      mlir::emitError(top.getLoc(), "spvb-lower-to-llvm: ")
          << (model ? "unknown undefined-checks '" + undefinedChecks +
                          "' (expected none, report or perturb)"
                    : "unknown stage '" + stage +
                          "' (expected compute, vertex, tess-control, "
                          "tess-evaluation, geometry or fragment)");
      return signalPassFailure();
    }
    options.executionModel = *model;
    options.undefinedChecks = *checks;
    options.robustBufferAccess = robustAccess;
    options.boundsReports = boundsReports;
    options.raceReports = raceReports;
    options.nanChecks = nanChecks;
    llvm::Expected<InterfaceLayout> layout =
        lowerInPlace(top, options, "<input>");
    if (!layout) {
      // The message is already formatted for a terminal; drop the prefix
      // MLIR's diagnostic adds again.
      std::string message = llvm::toString(layout.takeError());
      top.emitError(llvm::StringRef(message).drop_front(
          llvm::StringRef(message).starts_with("error: ") ? 7 : 0));
      signalPassFailure();
    }
  }
  Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("The entry point to export (default: every compute one)")};
  Option<std::string> stage{
      *this, "stage",
      llvm::cl::desc("compute, vertex, tess-control, tess-evaluation, "
                     "geometry or fragment"),
      llvm::cl::init("compute")};
  Option<bool> robustAccess{
      *this, "robust-access",
      llvm::cl::desc("Out-of-bounds buffer reads give zero, writes are "
                     "dropped (robustBufferAccess2)")};
  Option<bool> boundsReports{
      *this, "bounds-reports",
      llvm::cl::desc("Robust access, and each out-of-bounds access calls "
                     "spvb_rt_fault")};
  Option<bool> raceReports{
      *this, "race-reports",
      llvm::cl::desc("Accesses to shared memory call spvb_rt_record_access")};
  Option<std::string> undefinedChecks{*this, "undefined-checks",
                                      llvm::cl::desc("none, report or perturb"),
                                      llvm::cl::init("none")};
  Option<bool> nanChecks{*this, "nan-checks",
                         llvm::cl::desc("Report NaNs from finite operands")};
};

} // namespace

void spvb::registerConversionPasses() {
  PassRegistration<GuardHelperInvocationsPass>();
  PassRegistration<ImplicitLodPass>();
  PassRegistration<UndefinedChecksPass>();
  PassRegistration<NanChecksPass>();
  PassRegistration<RaceChecksPass>();
  PassRegistration<LowerToLLVMPass>();
}
