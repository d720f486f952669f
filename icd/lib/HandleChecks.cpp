//===- HandleChecks.cpp - Null and destroyed handles in commands ----------===//
#include "HandleChecks.h"

using namespace spvb::icd;

llvm::Error spvb::icd::makeNullHandleError(const char *command,
                                           const char *what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: %s: %s is VK_NULL_HANDLE", command,
                                 what);
}

llvm::Error spvb::icd::checkHandle(const DestructibleObject *object,
                                   const char *command, const char *what) {
  if (!object)
    return makeNullHandleError(command, what);
  if (object->destroyed)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: %s: %s was destroyed (or freed) before the command ran",
        command, what);
  return llvm::Error::success();
}

llvm::Error spvb::icd::checkBuffer(const Buffer *buffer, const char *command,
                                   const char *what) {
  if (llvm::Error error = checkHandle(buffer, command, what))
    return error;
  if (!buffer->memory)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: %s: %s has no memory bound", command,
                                   what);
  return llvm::Error::success();
}
