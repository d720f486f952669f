//===- Validator.cpp - SPIR-V validation ----------------------------------===//

#include "spvbridge/spirv/Validator.h"

#include "spirv-tools/libspirv.hpp"

using namespace spvb;

llvm::Expected<spv_target_env> spvb::parseTargetEnv(llvm::StringRef name) {
  if (std::optional<spv_target_env> env = findTargetEnv(name))
    return *env;
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: " + describeUnknownTargetEnv(name));
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
