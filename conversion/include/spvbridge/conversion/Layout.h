//===- Layout.h - Byte layout of SPIR-V types -------------------*- C++ -*-===//
//
// Every address the conversion computes comes from here. Types that carry
// explicit layout decorations (Offset, ArrayStride, MatrixStride, RowMajor)
// use them; types without (Function, Private and Workgroup storage) use the
// natural layout, which is also what reflection reports:
//   - scalars: size = alignment = byte width (bool: 1 byte);
//   - vectors: size = N * element size, alignment = element alignment;
//   - arrays: stride = element size rounded up to the element alignment;
//   - matrices: column-major, column stride = column size rounded up to the
//     element alignment;
//   - structs: C-like, each member at the next multiple of its alignment.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_LAYOUT_H
#define SPVBRIDGE_CONVERSION_LAYOUT_H

#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"

namespace spvb {

/// How a matrix is laid out: comes from the decorations of the struct member
/// that holds it (possibly through arrays). stride == 0 means natural.
struct MatrixLayout {
  uint32_t stride = 0;
  bool rowMajor = false;
};

uint64_t getAlignment(mlir::Type type);
/// Bytes the type spans in memory (for runtime arrays: the fixed part, 0).
uint64_t getByteSize(mlir::Type type, MatrixLayout matrix = {});
/// Distance between consecutive elements of an array or runtime array.
uint64_t getArrayStride(mlir::Type arrayType);
uint64_t getMemberOffset(mlir::spirv::StructType type, unsigned member);
MatrixLayout getMemberMatrixLayout(mlir::spirv::StructType type,
                                   unsigned member);
/// Column stride of a (column-major) matrix, or row stride if row-major.
uint64_t getMatrixStride(mlir::spirv::MatrixType type, MatrixLayout layout);

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LAYOUT_H
