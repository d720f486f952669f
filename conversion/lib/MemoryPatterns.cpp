//===- MemoryPatterns.cpp - Variables, access chains, loads and stores ----===//
//
// Every pointer is an opaque byte address. Access chains add byte offsets
// taken from Layout.h; loads and stores of composites are split into loads
// and stores of their scalars and vectors at those offsets, so std140, std430
// and scalar layouts, vec3 members and padding all follow the decorations.
//
//===----------------------------------------------------------------------===//
#include "DebugTypes.h"
#include "DescriptorEntry.h"
#include "PatternUtils.h"
#include "PointerLayout.h"
#include "RobustAccess.h"
#include "spvbridge/conversion/Layout.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/Deserializer.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/Support/MathExtras.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

namespace {

/// `address` plus `offset` bytes within a value of type `container`; in a
/// record in blocks of `lanes` (kernel_abi.h) where that byte is.
Value offsetWithin(OpBuilder &b, Location loc, Value address, int64_t offset,
                   Type container, uint32_t lanes) {
  if (!lanes)
    return createByteOffset(b, loc, address, offset);
  return offsetBlockedRecord(b, loc, address, offset, lanes,
                             getAlignment(container) >= 4);
}

/// Loads a value of SPIR-V type `type` stored at `address` by the layout;
/// with `lanes`, from a record in blocks (kernel_abi.h), whose words are
/// apart.
Value loadValue(OpBuilder &b, Location loc, const TypeConverter &converter,
                Value address, Type type, MatrixLayout matrix,
                uint32_t vectorStride = 0, bool invariant = false,
                uint32_t lanes = 0) {
  Type llvmType = converter.convertType(type);
  if (lanes && type.isIntOrFloat() && getByteSize(type) == 8) {
    // Its two words, one block row apart.
    Type i32 = b.getI32Type();
    auto words = VectorType::get({2}, i32);
    Value pair = LLVM::PoisonOp::create(b, loc, words);
    for (int64_t w = 0; w < 2; ++w) {
      Value word = LLVM::LoadOp::create(
          b, loc, i32, offsetWithin(b, loc, address, 4 * w, type, lanes), 4,
          false, false, invariant);
      pair = insertElement(b, loc, pair, word, w);
    }
    return LLVM::BitcastOp::create(b, loc, llvmType, pair);
  }
  if (type.isIntOrFloat() || isa<spirv::ImageType, spirv::PointerType>(type))
    return LLVM::LoadOp::create(b, loc, llvmType, address, getAlignment(type),
                                false, false, invariant);
  if (isa<spirv::SampledImageType>(type)) {
    Type ptr = LLVM::LLVMPointerType::get(b.getContext());
    Value image = LLVM::LoadOp::create(b, loc, ptr, address, 8);
    Value sampler = LLVM::LoadOp::create(
        b, loc, ptr, createByteOffset(b, loc, address, 8), 8);
    Value pair = LLVM::PoisonOp::create(b, loc, llvmType);
    pair = insertValue(b, loc, pair, image, 0);
    return insertValue(b, loc, pair, sampler, 1);
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    if (element.isInteger(1)) {
      // A bool takes a byte (Layout.cpp), while LLVM packs <N x i1> in bits.
      auto bytes = VectorType::get(vector.getShape(), b.getI8Type());
      Value loaded = LLVM::LoadOp::create(b, loc, bytes, address, 1);
      return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, loaded,
                                  createIntConstant(b, loc, bytes, 0));
    }
    if (!vectorStride && !lanes)
      return LLVM::LoadOp::create(b, loc, llvmType, address,
                                  getAlignment(element), false, false,
                                  invariant);
    // A column of a row-major matrix, or a vector in a blocked record:
    // gather.
    Value result = LLVM::PoisonOp::create(b, loc, llvmType);
    for (int64_t i = 0; i < vector.getNumElements(); ++i) {
      Value elementAddress =
          lanes ? offsetWithin(b, loc, address, i * getByteSize(element), type,
                               lanes)
                : createByteOffset(b, loc, address, i * vectorStride);
      Value scalar = loadValue(b, loc, converter, elementAddress, element, {},
                               0, invariant, lanes);
      Value index = createIntConstant(b, loc, b.getI32Type(), i);
      result = LLVM::InsertElementOp::create(b, loc, result, scalar, index);
    }
    return result;
  }
  Value result = LLVM::PoisonOp::create(b, loc, llvmType);
  if (auto mat = dyn_cast<spirv::MatrixType>(type)) {
    uint64_t stride = getMatrixStride(mat, matrix);
    uint64_t elementSize = getByteSize(mat.getElementType());
    for (unsigned c = 0; c < mat.getNumColumns(); ++c) {
      Value column =
          matrix.rowMajor
              ? loadValue(b, loc, converter,
                          createByteOffset(b, loc, address, c * elementSize),
                          mat.getColumnType(), {}, stride, invariant)
              : loadValue(
                    b, loc, converter,
                    offsetWithin(b, loc, address, c * stride, type, lanes),
                    mat.getColumnType(), {}, 0, invariant, lanes);
      result = insertValue(b, loc, result, column, c);
    }
    return result;
  }
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    uint64_t stride = getArrayStride(array);
    for (unsigned i = 0; i < array.getNumElements(); ++i) {
      Value element =
          loadValue(b, loc, converter,
                    offsetWithin(b, loc, address, i * stride, type, lanes),
                    array.getElementType(), matrix, 0, invariant, lanes);
      result = insertValue(b, loc, result, element, i);
    }
    return result;
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    for (unsigned i = 0; i < structType.getNumElements(); ++i) {
      Value member =
          loadValue(b, loc, converter,
                    offsetWithin(b, loc, address,
                                 getMemberOffset(structType, i), type, lanes),
                    structType.getElementType(i),
                    getMemberMatrixLayout(structType, i), 0, invariant, lanes);
      result = insertValue(b, loc, result, member, i);
    }
    return result;
  }
  return nullptr;
}

/// Stores `value` (of SPIR-V type `type`) at `address` by the layout; with
/// `lanes`, in a record in blocks (kernel_abi.h).
void storeValue(OpBuilder &b, Location loc, Value value, Value address,
                Type type, MatrixLayout matrix, uint32_t vectorStride = 0,
                uint32_t lanes = 0) {
  if (lanes && type.isIntOrFloat() && getByteSize(type) == 8) {
    Type i32 = b.getI32Type();
    Value pair =
        LLVM::BitcastOp::create(b, loc, VectorType::get({2}, i32), value);
    for (int64_t w = 0; w < 2; ++w)
      LLVM::StoreOp::create(
          b, loc,
          LLVM::ExtractElementOp::create(b, loc, pair,
                                         createIntConstant(b, loc, i32, w)),
          offsetWithin(b, loc, address, 4 * w, type, lanes), 4);
    return;
  }
  if (type.isIntOrFloat() || isa<spirv::ImageType, spirv::PointerType>(type)) {
    LLVM::StoreOp::create(b, loc, value, address, getAlignment(type));
    return;
  }
  if (isa<spirv::SampledImageType>(type)) {
    LLVM::StoreOp::create(b, loc, extractValue(b, loc, value, 0), address, 8);
    LLVM::StoreOp::create(b, loc, extractValue(b, loc, value, 1),
                          createByteOffset(b, loc, address, 8), 8);
    return;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    if (element.isInteger(1)) {
      auto bytes = VectorType::get(vector.getShape(), b.getI8Type());
      LLVM::StoreOp::create(b, loc, LLVM::ZExtOp::create(b, loc, bytes, value),
                            address, 1);
      return;
    }
    if (!vectorStride && !lanes) {
      LLVM::StoreOp::create(b, loc, value, address, getAlignment(element));
      return;
    }
    for (int64_t i = 0; i < vector.getNumElements(); ++i) {
      Value index = createIntConstant(b, loc, b.getI32Type(), i);
      Value scalar = LLVM::ExtractElementOp::create(b, loc, value, index);
      if (lanes) {
        storeValue(b, loc, scalar,
                   offsetWithin(b, loc, address, i * getByteSize(element), type,
                                lanes),
                   element, {}, 0, lanes);
        continue;
      }
      LLVM::StoreOp::create(b, loc, scalar,
                            createByteOffset(b, loc, address, i * vectorStride),
                            getAlignment(element));
    }
    return;
  }
  if (auto mat = dyn_cast<spirv::MatrixType>(type)) {
    uint64_t stride = getMatrixStride(mat, matrix);
    uint64_t elementSize = getByteSize(mat.getElementType());
    for (unsigned c = 0; c < mat.getNumColumns(); ++c) {
      Value column = extractValue(b, loc, value, c);
      if (matrix.rowMajor)
        storeValue(b, loc, column,
                   createByteOffset(b, loc, address, c * elementSize),
                   mat.getColumnType(), {}, stride);
      else
        storeValue(b, loc, column,
                   offsetWithin(b, loc, address, c * stride, type, lanes),
                   mat.getColumnType(), {}, 0, lanes);
    }
    return;
  }
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    uint64_t stride = getArrayStride(array);
    for (unsigned i = 0; i < array.getNumElements(); ++i) {
      Value element = extractValue(b, loc, value, i);
      storeValue(b, loc, element,
                 offsetWithin(b, loc, address, i * stride, type, lanes),
                 array.getElementType(), matrix, 0, lanes);
    }
    return;
  }
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    for (unsigned i = 0; i < structType.getNumElements(); ++i) {
      Value member = extractValue(b, loc, value, i);
      storeValue(b, loc, member,
                 offsetWithin(b, loc, address, getMemberOffset(structType, i),
                              type, lanes),
                 structType.getElementType(i),
                 getMemberMatrixLayout(structType, i), 0, lanes);
    }
  }
}

Type getPointee(Value pointer) {
  return cast<spirv::PointerType>(pointer.getType()).getPointeeType();
}

std::optional<int64_t> getConstantIndex(Value original, Value converted) {
  if (auto cst = original.getDefiningOp<spirv::ConstantOp>())
    if (auto attr = dyn_cast<IntegerAttr>(cst.getValue()))
      return attr.getInt();
  if (auto cst = converted.getDefiningOp<LLVM::ConstantOp>())
    if (auto attr = dyn_cast<IntegerAttr>(cst.getValue()))
      return attr.getInt();
  return std::nullopt;
}

/// Whether a struct is a buffer block (Block or BufferBlock decorated).
bool isBlockStruct(Type type) {
  auto structType = dyn_cast<spirv::StructType>(type);
  if (!structType)
    return false;
  SmallVector<spirv::StructType::StructDecorationInfo> decorations;
  structType.getStructDecorations(decorations);
  return llvm::any_of(decorations, [](const auto &info) {
    return info.decoration == spirv::Decoration::Block ||
           info.decoration == spirv::Decoration::BufferBlock;
  });
}

/// Whether a pointer is to a descriptor array: its "address" is then the
/// binding-table entry of element 0 (see AddressOfPattern). An array of
/// buffer blocks, or of images and samplers; not an array inside a block.
bool isDescriptorArray(Type pointerType) {
  auto pointer = cast<spirv::PointerType>(pointerType);
  auto storage = pointer.getStorageClass();
  Type element;
  if (auto array = dyn_cast<spirv::ArrayType>(pointer.getPointeeType()))
    element = array.getElementType();
  else if (auto array =
               dyn_cast<spirv::RuntimeArrayType>(pointer.getPointeeType()))
    element = array.getElementType();
  else
    return false;
  if (storage == spirv::StorageClass::UniformConstant)
    return true;
  return (storage == spirv::StorageClass::StorageBuffer ||
          storage == spirv::StorageClass::Uniform) &&
         isBlockStruct(element);
}

/// Images live in the binding table itself: their "address" is the entry,
/// whose base is the runtime's image descriptor.
bool isUniformConstant(Type pointerType) {
  return cast<spirv::PointerType>(pointerType).getStorageClass() ==
         spirv::StorageClass::UniformConstant;
}

/// Loads a field of a binding-table entry.
Value loadBindingField(OpBuilder &b, Location loc, Value entry, Type type,
                       size_t offset) {
  return LLVM::LoadOp::create(b, loc, type,
                              createByteOffset(b, loc, entry, offset), 8);
}

/// Whether dynamic indices into fixed-size arrays behind this pointer are
/// clamped: in Function, Private and Workgroup storage an index past the
/// end would reach the host's stack or heap (a crash, not a shader value);
/// buffers are bounded as a whole by --robust instead.
bool clampsArrayIndices(Type pointerType) {
  auto storage = cast<spirv::PointerType>(pointerType).getStorageClass();
  return storage == spirv::StorageClass::Function ||
         storage == spirv::StorageClass::Private ||
         storage == spirv::StorageClass::Workgroup;
}

/// Adds the byte offset of `indices` into `type` (laid out by `layout`) to
/// `address`. Constant indices fold into one offset; with `clamp`, dynamic
/// indices into fixed-size arrays stay in [0, length - 1] (unsigned, so a
/// negative index clamps to the last element too).
FailureOr<Value> applyIndices(ConversionPatternRewriter &rewriter, Location loc,
                              Value address, Type type, PointerLayout layout,
                              ValueRange originals, ValueRange converted,
                              bool clamp = false, uint32_t lanes = 0) {
  bool wordAligned = getAlignment(type) >= 4;
  int64_t constOffset = 0;
  Value dynOffset;
  auto addDynamic = [&](Value index, uint64_t scale) {
    Value wide =
        castIntegerToWidthOf(rewriter, loc, index, rewriter.getI64Type(), true);
    Value factor =
        createIntConstant(rewriter, loc, rewriter.getI64Type(), scale);
    Value scaled = LLVM::MulOp::create(rewriter, loc, wide, factor);
    dynOffset =
        dynOffset
            ? LLVM::AddOp::create(rewriter, loc, dynOffset, scaled).getResult()
            : scaled;
  };
  for (auto [original, index] : llvm::zip(originals, converted)) {
    std::optional<int64_t> constant = getConstantIndex(original, index);
    uint64_t scale = 0;
    if (auto structType = dyn_cast<spirv::StructType>(type)) {
      if (!constant)
        return failure();
      constOffset += getMemberOffset(structType, *constant);
      layout.matrix = getMemberMatrixLayout(structType, *constant);
      type = structType.getElementType(*constant);
      continue;
    }
    if (auto array = dyn_cast<spirv::ArrayType>(type)) {
      scale = getArrayStride(array);
      type = array.getElementType();
      if (clamp && !constant && array.getNumElements() > 0) {
        Value wide = castIntegerToWidthOf(rewriter, loc, index,
                                          rewriter.getI64Type(), true);
        index = LLVM::UMinOp::create(
            rewriter, loc, wide,
            createIntConstant(rewriter, loc, rewriter.getI64Type(),
                              array.getNumElements() - 1));
      }
    } else if (auto array = dyn_cast<spirv::RuntimeArrayType>(type)) {
      scale = getArrayStride(array);
      type = array.getElementType();
    } else if (auto mat = dyn_cast<spirv::MatrixType>(type)) {
      uint64_t stride = getMatrixStride(mat, layout.matrix);
      if (layout.matrix.rowMajor) {
        scale = getByteSize(mat.getElementType());
        layout.vectorStride = stride;
      } else {
        scale = stride;
      }
      type = mat.getColumnType();
    } else if (auto vector = dyn_cast<VectorType>(type)) {
      scale = layout.vectorStride ? layout.vectorStride
                                  : getByteSize(vector.getElementType());
      layout.vectorStride = 0;
      type = vector.getElementType();
    } else {
      return failure();
    }
    if (constant)
      constOffset += *constant * static_cast<int64_t>(scale);
    else
      addDynamic(index, scale);
  }
  if (lanes && dynOffset)
    return offsetBlockedRecord(
        rewriter, loc, address,
        LLVM::AddOp::create(rewriter, loc, dynOffset,
                            createIntConstant(rewriter, loc,
                                              rewriter.getI64Type(),
                                              constOffset)),
        lanes, wordAligned);
  if (lanes)
    return offsetBlockedRecord(rewriter, loc, address, constOffset, lanes,
                               wordAligned);
  if (dynOffset)
    address = createByteOffset(rewriter, loc, address, dynOffset);
  return createByteOffset(rewriter, loc, address, constOffset);
}

/// The interface variable \p pointer is the address of, if it is one.
const InterfaceVariable *findVariable(Value pointer,
                                      const InterfaceLayout &layout) {
  auto addressOf = pointer.getDefiningOp<spirv::AddressOfOp>();
  if (!addressOf)
    return nullptr;
  auto it = layout.variables.find(addressOf.getVariable());
  return it == layout.variables.end() ? nullptr : &it->second;
}

/// The lanes of the blocked fragment record (InterfaceLayout::recordLanes)
/// that `pointer`, a SPIR-V pointer, points into; 0 if it is not into one.
/// A pointer whose variable is not known (a function's parameter) is into
/// a record if it is an Input or Output one.
uint32_t getRecordLanes(Value pointer, const InterfaceLayout &layout) {
  auto storage = cast<spirv::PointerType>(pointer.getType()).getStorageClass();
  if (!layout.recordLanes || (storage != spirv::StorageClass::Input &&
                              storage != spirv::StorageClass::Output))
    return 0;
  while (auto chain = pointer.getDefiningOp<spirv::AccessChainOp>())
    pointer = chain.getBasePtr();
  if (const InterfaceVariable *var = findVariable(pointer, layout))
    return var->inStageRecord ? layout.recordLanes : 0;
  return layout.recordLanes;
}

class AccessChainPattern : public OpConversionPattern<spirv::AccessChainOp> {
public:
  AccessChainPattern(const TypeConverter &converter, MLIRContext *context,
                     const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}
  LogicalResult
  matchAndRewrite(spirv::AccessChainOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = adaptor.getBasePtr();
    Type type = getPointee(op.getBasePtr());
    ValueRange originals = op.getIndices();
    ValueRange converted = adaptor.getIndices();
    if (isDescriptorArray(op.getBasePtr().getType()) && !originals.empty()) {
      // The first index picks the descriptor; its buffer is the new base.
      Value entry;
      const InterfaceVariable *var = findVariable(op.getBasePtr(), layout);
      auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
      if (var && func && func.getNumArguments() >= 1) {
        entry = getDescriptorEntry(rewriter, loc, func.getArgument(0), *var,
                                   converted.front());
      } else {
        // Through a function argument: element 0's entry, unclamped.
        Value wide = castIntegerToWidthOf(rewriter, loc, converted.front(),
                                          rewriter.getI64Type(), true);
        Value entrySize = createIntConstant(
            rewriter, loc, rewriter.getI64Type(), sizeof(spvb_binding));
        Value offset = LLVM::MulOp::create(rewriter, loc, wide, entrySize);
        entry = createByteOffset(rewriter, loc, address, offset);
      }
      address = isUniformConstant(op.getBasePtr().getType())
                    ? entry
                    : loadBindingField(rewriter, loc, entry,
                                       LLVM::LLVMPointerType::get(getContext()),
                                       offsetof(spvb_binding, base));
      type = isa<spirv::ArrayType>(type)
                 ? cast<spirv::ArrayType>(type).getElementType()
                 : cast<spirv::RuntimeArrayType>(type).getElementType();
      originals = originals.drop_front();
      converted = converted.drop_front();
    }
    FailureOr<Value> result = applyIndices(
        rewriter, loc, address, type, readPointerLayout(op), originals,
        converted, clampsArrayIndices(op.getBasePtr().getType()),
        getRecordLanes(op.getBasePtr(), layout));
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "unsupported index");
    rewriter.replaceOp(op, *result);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

/// OpPtrAccessChain: the Element operand steps over whole pointees (by the
/// pointer type's ArrayStride when it has one), then the indices as usual.
class PtrAccessChainPattern
    : public OpConversionPattern<spirv::PtrAccessChainOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::PtrAccessChainOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = getPointee(op.getBasePtr());
    uint64_t stride = llvm::alignTo(getByteSize(type), getAlignment(type));
    if (auto attr = op->getAttrOfType<IntegerAttr>("spvb.ptr_stride"))
      stride = attr.getInt();
    Value wide = castIntegerToWidthOf(rewriter, loc, adaptor.getElement(),
                                      rewriter.getI64Type(), true);
    Value factor =
        createIntConstant(rewriter, loc, rewriter.getI64Type(), stride);
    Value offset = LLVM::MulOp::create(rewriter, loc, wide, factor);
    Value address =
        createByteOffset(rewriter, loc, adaptor.getBasePtr(), offset);
    FailureOr<Value> result =
        applyIndices(rewriter, loc, address, type, readPointerLayout(op),
                     op.getIndices(), adaptor.getIndices());
    if (failed(result))
      return rewriter.notifyMatchFailure(op, "unsupported index");
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// Whether a Uniform-class pointer is into a BufferBlock (a storage buffer
/// of SPIR-V before 1.3): follow access chains back to the variable's type.
bool isBufferBlock(Value pointer) {
  while (auto chain = pointer.getDefiningOp<spirv::AccessChainOp>())
    pointer = chain.getBasePtr();
  Type type = cast<spirv::PointerType>(pointer.getType()).getPointeeType();
  if (auto array = dyn_cast<spirv::ArrayType>(type))
    type = array.getElementType();
  else if (auto array = dyn_cast<spirv::RuntimeArrayType>(type))
    type = array.getElementType();
  auto structType = dyn_cast<spirv::StructType>(type);
  if (!structType)
    return true; // Unknown provenance: assume writable.
  SmallVector<spirv::StructType::StructDecorationInfo> decorations;
  structType.getStructDecorations(decorations);
  return llvm::any_of(decorations, [](const auto &info) {
    return info.decoration == spirv::Decoration::BufferBlock;
  });
}

/// A separate sampler: the base of its binding-table entry is the runtime's
/// spvb_sampler descriptor.
class LoadSamplerPattern : public OpConversionPattern<LoadSamplerOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadSamplerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    rewriter.replaceOp(op, loadBindingField(rewriter, op.getLoc(),
                                            adaptor.getPointer(), ptr,
                                            offsetof(spvb_binding, base)));
    return success();
  }
};

class LoadPattern : public OpConversionPattern<spirv::LoadOp> {
public:
  LoadPattern(const TypeConverter &converter, MLIRContext *context,
              const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}
  LogicalResult
  matchAndRewrite(spirv::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isUniformConstant(op.getPtr().getType())) {
      // A combined image sampler pairs its image descriptor with the
      // image's own sampler.
      Location loc = op.getLoc();
      Type ptr = LLVM::LLVMPointerType::get(getContext());
      Value descriptor = loadBindingField(rewriter, loc, adaptor.getPtr(), ptr,
                                          offsetof(spvb_binding, base));
      if (isa<spirv::SampledImageType>(op.getType())) {
        Type pairType = getTypeConverter()->convertType(op.getType());
        Value sampler = LLVM::LoadOp::create(
            rewriter, loc, ptr,
            createByteOffset(rewriter, loc, descriptor,
                             offsetof(spvb_image, sampler)),
            8);
        Value pair = LLVM::PoisonOp::create(rewriter, loc, pairType);
        pair = insertValue(rewriter, loc, pair, descriptor, 0);
        descriptor = insertValue(rewriter, loc, pair, sampler, 1);
      }
      rewriter.replaceOp(op, descriptor);
      return success();
    }
    PointerLayout pointerLayout = readPointerLayout(op);
    // Push constants and uniform blocks do not change during a dispatch:
    // invariant loads let LLVM hoist them out of the workgroup loop.
    auto pointer = cast<spirv::PointerType>(op.getPtr().getType());
    bool readOnly =
        pointer.getStorageClass() == spirv::StorageClass::PushConstant ||
        (pointer.getStorageClass() == spirv::StorageClass::Uniform &&
         !isBufferBlock(op.getPtr()));
    uint64_t bytes = getByteSize(op.getType(), pointerLayout.matrix);
    GuardedAccess access =
        guardBufferAccess(rewriter, op, op.getPtr(), adaptor.getPtr(), bytes,
                          AccessKind::Read, layout);
    Value value = loadValue(rewriter, op.getLoc(), *getTypeConverter(),
                            access.address, op.getType(), pointerLayout.matrix,
                            pointerLayout.vectorStride, readOnly,
                            getRecordLanes(op.getPtr(), layout));
    if (!value)
      return rewriter.notifyMatchFailure(op, "unsupported load type");
    rewriter.replaceOp(op, value);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

class StorePattern : public OpConversionPattern<spirv::StoreOp> {
public:
  StorePattern(const TypeConverter &converter, MLIRContext *context,
               const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}
  LogicalResult
  matchAndRewrite(spirv::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PointerLayout pointerLayout = readPointerLayout(op);
    Type type = op.getValue().getType();
    uint64_t bytes = getByteSize(type, pointerLayout.matrix);
    auto store = [&] {
      GuardedAccess access =
          guardBufferAccess(rewriter, op, op.getPtr(), adaptor.getPtr(), bytes,
                            AccessKind::Write, layout);
      storeValue(rewriter, op.getLoc(), adaptor.getValue(), access.address,
                 type, pointerLayout.matrix, pointerLayout.vectorStride,
                 getRecordLanes(op.getPtr(), layout));
    };
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (layout.recordsPerWorkgroup && op->hasAttr(kOutputInitializerAttr) &&
        func && func.getNumArguments() >= 2) {
      // The patch's record is shared: its first invocation stores the
      // initializer, before the barrier the deserializer put after it.
      Location loc = op.getLoc();
      Value index = LLVM::LoadOp::create(
          rewriter, loc, rewriter.getI32Type(),
          createByteOffset(rewriter, loc, func.getArgument(1),
                           offsetof(spvb_invocation, local_index)),
          4);
      Value first = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::eq, index,
          createIntConstant(rewriter, loc, rewriter.getI32Type(), 0));
      emitConditionally(rewriter, loc, first, true, store);
    } else {
      store();
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

class CopyMemoryPattern : public OpConversionPattern<spirv::CopyMemoryOp> {
public:
  CopyMemoryPattern(const TypeConverter &converter, MLIRContext *context,
                    const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}
  LogicalResult
  matchAndRewrite(spirv::CopyMemoryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    PointerLayout target = readPointerLayout(op);
    PointerLayout source = readPointerLayout(op, "spvb.source");
    Type type = getPointee(op.getSource());
    Value value =
        loadValue(rewriter, op.getLoc(), *getTypeConverter(),
                  adaptor.getSource(), type, source.matrix, source.vectorStride,
                  false, getRecordLanes(op.getSource(), layout));
    if (!value)
      return rewriter.notifyMatchFailure(op, "unsupported copy type");
    storeValue(rewriter, op.getLoc(), value, adaptor.getTarget(), type,
               target.matrix, target.vectorStride,
               getRecordLanes(op.getTarget(), layout));
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

/// Function variables: byte buffers on the stack, laid out naturally.
/// A Function variable is a stack slot. Without an initializer it starts as
/// zero, as OpUndef is: reading it first is undefined, but must not be for
/// the host's compiler.
class VariablePattern : public OpConversionPattern<spirv::VariableOp> {
public:
  VariablePattern(const TypeConverter &converter, MLIRContext *context,
                  const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}
  LogicalResult
  matchAndRewrite(spirv::VariableOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type pointee = getPointee(op.getPointer());
    uint64_t size = std::max<uint64_t>(getByteSize(pointee), 1);
    Value count = createIntConstant(rewriter, loc, rewriter.getI64Type(), 1);
    auto bytes = LLVM::LLVMArrayType::get(rewriter.getI8Type(), size);
    Value alloca = LLVM::AllocaOp::create(
        rewriter, loc, LLVM::LLVMPointerType::get(getContext()), bytes, count,
        std::max<uint64_t>(getAlignment(pointee), 16));
    if (layout.debugInfo)
      if (auto name = op->getAttrOfType<StringAttr>(kDebugNameAttr);
          name && !name.getValue().empty()) {
        Operation *slot = alloca.getDefiningOp();
        slot->setAttr(kDebugNameAttr, name);
        slot->setAttr(kDebugTypeAttr,
                      getDebugType(pointee, op->getAttr(kDebugTypeNamesAttr)));
      }
    if (Value init = adaptor.getInitializer())
      storeValue(rewriter, loc, init, alloca, pointee, {});
    else
      LLVM::MemsetOp::create(
          rewriter, loc, alloca,
          createIntConstant(rewriter, loc, rewriter.getI8Type(),
                            layout.perturbUndefined ? 0xff : 0),
          createIntConstant(rewriter, loc, rewriter.getI64Type(), size),
          /*isVolatile=*/false);
    rewriter.replaceOp(op, alloca);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

/// Builtins derived from the subgroup size and id, computed into a stack slot
/// (the AddressOf sits in the function's entry block).
Value computeSubgroupBuiltin(OpBuilder &b, Location loc, spirv::BuiltIn builtin,
                             Value dispatch, Value invocation) {
  Type i32 = b.getI32Type();
  Type i128 = b.getIntegerType(128);
  auto loadI32 = [&](Value base, size_t offset) -> Value {
    return LLVM::LoadOp::create(b, loc, i32,
                                createByteOffset(b, loc, base, offset), 4);
  };
  Value size = loadI32(dispatch, offsetof(spvb_dispatch, subgroup_size));
  Value one32 = createIntConstant(b, loc, i32, 1);
  Value isZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, size,
                                      createIntConstant(b, loc, i32, 0));
  size = LLVM::SelectOp::create(b, loc, isZero, one32, size);
  Value result;
  Type slotType;
  if (builtin == spirv::BuiltIn::NumSubgroups) {
    Value x = loadI32(dispatch, offsetof(spvb_dispatch, workgroup_size));
    Value y = loadI32(dispatch, offsetof(spvb_dispatch, workgroup_size) + 4);
    Value z = loadI32(dispatch, offsetof(spvb_dispatch, workgroup_size) + 8);
    Value xy = LLVM::MulOp::create(b, loc, x, y);
    Value count = LLVM::MulOp::create(b, loc, xy, z);
    Value sizeMinusOne = LLVM::SubOp::create(b, loc, size, one32);
    Value rounded = LLVM::AddOp::create(b, loc, count, sizeMinusOne);
    result = LLVM::UDivOp::create(b, loc, rounded, size);
    slotType = i32;
  } else {
    // Masks over the invocations of the subgroup, as a uvec4 (128 bits).
    Value local =
        loadI32(invocation, offsetof(spvb_invocation, subgroup_local_id));
    Value local128 = LLVM::ZExtOp::create(b, loc, i128, local);
    Value size128 = LLVM::ZExtOp::create(b, loc, i128, size);
    Value one = createIntConstant(b, loc, i128, 1);
    Value eq = LLVM::ShlOp::create(b, loc, one, local128);
    Value lt = LLVM::SubOp::create(b, loc, eq, one);
    // Every invocation of the subgroup; 128 (the largest size) is all bits.
    Value size127 = LLVM::UMinOp::create(b, loc, size128,
                                         createIntConstant(b, loc, i128, 127));
    Value below = LLVM::SubOp::create(
        b, loc, LLVM::ShlOp::create(b, loc, one, size127), one);
    Value full = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, size128,
                                      createIntConstant(b, loc, i128, 128));
    Value all = LLVM::SelectOp::create(b, loc, full,
                                       createAllOnes(b, loc, i128), below);
    switch (builtin) {
    case spirv::BuiltIn::SubgroupEqMask:
      result = eq;
      break;
    case spirv::BuiltIn::SubgroupLtMask:
      result = lt;
      break;
    case spirv::BuiltIn::SubgroupLeMask:
      result = LLVM::OrOp::create(b, loc, lt, eq);
      break;
    case spirv::BuiltIn::SubgroupGeMask: {
      Value ge = LLVM::XOrOp::create(b, loc, lt, createAllOnes(b, loc, i128));
      result = LLVM::AndOp::create(b, loc, ge, all);
      break;
    }
    default: {
      Value le = LLVM::OrOp::create(b, loc, lt, eq);
      Value gt = LLVM::XOrOp::create(b, loc, le, createAllOnes(b, loc, i128));
      result = LLVM::AndOp::create(b, loc, gt, all);
      break;
    }
    }
    slotType = VectorType::get({4}, i32);
    result = LLVM::BitcastOp::create(b, loc, slotType, result);
  }
  Value count = createIntConstant(b, loc, b.getI64Type(), 1);
  Value slot = LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), slotType, count, 16);
  LLVM::StoreOp::create(b, loc, result, slot, 4);
  return slot;
}

/// Globals become addresses derived from the ABI blocks.
class AddressOfPattern : public OpConversionPattern<spirv::AddressOfOp> {
public:
  AddressOfPattern(const TypeConverter &converter, MLIRContext *context,
                   const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}

  LogicalResult
  matchAndRewrite(spirv::AddressOfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = layout.variables.find(op.getVariable());
    if (it == layout.variables.end())
      return op.emitError() << "variable '" << op.getVariable()
                            << "' is not available to compute shaders "
                               "(a user-defined Input or Output)";
    const InterfaceVariable &var = it->second;
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!func || func.getNumArguments() < 2)
      return rewriter.notifyMatchFailure(op, "not in an ABI function");
    Value dispatch = func.getArgument(0);
    Value invocation = func.getArgument(1);
    Location loc = op.getLoc();
    Type ptrType = LLVM::LLVMPointerType::get(getContext());
    // The dispatch block is invariant. The invocation block is not: the
    // workgroup entry fills its own copy with memcpy, and GVN forwards an
    // invariant load past such writes to the uninitialized alloca.
    auto loadPointer = [&](Value base, int64_t offset) -> Value {
      return LLVM::LoadOp::create(rewriter, loc, ptrType,
                                  createByteOffset(rewriter, loc, base, offset),
                                  8, false, false,
                                  /*isInvariant=*/base != invocation);
    };
    // With debug information: an op of its own (the address may be an
    // argument) carries the variable to it.
    auto markForDebugger = [&](Value address) -> Value {
      if (!layout.debugInfo || !var.debugType)
        return address;
      address =
          LLVM::GEPOp::create(rewriter, loc, ptrType, rewriter.getI8Type(),
                              address, llvm::ArrayRef<LLVM::GEPArg>{0});
      address.getDefiningOp()->setAttr(kDebugNameAttr,
                                       rewriter.getStringAttr(var.debugName));
      address.getDefiningOp()->setAttr(kDebugTypeAttr, var.debugType);
      if (var.inStageRecord && layout.recordLanes)
        address.getDefiningOp()->setAttr(
            kDebugRecordLanesAttr,
            rewriter.getI32IntegerAttr(layout.recordLanes));
      return address;
    };
    Value address;
    if (var.inStageRecord) {
      bool output = var.storageClass == spirv::StorageClass::Output;
      rewriter.replaceOp(op, markForDebugger(getStageRecordAddress(
                                 rewriter, loc, dispatch, invocation, output,
                                 layout, var.offset)));
      return success();
    }
    switch (var.storageClass) {
    case spirv::StorageClass::StorageBuffer:
    case spirv::StorageClass::Uniform:
    case spirv::StorageClass::UniformConstant: {
      if (isDescriptorArray(op.getPointer().getType()) ||
          isUniformConstant(op.getPointer().getType())) {
        address = getDescriptorEntry(rewriter, loc, dispatch, var, Value());
        break;
      }
      Value table = loadPointer(dispatch, offsetof(spvb_dispatch, bindings));
      address = loadPointer(table, var.slot * sizeof(spvb_binding) +
                                       offsetof(spvb_binding, base));
      break;
    }
    case spirv::StorageClass::PushConstant:
      address = loadPointer(dispatch, offsetof(spvb_dispatch, push_constants));
      break;
    case spirv::StorageClass::Workgroup:
      address = createByteOffset(
          rewriter, loc,
          loadPointer(invocation, offsetof(spvb_invocation, shared_memory)),
          var.offset);
      break;
    case spirv::StorageClass::Private:
      address = createByteOffset(
          rewriter, loc,
          loadPointer(invocation, offsetof(spvb_invocation, private_memory)),
          var.offset);
      break;
    case spirv::StorageClass::Input:
      switch (*var.builtin) {
      case spirv::BuiltIn::GlobalInvocationId:
        address = createByteOffset(rewriter, loc, invocation,
                                   offsetof(spvb_invocation, global_id));
        break;
      case spirv::BuiltIn::LocalInvocationId:
        address = createByteOffset(rewriter, loc, invocation,
                                   offsetof(spvb_invocation, local_id));
        break;
      case spirv::BuiltIn::LocalInvocationIndex:
        address = createByteOffset(rewriter, loc, invocation,
                                   offsetof(spvb_invocation, local_index));
        break;
      case spirv::BuiltIn::WorkgroupId:
        address = createByteOffset(rewriter, loc, invocation,
                                   offsetof(spvb_invocation, workgroup_id));
        break;
      case spirv::BuiltIn::NumWorkgroups:
        address = createByteOffset(rewriter, loc, dispatch,
                                   offsetof(spvb_dispatch, workgroup_count));
        break;
      case spirv::BuiltIn::WorkgroupSize:
        address = createByteOffset(rewriter, loc, dispatch,
                                   offsetof(spvb_dispatch, workgroup_size));
        break;
      case spirv::BuiltIn::SubgroupSize:
        address = createByteOffset(rewriter, loc, dispatch,
                                   offsetof(spvb_dispatch, subgroup_size));
        break;
      case spirv::BuiltIn::SubgroupLocalInvocationId:
        address =
            createByteOffset(rewriter, loc, invocation,
                             offsetof(spvb_invocation, subgroup_local_id));
        break;
      case spirv::BuiltIn::SubgroupId:
        address = createByteOffset(rewriter, loc, invocation,
                                   offsetof(spvb_invocation, subgroup_id));
        break;
      case spirv::BuiltIn::NumSubgroups:
      case spirv::BuiltIn::SubgroupEqMask:
      case spirv::BuiltIn::SubgroupGeMask:
      case spirv::BuiltIn::SubgroupGtMask:
      case spirv::BuiltIn::SubgroupLeMask:
      case spirv::BuiltIn::SubgroupLtMask:
        address = computeSubgroupBuiltin(rewriter, loc, *var.builtin, dispatch,
                                         invocation);
        break;
      default:
        return rewriter.notifyMatchFailure(op, "unsupported builtin");
      }
      break;
    default:
      return rewriter.notifyMatchFailure(op, "unsupported storage class");
    }
    rewriter.replaceOp(op, markForDebugger(address));
    return success();
  }

private:
  const InterfaceLayout &layout;
};

/// OpArrayLength: (binding size - member offset) / stride, from the binding
/// table. The structure operand must be a buffer variable.
class ArrayLengthPattern : public OpConversionPattern<ArrayLengthOp> {
public:
  ArrayLengthPattern(const TypeConverter &converter, MLIRContext *context,
                     const InterfaceLayout &layout)
      : OpConversionPattern(converter, context), layout(layout) {}

  LogicalResult
  matchAndRewrite(ArrayLengthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The structure is a buffer variable or an element of a descriptor
    // array of them.
    Value structure = op.getStructure();
    Value descriptorIndex;
    if (auto chain = structure.getDefiningOp<spirv::AccessChainOp>()) {
      if (chain.getIndices().size() != 1 ||
          !isDescriptorArray(chain.getBasePtr().getType()))
        return rewriter.notifyMatchFailure(op, "structure is not a buffer");
      descriptorIndex = chain.getIndices().front();
      structure = chain.getBasePtr();
    }
    auto addressOf = structure.getDefiningOp<spirv::AddressOfOp>();
    if (!addressOf)
      return rewriter.notifyMatchFailure(op, "structure is not a variable");
    auto it = layout.variables.find(addressOf.getVariable());
    if (it == layout.variables.end())
      return rewriter.notifyMatchFailure(op, "unknown variable");
    auto structType = cast<spirv::StructType>(getPointee(op.getStructure()));
    (void)adaptor;
    unsigned member = op.getMember();
    uint64_t offset = getMemberOffset(structType, member);
    uint64_t stride = getArrayStride(structType.getElementType(member));
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    Value entry = getDescriptorEntry(
        rewriter, loc, func.getArgument(0), it->second,
        descriptorIndex ? rewriter.getRemappedValue(descriptorIndex) : Value());
    Value size = loadBindingField(rewriter, loc, entry, i64,
                                  offsetof(spvb_binding, size));
    // A buffer smaller than the array's offset has length 0.
    Value offsetValue = createIntConstant(rewriter, loc, i64, offset);
    Value clamped = LLVM::UMaxOp::create(rewriter, loc, size, offsetValue);
    Value bytes = LLVM::SubOp::create(rewriter, loc, clamped, offsetValue);
    Value count = LLVM::UDivOp::create(
        rewriter, loc, bytes, createIntConstant(rewriter, loc, i64, stride));
    rewriter.replaceOpWithNewOp<LLVM::TruncOp>(op, rewriter.getI32Type(),
                                               count);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

/// Undefined values are zero: never host undefined behaviour.
class UndefPattern : public OpConversionPattern<spirv::UndefOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::UndefOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::ZeroOp>(op, type);
    return success();
  }
};

} // namespace

void spvb::populateMemoryPatterns(const TypeConverter &converter,
                                  const InterfaceLayout &layout,
                                  RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<PtrAccessChainPattern, UndefPattern, LoadSamplerPattern,
               ErasePattern<spirv::GlobalVariableOp>>(converter, context,
                                                      kOverrideBenefit);
  patterns.add<LoadPattern, StorePattern, CopyMemoryPattern>(converter, context,
                                                             layout);
  patterns.add<AccessChainPattern, AddressOfPattern, ArrayLengthPattern,
               VariablePattern>(converter, context, layout);
}
