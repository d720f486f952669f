//===- DebugTarget.h - The invocation a user asks to debug ------*- C++ -*-===//
//
// `X[,Y[,Z]]` names an invocation by its global id, `WX,WY,WZ/LX,LY,LZ` by
// its workgroup and its local id there; missing components are 0. spv-run
// takes it as --debug-invocation, the Vulkan driver as
// SPVB_DEBUG_INVOCATION.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_DEBUGTARGET_H
#define SPVBRIDGE_CPU_RUNTIME_DEBUGTARGET_H

#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <optional>

namespace spvb::runtime {

/// An invocation as the user names it, before a dispatch gives it a place.
struct InvocationName {
  /// The global id, or the workgroup when `local` is there.
  std::array<uint32_t, 3> first{};
  std::optional<std::array<uint32_t, 3>> local;
};

/// Parses `text`; errors name `source` (the flag or variable it came from).
llvm::Expected<InvocationName> parseInvocationName(llvm::StringRef text,
                                                   llvm::StringRef source);

/// The workgroup and local index of the invocation `text` names in a
/// dispatch of `groups` workgroups of `size`; the entry is left for the
/// caller. Errors name `source` and the dispatch's extent.
llvm::Expected<DebugInvocation>
parseDebugInvocation(llvm::StringRef text, std::array<uint32_t, 3> groups,
                     const uint32_t *size, llvm::StringRef source);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_DEBUGTARGET_H
