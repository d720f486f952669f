//===- RobustAccess.h - robustBufferAccess2 for buffer accesses -*- C++ -*-===//
//
// With InterfaceLayout::robustBufferAccess, a load, store or atomic through a
// pointer into a storage or uniform buffer checks that all its bytes lie in
// the bound range: if not, a load reads a zero-filled constant, a store
// writes a scratch sink nobody reads, and an atomic returns zero. The check
// is branch-free (a select of the address), so loops stay vectorizable.
// Pointers whose buffer cannot be traced through access chains to the
// variable (through phis, selects or function arguments) are not checked.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_ROBUSTACCESS_H
#define SPVBRIDGE_CONVERSION_LIB_ROBUSTACCESS_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/Transforms/DialectConversion.h"

namespace spvb {

enum class AccessKind { Read, Write };

struct GuardedAccess {
  /// The address to access.
  mlir::Value address;
  /// i1: whether the access is in bounds; null when unchecked.
  mlir::Value inBounds;
};

/// The address an access of `bytes` bytes through `original` (converted:
/// `address`) should use.
GuardedAccess guardBufferAccess(mlir::ConversionPatternRewriter &rewriter,
                                mlir::Operation *op, mlir::Value original,
                                mlir::Value address, uint64_t bytes,
                                AccessKind kind, const InterfaceLayout &layout);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_ROBUSTACCESS_H
