//===- HelperInvocations.h - No side effects from helpers -------*- C++ -*-===//
#ifndef SPVBRIDGE_CONVERSION_LIB_HELPERINVOCATIONS_H
#define SPVBRIDGE_CONVERSION_LIB_HELPERINVOCATIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace spvb {

/// Helper invocations of a fragment shader must not write memory other
/// invocations see (Vulkan's "Helper Invocations"): in the functions of
/// fragment entry point `entryName` (empty: the first), every store, copy,
/// atomic and image write to storage buffers, physical storage buffers or
/// images runs only when gl_HelperInvocation is false (an atomic's result is
/// then undefined: zero). Runs on the spirv dialect before the interface is
/// laid out, as it adds a HelperInvocation input to the entry point when it has
/// none.
void guardHelperSideEffects(mlir::ModuleOp module, llvm::StringRef entryName);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_HELPERINVOCATIONS_H
