//===- DebugTarget.h - The invocation --debug-invocation names --*- C++ -*-===//
//
// `--debug-invocation X[,Y[,Z]]` names an invocation by its global id,
// `WX,WY,WZ/LX,LY,LZ` by its workgroup and its local id there; missing
// components are 0.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_DEBUGTARGET_H
#define SPVBRIDGE_TOOLS_SPV_RUN_DEBUGTARGET_H

#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>

namespace spvb::run {

/// The workgroup and local index of the invocation `text` names in a
/// dispatch of `groups` workgroups of `size`; the entry is left for the
/// caller. Errors name the flag and the dispatch's extent.
llvm::Expected<runtime::DebugInvocation>
parseDebugInvocation(llvm::StringRef text, std::array<uint32_t, 3> groups,
                     const uint32_t *size);

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_DEBUGTARGET_H
