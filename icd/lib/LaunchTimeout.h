//===- LaunchTimeout.h - SPVB_TIMEOUT around a launch -----------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_LAUNCHTIMEOUT_H
#define SPVBRIDGE_ICD_LIB_LAUNCHTIMEOUT_H

#include "Objects.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spvb::icd {

/// Runs \p launch (a dispatch or a draw on the device's launcher) with the
/// watchdog armed. Generated code cannot be interrupted: past SPVB_TIMEOUT
/// the watchdog cancels the launch, which then fails with "error: WHO: the
/// WHAT did not finish in N s (SPVB_TIMEOUT; 0 waits forever); BLAME".
llvm::Error runWithTimeout(Device &device, llvm::StringRef who,
                           llvm::StringRef what, llvm::StringRef blame,
                           llvm::function_ref<llvm::Error()> launch);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_LAUNCHTIMEOUT_H
