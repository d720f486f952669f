//===- PrivateAtomics.h - Buffers only relaxed atomics change ---*- C++ -*-===//
//
// Finds the storage buffers the runtime may give each worker thread a copy
// of (spvb_private_atomics, kernel_abi.h): every access to the buffer, in
// every function, is a relaxed atomic of one commutative operation whose
// result is unused, so no invocation can observe its contents during the
// dispatch. Addresses that leave the access chains (function arguments,
// phis, selects, physical pointers) disqualify the buffer.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_PRIVATEATOMICS_H
#define SPVBRIDGE_CONVERSION_LIB_PRIVATEATOMICS_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

/// Fills layout.privateAtomics.
void findPrivateAtomicBuffers(mlir::ModuleOp module, InterfaceLayout &layout);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_PRIVATEATOMICS_H
