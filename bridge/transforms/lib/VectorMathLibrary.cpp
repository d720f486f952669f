//===- VectorMathLibrary.cpp - The host's vector math library -------------===//
#include "spvbridge/transforms/VectorMathLibrary.h"

#include "llvm/Support/DynamicLibrary.h"

llvm::VectorLibrary spvb::getVectorMathLibrary() {
  // glibc's libmvec evaluates sin, exp, log... on whole vectors; JIT'd code
  // finds it in the process once it is loaded.
  static bool loaded =
      !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  return loaded ? llvm::VectorLibrary::LIBMVEC : llvm::VectorLibrary::NoLibrary;
}
