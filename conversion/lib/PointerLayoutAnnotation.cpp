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

PointerLayout spvb::readPointerLayout(Operation *op, llvm::StringRef prefix) {
  PointerLayout layout;
  std::string p = prefix.str();
  if (auto stride = op->getAttrOfType<IntegerAttr>(p + ".matrix_stride"))
    layout.matrix.stride = stride.getInt();
  layout.matrix.rowMajor = op->hasAttr(p + ".row_major");
  if (auto stride = op->getAttrOfType<IntegerAttr>(p + ".vector_stride"))
    layout.vectorStride = stride.getInt();
  return layout;
}

void spvb::writePointerLayout(Operation *op, const PointerLayout &layout,
                              llvm::StringRef prefix) {
  if (layout.isDefault())
    return;
  Builder b(op->getContext());
  std::string p = prefix.str();
  if (layout.matrix.stride)
    op->setAttr(p + ".matrix_stride",
                b.getI32IntegerAttr(layout.matrix.stride));
  if (layout.matrix.rowMajor)
    op->setAttr(p + ".row_major", b.getUnitAttr());
  if (layout.vectorStride)
    op->setAttr(p + ".vector_stride", b.getI32IntegerAttr(layout.vectorStride));
}

/// The layout at the end of an access chain's indices into `type`.
static PointerLayout walkIndices(PointerLayout layout, Type type,
                                 ValueRange indices) {
  for (Value index : indices) {
    if (auto structType = dyn_cast<spirv::StructType>(type)) {
      auto cst = index.getDefiningOp<spirv::ConstantOp>();
      unsigned member = cst ? cast<IntegerAttr>(cst.getValue()).getInt() : 0;
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
  return layout;
}

void spvb::annotatePointerLayouts(ModuleOp module) {
  llvm::DenseMap<Value, PointerLayout> layouts;
  auto pointee = [](Value pointer) {
    return cast<spirv::PointerType>(pointer.getType()).getPointeeType();
  };
  module.walk([&](Operation *op) {
    if (auto chain = dyn_cast<spirv::AccessChainOp>(op)) {
      PointerLayout layout = layouts.lookup(chain.getBasePtr());
      writePointerLayout(op, layout);
      layouts[chain.getResult()] =
          walkIndices(layout, pointee(chain.getBasePtr()), chain.getIndices());
    } else if (auto chain = dyn_cast<spirv::PtrAccessChainOp>(op)) {
      // The Element operand steps over whole pointees: layout unchanged.
      PointerLayout layout = layouts.lookup(chain.getBasePtr());
      writePointerLayout(op, layout);
      layouts[chain.getResult()] =
          walkIndices(layout, pointee(chain.getBasePtr()), chain.getIndices());
    } else if (auto load = dyn_cast<spirv::LoadOp>(op)) {
      writePointerLayout(op, layouts.lookup(load.getPtr()));
    } else if (auto store = dyn_cast<spirv::StoreOp>(op)) {
      writePointerLayout(op, layouts.lookup(store.getPtr()));
    } else if (auto copy = dyn_cast<spirv::CopyMemoryOp>(op)) {
      writePointerLayout(op, layouts.lookup(copy.getTarget()));
      writePointerLayout(op, layouts.lookup(copy.getSource()), "spvb.source");
    }
  });
}
