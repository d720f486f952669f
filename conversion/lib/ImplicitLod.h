//===- ImplicitLod.h - Implicit-LOD sampling in fragment shaders -*- C++
//-*-===//
#ifndef SPVBRIDGE_CONVERSION_LIB_IMPLICITLOD_H
#define SPVBRIDGE_CONVERSION_LIB_IMPLICITLOD_H

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

/// In a fragment shader OpImageSampleImplicitLod chooses its level from the
/// coordinate's derivatives in the quad: each gets Grad operands, the
/// coarse derivatives of its coordinate (computed as quad operations, as
/// llvmpipe does), beside its Bias. Other stages keep level 0.
void addImplicitLodGradients(mlir::ModuleOp module);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_IMPLICITLOD_H
