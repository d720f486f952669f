//===- DebugTypes.h - DWARF types of shader variables -----------*- C++ -*-===//
#ifndef SPVBRIDGE_CONVERSION_DEBUGTYPES_H
#define SPVBRIDGE_CONVERSION_DEBUGTYPES_H

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"

namespace spvb {

/// The DWARF type of a variable of SPIR-V type `type`, with the names of
/// the deserializer's kDebugTypeNamesAttr tree `names` (may be null).
mlir::LLVM::DITypeAttr getDebugType(mlir::Type type, mlir::Attribute names);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_DEBUGTYPES_H
