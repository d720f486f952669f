//===- JitCompilerFlags.h - The JIT the tools run kernels with --*- C++ -*-===//
//
// spv-run's JIT and its --kernel-cache flag: where compiled kernels are kept
// between runs (KernelCache.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_COMMON_JITCOMPILERFLAGS_H
#define SPVBRIDGE_TOOLS_COMMON_JITCOMPILERFLAGS_H

#include "spvbridge/bridge/Kernel.h"

namespace spvb::tools {

/// A JIT compiler with the disk cache --kernel-cache asks for; kernels
/// compiled for a debugger (`debuggable`) are not cached. Errors name the
/// flag or the variable and the directory.
llvm::Expected<std::unique_ptr<JitCompiler>> createJitCompiler(bool debuggable);

} // namespace spvb::tools

#endif // SPVBRIDGE_TOOLS_COMMON_JITCOMPILERFLAGS_H
