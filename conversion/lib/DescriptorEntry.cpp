//===- DescriptorEntry.cpp - A descriptor's binding-table entry -----------===//
#include "DescriptorEntry.h"

#include "PatternUtils.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

std::optional<VariableRoot> spvb::findVariableRoot(Value pointer) {
  spirv::AccessChainOp outermost;
  while (auto chain = pointer.getDefiningOp<spirv::AccessChainOp>()) {
    outermost = chain;
    pointer = chain.getBasePtr();
  }
  auto variable = pointer.getDefiningOp<spirv::AddressOfOp>();
  if (!variable)
    return std::nullopt;
  VariableRoot root{variable, Value()};
  auto type = cast<spirv::PointerType>(variable.getType());
  bool descriptors =
      type.getStorageClass() == spirv::StorageClass::StorageBuffer ||
      type.getStorageClass() == spirv::StorageClass::Uniform ||
      type.getStorageClass() == spirv::StorageClass::UniformConstant;
  if (descriptors &&
      isa<spirv::ArrayType, spirv::RuntimeArrayType>(type.getPointeeType())) {
    if (!outermost || outermost.getIndices().empty())
      return std::nullopt;
    root.descriptorIndex = outermost.getIndices().front();
  }
  return root;
}

std::string spvb::describeBuffer(llvm::StringRef name,
                                 const InterfaceVariable &var,
                                 const InterfaceLayout &layout) {
  std::string text = "buffer '" + name.str() + "'";
  if (var.slot < layout.bindings.size())
    text += " (set " + std::to_string(layout.bindings[var.slot].set) +
            ", binding " + std::to_string(layout.bindings[var.slot].binding) +
            ")";
  return text;
}

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
