//===- DescriptorEntry.cpp - A descriptor's binding-table entry -----------===//
#include "DescriptorEntry.h"

#include "PatternUtils.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

Value spvb::getDescriptorEntry(OpBuilder &b, Location loc, Value dispatch,
                               const InterfaceVariable &var, Value index) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i64 = b.getI64Type();
  auto loadInvariant = [&](Type type, Value base, int64_t offset) -> Value {
    return LLVM::LoadOp::create(b, loc, type,
                                createByteOffset(b, loc, base, offset), 8,
                                false, false, /*isInvariant=*/true);
  };
  Value table = loadInvariant(ptr, dispatch, offsetof(spvb_dispatch, bindings));
  Value entry =
      createByteOffset(b, loc, table, var.slot * sizeof(spvb_binding));
  Value last;
  if (var.descriptorCount == 0) {
    // A runtime-sized array: the slot describes the array's own table.
    Value slot = entry;
    entry = loadInvariant(ptr, slot, offsetof(spvb_binding, base));
    if (index) {
      Value size = loadInvariant(i64, slot, offsetof(spvb_binding, size));
      Value count = LLVM::UDivOp::create(
          b, loc, size, createIntConstant(b, loc, i64, sizeof(spvb_binding)));
      last =
          LLVM::SubOp::create(b, loc, count, createIntConstant(b, loc, i64, 1));
    }
  } else if (index) {
    last = createIntConstant(b, loc, i64, var.descriptorCount - 1);
  }
  if (!index)
    return entry;
  Value wide = castIntegerToWidthOf(b, loc, index, i64, /*isSigned=*/true);
  Value clamped = LLVM::UMinOp::create(b, loc, wide, last);
  Value offset = LLVM::MulOp::create(
      b, loc, clamped, createIntConstant(b, loc, i64, sizeof(spvb_binding)));
  return createByteOffset(b, loc, entry, offset);
}
