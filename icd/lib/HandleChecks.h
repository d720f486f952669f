//===- HandleChecks.h - Null and destroyed handles in commands --*- C++ -*-===//
//
// Invalid use that is cheap to see: a command that runs with a null handle
// or one the application destroyed (still in the device's Quarantine) is an
// error naming the command and the handle, not a crash.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_HANDLECHECKS_H
#define SPVBRIDGE_ICD_LIB_HANDLECHECKS_H

#include "Objects.h"

#include "llvm/Support/Error.h"

namespace spvb::icd {

/// "error: COMMAND: WHAT is VK_NULL_HANDLE".
llvm::Error makeNullHandleError(const char *command, const char *what);

/// The error for \p object, \p command's \p what, if it is null or
/// destroyed.
llvm::Error checkHandle(const DestructibleObject *object, const char *command,
                        const char *what);

/// As checkHandle, and the error if \p buffer has no memory bound.
llvm::Error checkBuffer(const Buffer *buffer, const char *command,
                        const char *what);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_HANDLECHECKS_H
