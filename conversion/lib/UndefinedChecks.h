//===- UndefinedChecks.h - Reports and perturbs undefined results -*- C++ -*-=//
//
// Before lowering, an operation whose result SPIR-V, GLSL.std.450 or
// Vulkan's SPIR-V environment leave undefined for some operands (OpSMod of a
// negative value, OpConvertFToU of -1.5, Pow(0, -1), a shift by the bit
// width, ...) gets that condition computed beside it.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_UNDEFINEDCHECKS_H
#define SPVBRIDGE_CONVERSION_LIB_UNDEFINEDCHECKS_H

#include "spvbridge/conversion/Lowering.h"

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

/// Report: spvb.check_defined fails the dispatch at the first such result,
/// naming the operation, its operands and the rule. Perturb: where the
/// condition holds the result becomes its bitwise complement, an
/// access-chain index out of bounds becomes 0 (the lowering clamps it to
/// the last element), and OpUndef of a scalar or vector is all ones instead
/// of zero, so a run whose output changes shows that the output depends on
/// undefined values.
void insertUndefinedChecks(mlir::ModuleOp module, UndefinedChecks mode);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_UNDEFINEDCHECKS_H
