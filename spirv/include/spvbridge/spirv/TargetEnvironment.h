//===- TargetEnvironment.h - SPIR-V versions, Vulkan envs ---*- C++ -*-===//
//
// Which SPIR-V version a module is built for when nobody says: the Vulkan
// environments in order, and assembly read as the oldest SPIR-V version that
// accepts it. A runner given SPIR-V assembly without a version (Amber scripts
// rely on the harness for it) cannot pick one version for every module: an
// instruction added in SPIR-V 1.4 needs 1.4, while a 1.0 module whose
// OpEntryPoint lists only its Input and Output variables is invalid from 1.4
// on. The oldest version at which the text assembles and validates is the one
// its author wrote for.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_TARGETENVIRONMENT_H
#define SPVBRIDGE_SPIRV_TARGETENVIRONMENT_H

#include "spvbridge/spirv/ShaderSource.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace spvb {

struct VulkanEnvironment {
  /// As --target-env and TARGET_ENV spell it: "vulkan1.1spv1.4".
  llvm::StringRef name;
  /// The newest SPIR-V version it consumes, as a module header says it
  /// (0x00010400 is 1.4).
  uint32_t spirvVersion;
};

/// vulkan1.0 (SPIR-V 1.0), vulkan1.1 (1.3), vulkan1.1spv1.4, vulkan1.2 (1.5)
/// and vulkan1.3 (1.6): oldest first.
llvm::ArrayRef<VulkanEnvironment> getVulkanEnvironments();

/// "1.4" for 0x00010400.
std::string formatSpirvVersion(uint32_t spirvVersion);

/// A module and the environment it was built for.
struct BuiltModule {
  SpirvBinary binary;
  std::string targetEnv;
};

/// Assembles \p text for the first of \p environments (oldest first) at which
/// it assembles and, when \p validate, validates; opts.targetEnv is ignored.
/// When none does, the error is the validator's at the oldest environment
/// that assembled it, or the assembler's at the newest, naming the versions
/// tried.
llvm::Expected<BuiltModule> assembleForOldestEnvironment(
    llvm::StringRef text, llvm::StringRef name, const SourceOptions &opts,
    llvm::ArrayRef<VulkanEnvironment> environments, bool validate);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_TARGETENVIRONMENT_H
