//===- ScriptParser.h - Parse an Amber script of either format --*- C++ -*-===//
//
// The entry point: a file whose first line starts with `#!amber` is
// AmberScript (AmberParser.h), anything else VkScript (VkScriptParser.h),
// as Amber decides.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_SCRIPTPARSER_H
#define SPVBRIDGE_TOOLS_AMBER_SCRIPTPARSER_H

#include "spvbridge/amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spvb::amber {

/// AmberScript if \p text starts with "#!amber", else VkScript.
ScriptFormat detectScriptFormat(llvm::StringRef text);

/// Parses \p text, the contents of \p fileName (used in messages and to
/// resolve the files an AmberScript names).
llvm::Expected<Script> parseScriptText(llvm::StringRef text,
                                       llvm::StringRef fileName);

/// Reads and parses the script at \p path.
llvm::Expected<Script> parseScript(llvm::StringRef path);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_SCRIPTPARSER_H
