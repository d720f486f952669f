//===- VectorMathLibrary.h - The host's vector math library -----*- C++ -*-===//
#ifndef SPVBRIDGE_TRANSFORMS_VECTORMATHLIBRARY_H
#define SPVBRIDGE_TRANSFORMS_VECTORMATHLIBRARY_H

#include "llvm/IR/SystemLibraries.h"

namespace spvb {

/// The vector math library generated code may call (libmvec, loaded into
/// the process for the JIT), or none where it is missing. The lane widening
/// calls its functions for math on whole vectors of lanes, and the target
/// machine lets LLVM's vectorizers call them too.
llvm::VectorLibrary getVectorMathLibrary();

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_VECTORMATHLIBRARY_H
