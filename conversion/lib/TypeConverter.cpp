//===- TypeConverter.cpp - SPIR-V value types to LLVM ---------------------===//
#include "spvbridge/conversion/TypeConverter.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"

using namespace mlir;
using namespace spvb;

SpirvToLLVMTypeConverter::SpirvToLLVMTypeConverter(MLIRContext *context)
    : LLVMTypeConverter(context) {
  addConversion([this](spirv::ArrayType type) -> std::optional<Type> {
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    return LLVM::LLVMArrayType::get(element, type.getNumElements());
  });
  addConversion([this](spirv::RuntimeArrayType type) -> std::optional<Type> {
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    return LLVM::LLVMArrayType::get(element, 0);
  });
  addConversion([this](spirv::MatrixType type) -> std::optional<Type> {
    Type column = convertType(type.getColumnType());
    if (!column)
      return std::nullopt;
    return LLVM::LLVMArrayType::get(column, type.getNumColumns());
  });
  addConversion([this](spirv::StructType type) -> std::optional<Type> {
    SmallVector<Type> members;
    for (Type member : type.getElementTypes()) {
      Type converted = convertType(member);
      if (!converted)
        return std::nullopt;
      members.push_back(converted);
    }
    return LLVM::LLVMStructType::getLiteral(type.getContext(), members);
  });
  // Images and samplers are pointers to the runtime's descriptors; a sampled
  // image is an (image, sampler) pair.
  addConversion([](spirv::ImageType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  addConversion([](SamplerType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  addConversion([](spirv::SampledImageType type) -> Type {
    Type ptr = LLVM::LLVMPointerType::get(type.getContext());
    return LLVM::LLVMStructType::getLiteral(type.getContext(), {ptr, ptr});
  });
  addConversion([](spirv::PointerType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
}
