//===- RaceChecks.h - Data-race reports for memory accesses -----*- C++ -*-===//
//
// With InterfaceLayout::raceReports, every load, store and atomic on a
// storage buffer, physical storage buffer or Workgroup memory first calls
// spvb_rt_record_access with its address, size, kind, source location and
// the variable it goes through; the runtime keeps a shadow of the accesses
// and reports two conflicting ones no barrier orders (kernel_abi.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_RACECHECKS_H
#define SPVBRIDGE_CONVERSION_LIB_RACECHECKS_H

#include "RobustAccess.h"

#include "spvbridge/conversion/Interface.h"

#include "mlir/Transforms/DialectConversion.h"

namespace spvb {

/// Records an access of `bytes` bytes at `address` (the converted form of
/// `original`) before `op` performs it; nothing without race reports or for
/// memory no other invocation can see.
void recordAccessForRaceCheck(mlir::ConversionPatternRewriter &rewriter,
                              mlir::Operation *op, mlir::Value original,
                              mlir::Value address, uint64_t bytes,
                              AccessKind kind, bool atomic,
                              const InterfaceLayout &layout);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_RACECHECKS_H
