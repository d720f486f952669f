//===- ScriptParserFuzzer.cpp - libFuzzer: AmberScript and VkScript -------===//
//
// Script text in: `#!amber` first selects AmberScript, anything else
// VkScript, as Amber decides. Embedded GLSL and assembly are not compiled
// here (the front-end fuzzer covers modules). Files a script names are
// looked up beside "fuzz.amber" in the current directory, which holds none.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/amber/ScriptParser.h"

using namespace spvb;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::Expected<amber::Script> script =
      amber::parseScriptText(text, "/nonexistent/fuzz.amber");
  if (!script)
    llvm::consumeError(script.takeError());
  return 0;
}
