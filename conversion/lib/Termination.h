//===- Termination.h - OpKill and OpTerminateInvocation ---------*- C++ -*-===//
#ifndef SPVBRIDGE_CONVERSION_LIB_TERMINATION_H
#define SPVBRIDGE_CONVERSION_LIB_TERMINATION_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

/// Before the conversion: fills layout.terminatingFunctions (fragment
/// shaders only) with every function that may terminate the invocation.
void findTerminatingFunctions(mlir::ModuleOp module, InterfaceLayout &layout);

/// After it: each call of such a function returns when the callee
/// terminated the invocation.
void returnAfterTermination(mlir::ModuleOp module,
                            const InterfaceLayout &layout);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_TERMINATION_H
