//===- Validator.h - SPIR-V validation --------------------------*- C++ -*-===//
//
// Runs the SPIRV-Tools validator. Block layout is checked with the scalar
// block layout rules (what Vulkan checks when scalarBlockLayout is on, as on
// lavapipe): the runtime follows the Offset/ArrayStride decorations whatever
// they are, so only layouts that no Vulkan device accepts are rejected.
// LocalSizeId is accepted for every target environment.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_VALIDATOR_H
#define SPVBRIDGE_SPIRV_VALIDATOR_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "spirv-tools/libspirv.h"

namespace spvb {

/// Parses vulkan1.0, vulkan1.1, vulkan1.1spv1.4, vulkan1.2, vulkan1.3 and
/// spv1.0 .. spv1.6 (the latter map to SPIRV-Tools' universal environments).
/// Error: "error: unknown target environment 'X' (expected vulkan1.0, ...)".
llvm::Expected<spv_target_env> parseTargetEnv(llvm::StringRef name);

/// "error: FILE: invalid SPIR-V: <validator message>" on failure; the
/// validator's message usually ends with the offending instruction,
/// disassembled.
llvm::Error validateSpirv(const SpirvBinary &binary,
                          llvm::StringRef targetEnv = "vulkan1.2");

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_VALIDATOR_H
