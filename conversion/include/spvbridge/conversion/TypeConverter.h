//===- TypeConverter.h - SPIR-V value types to LLVM -------------*- C++ -*-===//
//
// The one type converter every pattern shares. It converts *value* types:
// pointers become opaque `!llvm.ptr`, and the bytes behind them are addressed
// through Layout.h, so a struct's LLVM type never decides an address.
//   spirv.array<N x T>   -> !llvm.array<N x T'>
//   spirv.rtarray<T>     -> !llvm.array<0 x T'>
//   spirv.struct<(...)>  -> !llvm.struct<(...)> (natural, values only)
//   spirv matrix C x V   -> !llvm.array<C x V'>   (columns)
//   spirv.ptr<T, SC>     -> !llvm.ptr
//   image                -> !llvm.ptr (the runtime's image descriptor)
//   sampled image        -> !llvm.struct<(ptr, ptr)> (image, sampler)
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_TYPECONVERTER_H
#define SPVBRIDGE_CONVERSION_TYPECONVERTER_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"

namespace spvb {

class SpirvToLLVMTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit SpirvToLLVMTypeConverter(mlir::MLIRContext *context);
};

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_TYPECONVERTER_H
