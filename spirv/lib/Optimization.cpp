//===- Optimization.cpp - spirv-opt passes on a module --------------------===//
#include "spvbridge/spirv/Optimization.h"

#include "spvbridge/spirv/Validator.h"

#include "llvm/ADT/StringExtras.h"

#include "spirv-tools/optimizer.hpp"

using namespace spvb;

llvm::Expected<SpirvBinary>
spvb::runSpirvOptPasses(const SpirvBinary &binary,
                        llvm::ArrayRef<std::string> passes,
                        llvm::StringRef targetEnv) {
  auto makeError = [&](const std::string &what) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: " + binary.name + ": " + what);
  };
  llvm::Expected<spv_target_env> env = parseTargetEnv(targetEnv);
  if (!env)
    return env.takeError();
  std::string message;
  spvtools::Optimizer optimizer(*env);
  optimizer.SetMessageConsumer([&](spv_message_level_t level, const char *,
                                   const spv_position_t &, const char *msg) {
    if (level <= SPV_MSG_ERROR && message.empty())
      message = llvm::StringRef(msg).rtrim(" \t\r\n").str();
  });
  std::vector<std::string> flags(passes.begin(), passes.end());
  if (!optimizer.RegisterPassesFromFlags(flags))
    return makeError("unknown spirv-opt pass in " +
                     llvm::join(passes.begin(), passes.end(), " ") +
                     (message.empty() ? "" : ": " + message));
  SpirvBinary result;
  result.name = binary.name;
  if (!optimizer.Run(binary.words.data(), binary.words.size(), &result.words))
    return makeError("spirv-opt " +
                     llvm::join(passes.begin(), passes.end(), " ") + " failed" +
                     (message.empty() ? "" : ": " + message));
  return result;
}
