//===- InlinedBody.h - The invocation body the workgroup entries cut -*- C++
//-*-===//
//
// Region loops and SIMD lanes both transform one function: a copy of the
// invocation entry with every call into the kernel inlined, so that
// barriers and divergence in callees are in it.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_INLINEDBODY_H
#define SPVBRIDGE_TRANSFORMS_INLINEDBODY_H

#include "llvm/IR/Function.h"

namespace spvb {

/// An internal copy of `invocation` with every call to a function the
/// module defines inlined and no lifetime markers (allocas become per-
/// invocation arrays, which the markers could not name). Null if a call
/// cannot be inlined.
llvm::Function *cloneInlinedBody(llvm::Function &invocation);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_INLINEDBODY_H
