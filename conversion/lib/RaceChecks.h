//===- RaceChecks.h - Data-race reports for memory accesses -----*- C++ -*-===//
//
// --check-races, in two steps. Before lowering, insertRaceChecks puts a
// spvb.record_access before every load, store and atomic on a storage
// buffer, physical storage buffer or Workgroup memory. Lowering turns each
// into a call of spvb_rt_record_access with the converted address, size,
// kind, source location and the variable the access goes through; the
// runtime keeps a shadow of the accesses and reports two conflicting ones no
// barrier orders (kernel_abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_RACECHECKS_H
#define SPVBRIDGE_CONVERSION_LIB_RACECHECKS_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace spvb {

/// Runs after the pointer layouts are annotated (annotatePointerLayouts),
/// which decide the size of a matrix access.
void insertRaceChecks(mlir::ModuleOp module);

/// Lowers spvb.record_access; `layout` finds the variable behind an access.
void populateRaceCheckPatterns(const mlir::TypeConverter &converter,
                               const InterfaceLayout &layout,
                               mlir::RewritePatternSet &patterns);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_RACECHECKS_H
