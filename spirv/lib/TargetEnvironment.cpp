//===- TargetEnvironment.cpp - SPIR-V versions and Vulkan environments ----===//

#include "spvbridge/spirv/TargetEnvironment.h"

#include "spvbridge/spirv/Validator.h"

#include "llvm/ADT/Twine.h"

using namespace spvb;

llvm::ArrayRef<VulkanEnvironment> spvb::getVulkanEnvironments() {
  static const VulkanEnvironment environments[] = {
      {"vulkan1.0", 0x00010000},       {"vulkan1.1", 0x00010300},
      {"vulkan1.1spv1.4", 0x00010400}, {"vulkan1.2", 0x00010500},
      {"vulkan1.3", 0x00010600},
  };
  return environments;
}

std::string spvb::formatSpirvVersion(uint32_t version) {
  return (llvm::Twine((version >> 16) & 0xff) + "." +
          llvm::Twine((version >> 8) & 0xff))
      .str();
}

llvm::Expected<BuiltModule> spvb::assembleForOldestEnvironment(
    llvm::StringRef text, llvm::StringRef name, const SourceOptions &opts,
    llvm::ArrayRef<VulkanEnvironment> environments, bool validate) {
  assert(!environments.empty() && "no environment to assemble for");
  // The validator's complaint at the oldest environment that assembled the
  // text: the version its author most likely wrote for.
  std::string firstInvalid;
  const VulkanEnvironment *firstAssembled = nullptr;
  std::string lastAssemblyError;
  for (const VulkanEnvironment &environment : environments) {
    SourceOptions envOptions = opts;
    envOptions.targetEnv = environment.name.str();
    llvm::Expected<SpirvBinary> binary = assembleSpirv(text, name, envOptions);
    if (!binary) {
      lastAssemblyError = llvm::toString(binary.takeError());
      continue;
    }
    llvm::Error invalid = validate ? validateSpirv(*binary, environment.name)
                                   : llvm::Error::success();
    if (!invalid)
      return BuiltModule{std::move(*binary), environment.name.str()};
    std::string message = llvm::toString(std::move(invalid));
    if (!firstAssembled) {
      firstAssembled = &environment;
      firstInvalid = std::move(message);
    }
  }
  std::string range = formatSpirvVersion(environments.front().spirvVersion) +
                      " to " +
                      formatSpirvVersion(environments.back().spirvVersion);
  if (!firstAssembled)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        lastAssemblyError + "\nnote: no SPIR-V version from " + range +
            " assembles it; the message is the assembler's at " +
            environments.back().name);
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      firstInvalid + "\nnote: read as SPIR-V " +
          formatSpirvVersion(firstAssembled->spirvVersion) + " (" +
          firstAssembled->name +
          "), the oldest version that assembles it; no version from " + range +
          " validates it");
}
