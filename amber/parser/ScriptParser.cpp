//===- ScriptParser.cpp - Parse an Amber script of either format ----------===//

#include "spvbridge/amber/ScriptParser.h"

#include "spvbridge/amber/AmberParser.h"
#include "spvbridge/amber/VkScriptParser.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace spvb::amber;

ScriptFormat spvb::amber::detectScriptFormat(llvm::StringRef text) {
  return text.starts_with("#!amber") ? ScriptFormat::AmberScript
                                     : ScriptFormat::VkScript;
}

llvm::Expected<Script> spvb::amber::parseScriptText(llvm::StringRef text,
                                                    llvm::StringRef fileName) {
  if (detectScriptFormat(text) == ScriptFormat::AmberScript)
    return parseAmberScript(text, fileName);
  return parseVkScript(text, fileName);
}

llvm::Expected<Script> spvb::amber::parseScript(llvm::StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!contents)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: " + path + ": cannot read: " + contents.getError().message());
  return parseScriptText((*contents)->getBuffer(), path);
}
