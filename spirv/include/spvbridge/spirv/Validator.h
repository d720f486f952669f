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

#include <iterator>
#include <optional>
#include <string>

namespace spvb {

/// The target environments spvbridge takes: vulkan1.0, vulkan1.1,
/// vulkan1.1spv1.4, vulkan1.2, vulkan1.3 and spv1.0 .. spv1.6 (SPIRV-Tools'
/// universal environments), not its OpenCL, OpenGL and WebGPU ones. Inline,
/// so a tool checks a name without linking SPIRV-Tools.
struct TargetEnvName {
  llvm::StringLiteral name;
  spv_target_env env;
};
inline constexpr TargetEnvName kTargetEnvs[] = {
    {"vulkan1.0", SPV_ENV_VULKAN_1_0},
    {"vulkan1.1", SPV_ENV_VULKAN_1_1},
    {"vulkan1.1spv1.4", SPV_ENV_VULKAN_1_1_SPIRV_1_4},
    {"vulkan1.2", SPV_ENV_VULKAN_1_2},
    {"vulkan1.3", SPV_ENV_VULKAN_1_3},
    {"spv1.0", SPV_ENV_UNIVERSAL_1_0},
    {"spv1.1", SPV_ENV_UNIVERSAL_1_1},
    {"spv1.2", SPV_ENV_UNIVERSAL_1_2},
    {"spv1.3", SPV_ENV_UNIVERSAL_1_3},
    {"spv1.4", SPV_ENV_UNIVERSAL_1_4},
    {"spv1.5", SPV_ENV_UNIVERSAL_1_5},
    {"spv1.6", SPV_ENV_UNIVERSAL_1_6},
};

/// The environment of kTargetEnvs named \p name, if any.
inline std::optional<spv_target_env> findTargetEnv(llvm::StringRef name) {
  for (const TargetEnvName &known : kTargetEnvs)
    if (known.name == name)
      return known.env;
  return std::nullopt;
}

/// "unknown target environment 'X' (expected vulkan1.0, ..., spv1.6)".
inline std::string describeUnknownTargetEnv(llvm::StringRef name) {
  std::string text =
      "unknown target environment '" + name.str() + "' (expected ";
  for (size_t i = 0; i < std::size(kTargetEnvs); ++i)
    text += (i ? i + 1 == std::size(kTargetEnvs) ? " or " : ", " : "") +
            kTargetEnvs[i].name.str();
  return text + ")";
}

/// One of kTargetEnvs by name. Error: "error: " + describeUnknownTargetEnv.
llvm::Expected<spv_target_env> parseTargetEnv(llvm::StringRef name);

/// "error: FILE: invalid SPIR-V: <validator message>" on failure; the
/// validator's message usually ends with the offending instruction,
/// disassembled.
llvm::Error validateSpirv(const SpirvBinary &binary,
                          llvm::StringRef targetEnv = "vulkan1.2");

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_VALIDATOR_H
