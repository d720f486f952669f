//===- NanChecks.h - Reports the first NaN or infinity ----------*- C++ -*-===//
//
// --check-nan, RenderDoc's "run to NaN": before lowering, each float
// arithmetic operation gets a check beside it that fails the dispatch when
// its result has a NaN or an infinity though its float operands are all
// finite, naming the operation, its result and operands, its line and the
// invocation. Values that arrive non-finite (loaded, passed on) are not
// reported again.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_NANCHECKS_H
#define SPVBRIDGE_CONVERSION_LIB_NANCHECKS_H

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

void insertNanChecks(mlir::ModuleOp module);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_NANCHECKS_H
