//===- DebugUtils.h - Errors to stderr and to debug messengers --*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_DEBUGUTILS_H
#define SPVBRIDGE_ICD_LIB_DEBUGUTILS_H

#include <string>

namespace spvb::icd {

struct Instance;

/// Prints \p message ("error: ...") on stderr and sends it to each of the
/// instance's messengers that takes general errors.
void reportError(Instance *instance, const std::string &message);

/// Prints a shader's debugPrintfEXT line on stderr and sends it to each
/// messenger that takes general information, as the validation layer's
/// debug printf does (message id "UNASSIGNED-DEBUG-PRINTF").
void reportShaderPrintf(Instance *instance, const std::string &line);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_DEBUGUTILS_H
