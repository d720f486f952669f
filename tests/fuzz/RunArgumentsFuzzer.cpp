//===- RunArgumentsFuzzer.cpp - libFuzzer: spv-run's flag values ----------===//
//
// The first byte picks the flag whose value the rest is: --buffer, --image,
// --sampler, --push, --device-buffer, --address, --out, --print, --spec or
// --subgroup-size. A DATA that is no typed list names a file: the fuzzer
// works in an empty directory and skips values with '/', so every such name
// is missing (or a directory); and it skips zero:N beyond 16 MiB.
//
//===----------------------------------------------------------------------===//
#include "RunArguments.h"

#include "spvbridge/spirv/Specialization.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

using namespace spvb;

template <typename T> static void consume(llvm::Expected<T> value) {
  if (!value)
    llvm::consumeError(value.takeError());
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> empty;
  if (llvm::sys::fs::createUniqueDirectory("spvb-fuzz-run-arguments", empty) ||
      llvm::sys::fs::set_current_path(empty))
    return 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  llvm::StringRef arg(reinterpret_cast<const char *>(data) + 1, size - 1);
  if (arg.contains('/') || arg.contains('\0'))
    return 0;
  for (size_t at = arg.find("zero:"); at != llvm::StringRef::npos;
       at = arg.find("zero:", at + 1)) {
    llvm::StringRef digits = arg.drop_front(at + 5).take_while(
        [](char c) { return llvm::isAlnum(c); });
    uint64_t bytes = 0;
    if (digits.size() > 10 ||
        (!digits.getAsInteger(0, bytes) && bytes > (16u << 20)))
      return 0;
  }
  switch (data[0] % 10) {
  case 0:
    consume(run::parseBufferArgument(arg));
    break;
  case 1:
    consume(run::parseImageArgument(arg));
    break;
  case 2:
    consume(run::parseSamplerArgument(arg));
    break;
  case 3:
    consume(run::parsePushArgument(arg));
    break;
  case 4:
    consume(run::parseDeviceBufferArgument(arg));
    break;
  case 5:
    consume(run::parseAddressArgument(arg));
    break;
  case 6:
    consume(run::parseOutputArgument(arg));
    break;
  case 7:
    consume(run::parsePrintArgument(arg));
    break;
  case 8:
    consume(parseSpecArgument(arg));
    break;
  case 9:
    consume(run::parseSubgroupSize(arg));
    break;
  }
  return 0;
}
