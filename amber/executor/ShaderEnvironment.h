//===- ShaderEnvironment.h - A script shader's SPIR-V version -*- C++ -*-===//
//
// Amber scripts rarely say which SPIR-V version their shaders are: Amber
// takes it from its command line, and the Vulkan CTS from the test's group.
// spvbridge decides as such a harness would: TARGET_ENV when the shader has
// one, else --target-env, else the newest environment for GLSL and HLSL, the
// oldest that consumes a binary's header version, and for SPIR-V assembly the
// oldest at which it assembles and validates; never older than the script's
// requirements allow (VK_KHR_spirv_1_4: SPIR-V 1.4).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_SHADERENVIRONMENT_H
#define SPVBRIDGE_TOOLS_AMBER_SHADERENVIRONMENT_H

#include "spvbridge/amber/AmberScript.h"

#include "spvbridge/spirv/TargetEnvironment.h"

namespace spvb::amber {

struct ShaderEnvironments {
  /// TARGET_ENV or --target-env: the one environment to build for.
  std::string fixed;
  /// Otherwise: the Vulkan environments the script allows, oldest first.
  llvm::ArrayRef<VulkanEnvironment> allowed;

  /// For a binary of SPIR-V \p version (its header word): the fixed one,
  /// else the oldest allowed that consumes it (past 1.6: the newest, whose
  /// validator then says why).
  std::string forBinary(uint32_t version) const;
};

/// \p forced is --target-env's value, empty when not given.
ShaderEnvironments getShaderEnvironments(const Script &script,
                                         const Shader &shader,
                                         llvm::StringRef forced);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_SHADERENVIRONMENT_H
