//===- CompileFlags.h - Compiler flags shared by the tools ------*- C++ -*-===//
//
// spv-to-ll and spv-run take the same compiler flags: --entry, --spec,
// -D, -I, -O0..-O3, --target-env, --no-validate; and report errors alike.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_COMMON_COMPILEFLAGS_H
#define SPVBRIDGE_TOOLS_COMMON_COMPILEFLAGS_H

#include "spvbridge/bridge/Compiler.h"

#include "llvm/Support/CommandLine.h"

namespace spvb::tools {

/// The category the shared flags are in; tools add their own flags to it.
llvm::cl::OptionCategory &getToolCategory();

/// The compile options the parsed flags ask for; errors name the flag.
llvm::Expected<CompileOptions> getCompileOptions();

/// Prints the error (its text starts with "error: ") and returns exit code 1.
int fail(llvm::Error error);
/// Prints "error: MESSAGE" and returns exit code 1.
int fail(const llvm::Twine &message);

} // namespace spvb::tools

#endif // SPVBRIDGE_TOOLS_COMMON_COMPILEFLAGS_H
