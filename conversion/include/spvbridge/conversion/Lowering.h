//===- Lowering.h - spirv dialect to llvm dialect, whole module -*- C++ -*-===//
#ifndef SPVBRIDGE_CONVERSION_LOWERING_H
#define SPVBRIDGE_CONVERSION_LOWERING_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace spvb {

/// What becomes of results the specifications leave undefined for their
/// operands (see UndefinedChecks.h).
enum class UndefinedChecks {
  /// Whatever the lowering computes (OpUndef is zero).
  None,
  /// The first one fails the dispatch (--check-undefined).
  Report,
  /// Each becomes its bitwise complement, OpUndef all ones
  /// (--perturb-undefined).
  Perturb,
};

struct LoweringOptions {
  /// The binding table from reflection; empty: sorted by (set, binding).
  std::vector<DescriptorBinding> bindings;
  /// The entry point to export, of `executionModel`; empty exports all
  /// GLCompute entry points.
  std::string entryPoint;
  mlir::spirv::ExecutionModel executionModel =
      mlir::spirv::ExecutionModel::GLCompute;
  /// Out-of-bounds buffer reads give zero, writes are dropped.
  bool robustBufferAccess = false;
  /// ... and each is reported (SPVB_FAULT_OUT_OF_BOUNDS).
  bool boundsReports = false;
  /// Accesses to memory invocations share are recorded, and data races
  /// reported (spvb_rt_record_access).
  bool raceReports = false;
  UndefinedChecks undefinedChecks = UndefinedChecks::None;
  /// The first float operation that makes a NaN or an infinity from finite
  /// operands fails the dispatch, naming it (--check-nan).
  bool nanChecks = false;
  /// Variables' addresses (allocas, and the values global addresses lower
  /// to) carry the variable's name (kDebugNameAttr) and DWARF type
  /// (kDebugTypeAttr), for the debug information a debugger reads.
  bool debugInfo = false;
  /// Inputs the shader never reads keep no SPVB_STAGE_UNREAD flag, so the
  /// runtime fills them: debug builds, whose debugger shows every input.
  bool fillUnreadInputs = false;
  /// GLCompute entries: buffers only unused relaxed atomics change are
  /// changed in per-thread copies (spvb_private_atomics); off for debug
  /// builds, whose debugger shows the buffers themselves, and with race
  /// reports, which name the buffers' addresses.
  bool privateAtomics = true;
};

struct LoweredModule {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  InterfaceLayout layout;
};

/// Registers the dialects and translations the lowering needs.
void registerLoweringDialects(mlir::MLIRContext &context);

/// Lowers a deserialized module to the llvm dialect on the kernel ABI:
/// per-invocation and per-workgroup entries and a kernel-info constant per
/// GLCompute entry point. Errors name the op and its source location.
llvm::Expected<LoweredModule>
lowerToLLVMDialect(mlir::OwningOpRef<mlir::ModuleOp> module,
                   const LoweringOptions &options, llvm::StringRef fileName);

/// Lowers the spirv ops of `module` in place. A spirv.module nested in it
/// (upstream's form) is unwrapped first. Returns the interface it chose.
llvm::Expected<InterfaceLayout> lowerInPlace(mlir::ModuleOp module,
                                             const LoweringOptions &options,
                                             llvm::StringRef fileName);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LOWERING_H
