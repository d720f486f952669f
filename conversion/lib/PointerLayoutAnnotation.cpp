//===- PointerLayoutAnnotation.cpp - Matrix layout behind pointers --------===//
//
// MatrixStride and RowMajor decorate the struct member that holds a matrix,
// not the matrix type, so a pointer's type alone cannot say how the matrix it
// points to is laid out. This walks access chains from their roots and
// records the layout on every op that reads or writes through a pointer
// (PointerLayout.h).
//
//===----------------------------------------------------------------------===//
#include "PointerLayout.h"
#include "spvbridge/conversion/Layout.h"
#include "spvbridge/conversion/Patterns.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace spvb;

PointerLayout spvb::readPointerLayout(Operation *op) {
  PointerLayout layout;
  if (auto stride = op->getAttrOfType<IntegerAttr>("spvb.matrix_stride"))
    layout.matrix.stride = stride.getInt();
  layout.matrix.rowMajor = op->hasAttr("spvb.row_major");
  if (auto stride = op->getAttrOfType<IntegerAttr>("spvb.vector_stride"))
    layout.vectorStride = stride.getInt();
  return layout;
}

void spvb::writePointerLayout(Operation *op, const PointerLayout &layout) {
  if (layout.isDefault())
    return;
  Builder b(op->getContext());
  if (layout.matrix.stride)
    op->setAttr("spvb.matrix_stride",
                b.getI32IntegerAttr(layout.matrix.stride));
  if (layout.matrix.rowMajor)
    op->setAttr("spvb.row_major", b.getUnitAttr());
  if (layout.vectorStride)
    op->setAttr("spvb.vector_stride", b.getI32IntegerAttr(layout.vectorStride));
}

void spvb::annotatePointerLayouts(ModuleOp module) {
  llvm::DenseMap<Value, PointerLayout> layouts;
  module.walk([&](Operation *op) {
    if (auto chain = dyn_cast<spirv::AccessChainOp>(op)) {
      PointerLayout layout = layouts.lookup(chain.getBasePtr());
      writePointerLayout(op, layout);
      Type type = cast<spirv::PointerType>(chain.getBasePtr().getType())
                      .getPointeeType();
      for (Value index : chain.getIndices()) {
        if (auto structType = dyn_cast<spirv::StructType>(type)) {
          auto cst = index.getDefiningOp<spirv::ConstantOp>();
          unsigned member =
              cst ? cast<IntegerAttr>(cst.getValue()).getInt() : 0;
          layout.matrix = getMemberMatrixLayout(structType, member);
          type = structType.getElementType(member);
        } else if (auto array = dyn_cast<spirv::ArrayType>(type)) {
          type = array.getElementType();
        } else if (auto array = dyn_cast<spirv::RuntimeArrayType>(type)) {
          type = array.getElementType();
        } else if (auto matrix = dyn_cast<spirv::MatrixType>(type)) {
          if (layout.matrix.rowMajor)
            layout.vectorStride = getMatrixStride(matrix, layout.matrix);
          type = matrix.getColumnType();
        } else if (auto vector = dyn_cast<VectorType>(type)) {
          layout.vectorStride = 0;
          type = vector.getElementType();
        }
      }
      layouts[chain.getResult()] = layout;
      return;
    }
    if (auto load = dyn_cast<spirv::LoadOp>(op))
      writePointerLayout(op, layouts.lookup(load.getPtr()));
    else if (auto store = dyn_cast<spirv::StoreOp>(op))
      writePointerLayout(op, layouts.lookup(store.getPtr()));
    else if (auto copy = dyn_cast<spirv::CopyMemoryOp>(op))
      writePointerLayout(op, layouts.lookup(copy.getTarget()));
  });
}
