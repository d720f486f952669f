//===- CheckMessages.h - Messages of the run-time checks --------*- C++ -*-===//
//
// --check-undefined and --check-nan fail a dispatch with a message that
// DebugPrintf formats from the operands (spvb.check_defined), prefixed
// with the operation's source location.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_CHECKMESSAGES_H
#define SPVBRIDGE_CONVERSION_LIB_CHECKMESSAGES_H

#include "mlir/IR/Builders.h"

#include <string>

namespace spvb {

/// A DebugPrintf conversion for a value of `type`: "%g", or "(%v4g)" for a
/// vector.
std::string conversionFor(mlir::Type type, char conversion);

/// Inserts at `b`'s point a check that fails the dispatch when `failed` (i1,
/// or a vector of i1: any lane) holds, with `message` (a DebugPrintf format
/// of `args`) after `op`'s source location.
void insertCheck(mlir::OpBuilder &b, mlir::Operation *op, mlir::Value failed,
                 llvm::StringRef message, mlir::ValueRange args);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_CHECKMESSAGES_H
