//===- SpirvFrontendFuzzer.cpp - libFuzzer: SPIR-V binary to LLVM IR -----===//
//
// What spv-to-ll does with a .spv file: header check, validation, entry
// point reflection, deserialization (half the inputs with the debug
// information spv-to-ll reads for value names), lowering to the llvm
// dialect and translation to verified LLVM IR. Any input may be refused with an
// error; none may crash.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/bridge/Compiler.h"

#include "llvm/Support/Error.h"

using namespace spvb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::Expected<SpirvBinary> binary = parseSpirvBinary(
      llvm::ArrayRef<char>(reinterpret_cast<const char *>(data), size),
      "fuzz.spv");
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return 0;
  }
  // Half the inputs as spv-to-ll's LLVM IR is made, with the debug
  // information that names values read from the module.
  CompileOptions options;
  options.valueNames = size % 2;
  Compiler compiler(options);
  auto check = [](auto &&expected) {
    if (!expected) {
      llvm::consumeError(expected.takeError());
      return false;
    }
    return true;
  };
  llvm::Expected<SpirvBinary> prepared = compiler.prepare(std::move(*binary));
  if (!check(prepared))
    return 0;
  llvm::Expected<ModuleReflection> reflection = compiler.reflect(*prepared);
  if (!check(reflection))
    return 0;
  auto spirvModule = compiler.deserialize(*prepared);
  if (!check(spirvModule))
    return 0;
  llvm::Expected<LoweredModule> lowered =
      compiler.lower(std::move(*spirvModule), *reflection, "fuzz.spv");
  if (!check(lowered))
    return 0;
  llvm::LLVMContext context;
  check(compiler.translate(*lowered->module, context, "fuzz.spv"));
  return 0;
}
