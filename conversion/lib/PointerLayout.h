//===- PointerLayout.h - Matrix layout recorded on memory ops ---*- C++ -*-===//
//
// annotatePointerLayouts (Patterns.h) writes, and the memory patterns read,
// how matrices behind an op's pointer operand are laid out:
//   spvb.matrix_stride = N, spvb.row_major: layout of matrices at the pointer;
//   spvb.vector_stride = N: the pointer is a column of a row-major matrix,
//                           whose elements are N bytes apart;
//   spvb.source.*: the same for OpCopyMemory's source pointer.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LIB_POINTERLAYOUT_H
#define SPVBRIDGE_CONVERSION_LIB_POINTERLAYOUT_H

#include "spvbridge/conversion/Layout.h"

#include "mlir/IR/Operation.h"

namespace spvb {

struct PointerLayout {
  MatrixLayout matrix;
  uint32_t vectorStride = 0;
  bool isDefault() const {
    return !matrix.stride && !matrix.rowMajor && !vectorStride;
  }
};

/// `prefix` names the attributes: "spvb" for the op's pointer operand,
/// "spvb.source" for OpCopyMemory's source.
PointerLayout readPointerLayout(mlir::Operation *op,
                                llvm::StringRef prefix = "spvb");
/// Records a non-default layout on `op`.
void writePointerLayout(mlir::Operation *op, const PointerLayout &layout,
                        llvm::StringRef prefix = "spvb");

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_POINTERLAYOUT_H
