//===- Validator.cpp - SPIR-V validation ----------------------------------===//

#include "spvbridge/spirv/Validator.h"

#include "llvm/ADT/StringSwitch.h"

#include "spirv-tools/libspirv.hpp"

#include <optional>

using namespace spvb;

llvm::Expected<spv_target_env> spvb::parseTargetEnv(llvm::StringRef name) {
  // A fixed list rather than spvParseTargetEnv: that one also accepts OpenCL,
  // OpenGL and WebGPU environments we cannot run.
  std::optional<spv_target_env> env =
      llvm::StringSwitch<std::optional<spv_target_env>>(name)
          .Case("vulkan1.0", SPV_ENV_VULKAN_1_0)
          .Case("vulkan1.1", SPV_ENV_VULKAN_1_1)
          .Case("vulkan1.1spv1.4", SPV_ENV_VULKAN_1_1_SPIRV_1_4)
          .Case("vulkan1.2", SPV_ENV_VULKAN_1_2)
          .Case("vulkan1.3", SPV_ENV_VULKAN_1_3)
          .Case("spv1.0", SPV_ENV_UNIVERSAL_1_0)
          .Case("spv1.1", SPV_ENV_UNIVERSAL_1_1)
          .Case("spv1.2", SPV_ENV_UNIVERSAL_1_2)
          .Case("spv1.3", SPV_ENV_UNIVERSAL_1_3)
          .Case("spv1.4", SPV_ENV_UNIVERSAL_1_4)
          .Case("spv1.5", SPV_ENV_UNIVERSAL_1_5)
          .Case("spv1.6", SPV_ENV_UNIVERSAL_1_6)
          .Default(std::nullopt);
  if (!env)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: unknown target environment '" + name +
            "' (expected vulkan1.0, vulkan1.1, vulkan1.1spv1.4, vulkan1.2, "
            "vulkan1.3, spv1.0, spv1.1, spv1.2, spv1.3, spv1.4, spv1.5 or "
            "spv1.6)");
  return *env;
}

llvm::Error spvb::validateSpirv(const SpirvBinary &binary,
                                llvm::StringRef targetEnv) {
  llvm::Expected<spv_target_env> env = parseTargetEnv(targetEnv);
  if (!env)
    return env.takeError();
  spvtools::SpirvTools tools(*env);
  std::string message;
  tools.SetMessageConsumer([&](spv_message_level_t level, const char *,
                               const spv_position_t &, const char *msg) {
    if (level <= SPV_MSG_ERROR && message.empty())
      message = llvm::StringRef(msg).rtrim(" \t\r\n").str();
  });
  spvtools::ValidatorOptions options;
  options.SetScalarBlockLayout(true);
  options.SetWorkgroupScalarBlockLayout(true);
  options.SetAllowLocalSizeId(true);
  if (tools.Validate(binary.words.data(), binary.words.size(), options))
    return llvm::Error::success();
  if (message.empty())
    message = "the validator gave no reason";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: " + binary.name +
                                     ": invalid SPIR-V: " + message);
}
