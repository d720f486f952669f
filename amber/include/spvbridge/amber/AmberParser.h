//===- AmberParser.h - Parse AmberScript ------------------------*- C++ -*-===//
//
// AmberScript (https://github.com/google/amber, docs/amber_script.md) into
// the model of AmberScript.h. Errors are `error: FILE:LINE: what`, naming
// the offending word; the first one ends the parse.
//
// Files the script names (SHADER ... FILE, BUFFER ... FILE TEXT|BINARY)
// are read relative to the script's folder and their contents put in the
// model; PNG files are only checked to exist.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_AMBERPARSER_H
#define SPVBRIDGE_TOOLS_AMBER_AMBERPARSER_H

#include "spvbridge/amber/AmberScript.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spvb::amber {

/// Parses \p text, an AmberScript file named \p fileName (for messages and
/// as the base of relative FILE paths).
llvm::Expected<Script> parseAmberScript(llvm::StringRef text,
                                        llvm::StringRef fileName);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_AMBERPARSER_H
