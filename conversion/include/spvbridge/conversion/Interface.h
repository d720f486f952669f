//===- Interface.h - Where each SPIR-V global lives in the ABI --*- C++ -*-===//
//
// Resource, push-constant, Workgroup, Private and builtin variables become
// addresses computed from the kernel ABI blocks (cpu_runtime/kernel_abi.h).
// This is decided once per module, before the patterns run.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_INTERFACE_H
#define SPVBRIDGE_CONVERSION_INTERFACE_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace spvb {

struct DescriptorBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  bool operator<(const DescriptorBinding &o) const {
    return set != o.set ? set < o.set : binding < o.binding;
  }
  bool operator==(const DescriptorBinding &o) const {
    return set == o.set && binding == o.binding;
  }
};

/// On an op whose result is a variable's address, with debug information
/// (InterfaceLayout::debugInfo): the variable's LLVM::DITypeAttr, beside its
/// name (kDebugNameAttr).
inline constexpr llvm::StringLiteral kDebugTypeAttr = "spvb.debug_type";
/// On an op carrying kDebugTypeAttr: the variable lives in a fragment
/// record, in blocks of this many lanes (InterfaceLayout::recordLanes).
inline constexpr llvm::StringLiteral kDebugRecordLanesAttr =
    "spvb.debug_record_lanes";
/// On a function argument marked so: the argument is the variable's
/// address, not its value.
inline constexpr llvm::StringLiteral kDebugIndirectAttr = "spvb.debug_indirect";

struct InterfaceVariable {
  mlir::spirv::StorageClass storageClass;
  /// Binding-table slot for buffers.
  uint32_t slot = 0;
  /// Descriptors: 1 for one, N for an array of N (slots slot..slot+N-1), 0
  /// for a runtime-sized array, whose one slot holds the array's own table
  /// (kernel_abi.h).
  uint32_t descriptorCount = 1;
  /// Byte offset in the Workgroup or Private block, or in the stage's
  /// input or output record.
  uint64_t offset = 0;
  std::optional<mlir::spirv::BuiltIn> builtin;
  /// An Input or Output variable of a vertex or fragment entry: it lives in
  /// the invocation's record (kernel_abi.h).
  bool inStageRecord = false;
  /// With debug information: the name the shader gives it (empty for an
  /// anonymous block, whose members are named) and its DWARF type.
  std::string debugName;
  mlir::LLVM::DITypeAttr debugType;
};

struct EntryPointLayout {
  std::string name;     // the SPIR-V entry point name
  std::string function; // its spirv.func symbol
  mlir::spirv::ExecutionModel model = mlir::spirv::ExecutionModel::GLCompute;
  /// Vertex: 1 (an invocation per vertex); Fragment: 4 (a quad).
  uint32_t workgroupSize[3] = {1, 1, 1};
  /// Whether anything the entry point reaches has a control barrier.
  bool usesBarriers = false;
  /// Whether anything the entry point reaches has a subgroup operation;
  /// such kernels run on fibers.
  bool usesSubgroupOps = false;
};

struct InterfaceLayout {
  llvm::StringMap<InterfaceVariable> variables;
  /// The binding table: slot i holds bindings[i].
  std::vector<DescriptorBinding> bindings;
  uint64_t sharedMemorySize = 0;
  uint64_t privateMemorySize = 0;
  /// Vertex and fragment entries: the bytes of an invocation's input and
  /// output records and where each Location and builtin is in them.
  uint64_t stageInputSize = 0;
  uint64_t stageOutputSize = 0;
  std::vector<spvb_stage_variable> stageVariables;
  /// Tessellation control entries: one input and one output record per
  /// workgroup (a patch), which its invocations share.
  bool recordsPerWorkgroup = false;
  /// Fragment entries: the records are in blocks of this many invocations,
  /// word by word (SPVB_FRAGMENT_RECORD_LANES, kernel_abi.h); 0 for records
  /// one after the other.
  uint32_t recordLanes = 0;
  /// Whether a fragment entry's workgroups are one block each: the block is
  /// then workgroup_id[0] and the lane local_index, which the lane
  /// vectorizer sees are consecutive.
  bool blockPerWorkgroup = false;
  /// The (set, binding) of every resource what is exported reaches; a
  /// resource it never names needs nothing bound.
  std::vector<DescriptorBinding> usedBindings;
  /// GLCompute entries: the buffers each worker thread changes in a copy of
  /// its own (spvb_private_atomics), by slot, and their variables' symbols.
  std::vector<spvb_private_atomics> privateAtomics;
  llvm::StringSet<> privateAtomicVariables;
  /// LLVM symbols of the functions that may run OpKill or
  /// OpTerminateInvocation (directly or through a call).
  llvm::StringSet<> terminatingFunctions;
  std::vector<EntryPointLayout> entryPoints;
  /// spirv.func symbol -> LLVM function symbol.
  llvm::StringMap<std::string> functionSymbols;
  /// robustBufferAccess2 semantics for buffer accesses (RobustAccess.h).
  bool robustBufferAccess = false;
  /// Out-of-bounds buffer accesses also call spvb_rt_fault.
  bool boundsReports = false;
  /// Function variables without an initializer start as all ones instead
  /// of zero (--perturb-undefined).
  bool perturbUndefined = false;
  /// Variables' addresses carry kDebugNameAttr and kDebugTypeAttr.
  bool debugInfo = false;
};

/// Decides the interface. `bindings` is the binding table reflection chose;
/// empty means "sorted by (set, binding)", the rule reflection documents.
/// Errors name the variable.
/// Only `entryPoint` of `model` is exported (all GLCompute entry points when
/// `entryPoint` is empty).
llvm::Expected<InterfaceLayout> computeInterfaceLayout(
    mlir::ModuleOp module, llvm::ArrayRef<DescriptorBinding> bindings = {},
    llvm::StringRef entryPoint = {},
    mlir::spirv::ExecutionModel model = mlir::spirv::ExecutionModel::GLCompute);

/// Places the Input and Output variables of a vertex or fragment entry
/// point in its records (natural layout, in declaration order, after the
/// fragment records' status words) and lists their Locations and builtins.
/// Errors name the variable.
llvm::Error layoutStageInterface(mlir::ModuleOp module,
                                 mlir::spirv::EntryPointOp entry,
                                 InterfaceLayout &layout);

/// Whether a compute-style builtin (invocation ids, subgroup values) that
/// every stage reads from the ABI blocks.
bool isInvocationBuiltin(mlir::spirv::BuiltIn builtin);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_INTERFACE_H
