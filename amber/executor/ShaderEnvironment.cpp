//===- ShaderEnvironment.cpp - The SPIR-V version of a script's shader ----===//
#include "ShaderEnvironment.h"

#include "llvm/ADT/STLExtras.h"

using namespace spvb;
using namespace spvb::amber;

ShaderEnvironments spvb::amber::getShaderEnvironments(const Script &script,
                                                      const Shader &shader,
                                                      llvm::StringRef forced) {
  ShaderEnvironments result;
  if (!shader.targetEnv.empty())
    result.fixed = shader.targetEnv;
  else if (!forced.empty())
    result.fixed = forced.str();
  uint32_t minimum = 0x00010000;
  // The CTS runs such scripts in its spirv1p4 groups, for SPIR-V 1.4.
  if (llvm::is_contained(script.deviceExtensions, "VK_KHR_spirv_1_4"))
    minimum = 0x00010400;
  result.allowed = getVulkanEnvironments();
  while (result.allowed.size() > 1 &&
         result.allowed.front().spirvVersion < minimum)
    result.allowed = result.allowed.drop_front();
  return result;
}

std::string ShaderEnvironments::forBinary(uint32_t version) const {
  if (!fixed.empty())
    return fixed;
  for (const VulkanEnvironment &candidate : allowed)
    if (version <= candidate.spirvVersion)
      return candidate.name.str();
  return allowed.back().name.str();
}
