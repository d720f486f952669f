//===- CommandExecution.h - Replaying a command buffer ----------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_COMMANDEXECUTION_H
#define SPVBRIDGE_ICD_LIB_COMMANDEXECUTION_H

#include "Objects.h"

#include "llvm/Support/Error.h"

namespace spvb::icd {

/// Runs \p buffer's commands in order on \p device's launcher; the first
/// failing dispatch's error (a fault, a limit, a missing descriptor) ends it.
llvm::Error executeCommands(Device &device, const CommandBuffer &buffer);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_COMMANDEXECUTION_H
