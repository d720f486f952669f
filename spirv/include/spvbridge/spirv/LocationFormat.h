//===- LocationFormat.h - Source locations for diagnostics ------*- C++ -*-===//
//
// Diagnostics name places the way compilers do ("file:line:col"), not in
// MLIR's loc(...) syntax. The deserializer builds FileLineColLoc from OpLine,
// wrapped in a NameLoc when the value has an OpName.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_LOCATIONFORMAT_H
#define SPVBRIDGE_SPIRV_LOCATIONFORMAT_H

#include "mlir/IR/Location.h"

#include <string>

namespace spvb {

/// "file:line:col", "file:line:col ('name')", "'name'", or "" if unknown.
inline std::string formatLocation(mlir::Location loc) {
  if (auto file = mlir::dyn_cast<mlir::FileLineColLoc>(loc))
    return file.getFilename().str() + ":" + std::to_string(file.getLine()) +
           ":" + std::to_string(file.getColumn());
  if (auto name = mlir::dyn_cast<mlir::NameLoc>(loc)) {
    std::string child = formatLocation(name.getChildLoc());
    std::string quoted = "'" + name.getName().str() + "'";
    return child.empty() ? quoted : child + " (" + quoted + ")";
  }
  if (auto fused = mlir::dyn_cast<mlir::FusedLoc>(loc))
    for (mlir::Location part : fused.getLocations()) {
      std::string text = formatLocation(part);
      if (!text.empty())
        return text;
    }
  if (auto callSite = mlir::dyn_cast<mlir::CallSiteLoc>(loc))
    return formatLocation(callSite.getCallee());
  return "";
}

/// "error: FILE: LOCATION: MESSAGE", leaving out an unknown location.
inline std::string formatError(llvm::StringRef file, mlir::Location loc,
                               llvm::StringRef message) {
  std::string where = formatLocation(loc);
  return "error: " + file.str() + ": " + (where.empty() ? "" : where + ": ") +
         message.str();
}

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_LOCATIONFORMAT_H
