//===- Layout.cpp - Byte layout of SPIR-V types ---------------------------===//
#include "spvbridge/conversion/Layout.h"

#include "mlir/IR/TypeRange.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace spvb;

uint64_t spvb::getAlignment(Type type) {
  if (type.isInteger(1))
    return 1;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth() / 8;
  if (auto vector = dyn_cast<VectorType>(type))
    return getAlignment(vector.getElementType());
  if (auto array = dyn_cast<spirv::ArrayType>(type))
    return getAlignment(array.getElementType());
  if (auto array = dyn_cast<spirv::RuntimeArrayType>(type))
    return getAlignment(array.getElementType());
  if (auto matrix = dyn_cast<spirv::MatrixType>(type))
    return getAlignment(matrix.getElementType());
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    uint64_t align = 1;
    for (Type member : structType.getElementTypes())
      align = std::max(align, getAlignment(member));
    return align;
  }
  if (isa<spirv::PointerType, spirv::ImageType, spirv::SampledImageType>(type))
    return 8;
  return 1;
}

uint64_t spvb::getMatrixStride(spirv::MatrixType type, MatrixLayout layout) {
  if (layout.stride)
    return layout.stride;
  auto column = cast<VectorType>(type.getColumnType());
  uint64_t elementSize = getByteSize(column.getElementType());
  return llvm::alignTo(elementSize * column.getNumElements(), elementSize);
}

uint64_t spvb::getArrayStride(Type arrayType) {
  Type element;
  unsigned stride = 0;
  if (auto array = dyn_cast<spirv::ArrayType>(arrayType)) {
    element = array.getElementType();
    stride = array.getArrayStride();
  } else {
    auto runtime = cast<spirv::RuntimeArrayType>(arrayType);
    element = runtime.getElementType();
    stride = runtime.getArrayStride();
  }
  if (stride)
    return stride;
  return llvm::alignTo(getByteSize(element), getAlignment(element));
}

uint64_t spvb::getMemberOffset(spirv::StructType type, unsigned member) {
  if (type.hasOffset())
    return type.getMemberOffset(member);
  uint64_t offset = 0;
  for (unsigned i = 0; i <= member; ++i) {
    Type memberType = type.getElementType(i);
    offset = llvm::alignTo(offset, getAlignment(memberType));
    if (i == member)
      break;
    offset += getByteSize(memberType, getMemberMatrixLayout(type, i));
  }
  return offset;
}

MatrixLayout spvb::getMemberMatrixLayout(spirv::StructType type,
                                         unsigned member) {
  MatrixLayout layout;
  SmallVector<spirv::StructType::MemberDecorationInfo> decorations;
  type.getMemberDecorations(member, decorations);
  for (const auto &info : decorations) {
    if (info.decoration == spirv::Decoration::MatrixStride)
      layout.stride = cast<IntegerAttr>(info.decorationValue).getInt();
    else if (info.decoration == spirv::Decoration::RowMajor)
      layout.rowMajor = true;
  }
  return layout;
}

uint64_t spvb::getByteSize(Type type, MatrixLayout matrix) {
  if (type.isInteger(1))
    return 1;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth() / 8;
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getNumElements() * getByteSize(vector.getElementType());
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    if (array.getNumElements() == 0)
      return 0;
    return getArrayStride(array) * (array.getNumElements() - 1) +
           getByteSize(array.getElementType(), matrix);
  }
  if (isa<spirv::RuntimeArrayType>(type))
    return 0;
  if (auto mat = dyn_cast<spirv::MatrixType>(type)) {
    auto column = cast<VectorType>(mat.getColumnType());
    uint64_t stride = getMatrixStride(mat, matrix);
    uint64_t elementSize = getByteSize(column.getElementType());
    // Row-major: one row per stride, a row holds one element per column.
    if (matrix.rowMajor)
      return stride * (column.getNumElements() - 1) +
             elementSize * mat.getNumColumns();
    return stride * (mat.getNumColumns() - 1) +
           elementSize * column.getNumElements();
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    unsigned count = structType.getNumElements();
    if (count == 0)
      return 0;
    uint64_t end = 0;
    for (unsigned i = 0; i < count; ++i)
      end =
          std::max(end, getMemberOffset(structType, i) +
                            getByteSize(structType.getElementType(i),
                                        getMemberMatrixLayout(structType, i)));
    // Natural layout pads to the alignment, so arrays of it stay aligned.
    if (!structType.hasOffset())
      end = llvm::alignTo(end, getAlignment(structType));
    return end;
  }
  if (isa<spirv::PointerType, spirv::ImageType>(type))
    return 8;
  if (isa<spirv::SampledImageType>(type))
    return 16;
  return 0;
}
