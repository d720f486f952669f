//===- Deserializer.h - SPIR-V binary to MLIR spirv dialect -----*- C++ -*-===//
//
// Our own deserializer (MLIR's spirv::deserialize does not carry real shaders:
// see DESIGN.md). It produces a builtin.module holding spirv dialect ops:
//   - no spirv.module wrapper, because spirv.module forbids ops of other
//     dialects inside its functions and we need the spvb ops; the addressing
//     and memory models become the module attributes spvb.addressing_model
//     and spvb.memory_model;
//   - signless integers everywhere, so int/uint mixing is legal;
//   - an unstructured CFG (spirv.Branch/BranchConditional/Switch), with OpPhi
//     as block arguments; merge instructions are dropped;
//   - OpLine/OpName as locations: FileLineColLoc fused into a NameLoc (or,
//     for a module without lines, its disassembly's lines);
//   - instructions the spirv dialect lacks as ops of the spvb dialect
//     (SpvbOps.td), identity instructions (OpCopyObject, same-type OpBitcast)
//     as plain value aliases.
// The module must be specialized first (Specialization.h): a remaining
// OpSpecConstant* is an error.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_DESERIALIZER_H
#define SPVBRIDGE_SPIRV_DESERIALIZER_H

#include "spvbridge/spirv/DisassemblyListing.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace spvb {

/// Marks a Workgroup spirv.GlobalVariable whose OpVariable had a null
/// initializer (ZeroInitializeWorkgroupMemory): the initializer is dropped,
/// since the runtime zero-fills Workgroup memory.
inline constexpr llvm::StringLiteral kZeroInitializedAttr =
    "spvb.zero_initialized";

/// Stage interface (Input and Output) variables carry their Location in the
/// op's `location` and these: the Component decoration (an i32 attribute)
/// and the interpolation decorations (unit attributes). An interface block
/// becomes a variable per member, which takes the member's decorations.
inline constexpr llvm::StringLiteral kComponentAttr = "spvb.component";
inline constexpr llvm::StringLiteral kFlatAttr = "spvb.flat";
inline constexpr llvm::StringLiteral kNoPerspectiveAttr = "spvb.noperspective";
inline constexpr llvm::StringLiteral kCentroidAttr = "spvb.centroid";
inline constexpr llvm::StringLiteral kSampleAttr = "spvb.sample";
/// A tessellation stage's per-patch variable (Patch), not per vertex.
inline constexpr llvm::StringLiteral kPatchAttr = "spvb.patch";
/// On the spirv.Store of an Output variable's initializer at the start of
/// an entry point: where invocations share the record (a tessellation
/// control shader's patch), only the first stores it.
inline constexpr llvm::StringLiteral kOutputInitializerAttr =
    "spvb.output_initializer";
/// On Input and Output variables whose integers are unsigned (OpTypeInt
/// signedness 0): the dialect's integers are signless, and a fragment output
/// or a flat input needs its signedness (the attachment's conversion).
inline constexpr llvm::StringLiteral kUnsignedAttr = "spvb.unsigned";
/// On spirv.EntryPoint: the entry point's name (its function may have had to
/// take another symbol: a vertex and a fragment entry may both be "main").
inline constexpr llvm::StringLiteral kEntryNameAttr = "spvb.entry_name";

/// On variables (global and function) for debug information: the OpName
/// of the variable, and the source-level names along its pointee type, a
/// tree parallel to the type: a struct is [type name, [member names],
/// [member trees]], an array [element tree], anything else "u" when its
/// scalars are unsigned integers (the dialect keeps no signedness), else "".
inline constexpr llvm::StringLiteral kDebugNameAttr = "spvb.debug_name";
inline constexpr llvm::StringLiteral kDebugTypeNamesAttr =
    "spvb.debug_type_names";
/// On the module, for debug information: the source text it carries
/// (OpSource, DebugSource), by file name.
inline constexpr llvm::StringLiteral kDebugSourcesAttr = "spvb.debug_sources";
/// In locations, for debug information: code inlined from a function
/// (NonSemantic.Shader.DebugInfo.100's DebugInlinedAt) is a CallSiteLoc
/// whose callee is a FusedLoc with a dictionary holding this key (the
/// function's name) and "line" (its declaration line).
inline constexpr llvm::StringLiteral kInlinedFunctionAttr =
    "spvb.inlined_function";

/// Registers the dialects the deserializer emits.
void registerDeserializerDialects(mlir::MLIRContext &context);

/// Builds a verified module from a specialized SPIR-V binary. Errors start
/// with "error: " and name the instruction (opcode, result id, OpName) and
/// its source line when the module has line information.
/// `debugInfo`: variables and function parameters carry kDebugNameAttr and
/// kDebugTypeNamesAttr (OpName and OpMemberName would otherwise be lost);
/// NonSemantic.Shader.DebugInfo.100's DebugValue becomes spvb.debug_value,
/// its inlined scopes kInlinedFunctionAttr locations.
/// `listing`: the module's disassembly (of these very words), whose lines
/// locate the instructions instead of OpLine.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
deserializeSpirv(const SpirvBinary &binary, mlir::MLIRContext &context,
                 bool debugInfo = false,
                 const DisassemblyListing *listing = nullptr);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_DESERIALIZER_H
