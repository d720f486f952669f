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
//   - OpLine/OpName as locations: FileLineColLoc fused into a NameLoc;
//   - instructions the spirv dialect lacks as ops of the spvb dialect
//     (SpvbOps.td), identity instructions (OpCopyObject, same-type OpBitcast)
//     as plain value aliases.
// The module must be specialized first (Specialization.h): a remaining
// OpSpecConstant* is an error.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_DESERIALIZER_H
#define SPVBRIDGE_SPIRV_DESERIALIZER_H

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

/// Registers the dialects the deserializer emits.
void registerDeserializerDialects(mlir::MLIRContext &context);

/// Builds a verified module from a specialized SPIR-V binary. Errors start
/// with "error: " and name the instruction (opcode, result id, OpName) and
/// its source line when the module has line information.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
deserializeSpirv(const SpirvBinary &binary, mlir::MLIRContext &context);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_DESERIALIZER_H
