//===- EntryWrappers.h - The ABI's per-workgroup entries --------*- C++ -*-===//
#ifndef SPVBRIDGE_CONVERSION_LIB_ENTRYWRAPPERS_H
#define SPVBRIDGE_CONVERSION_LIB_ENTRYWRAPPERS_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

/// Adds, per entry point, spvb_NAME_workgroup (func/scf/arith) and the
/// spvb_NAME_info constant, then lowers them with MLIR's standard patterns.
mlir::LogicalResult buildEntryWrappers(mlir::ModuleOp module,
                                       const InterfaceLayout &layout);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_ENTRYWRAPPERS_H
