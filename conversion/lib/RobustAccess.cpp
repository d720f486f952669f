//===- RobustAccess.cpp - robustBufferAccess2 for buffer accesses ---------===//
#include "RobustAccess.h"

#include "DescriptorEntry.h"
#include "PatternUtils.h"
#include "spvbridge/conversion/Lowering.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/LocationFormat.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "llvm/Support/MathExtras.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

/// The buffer behind a pointer.
static std::optional<VariableRoot> findBufferRoot(Value pointer) {
  std::optional<VariableRoot> root = findVariableRoot(pointer);
  if (!root)
    return std::nullopt;
  auto storage =
      cast<spirv::PointerType>(root->variable.getType()).getStorageClass();
  if (storage != spirv::StorageClass::StorageBuffer &&
      storage != spirv::StorageClass::Uniform)
    return std::nullopt;
  return root;
}

/// A zero-filled constant (reads) or a scratch sink (writes) of at least
/// `bytes` bytes, one per power-of-two size.
static Value getSpareMemory(OpBuilder &b, Operation *op, uint64_t bytes,
                            AccessKind kind) {
  uint64_t size = llvm::PowerOf2Ceil(std::max<uint64_t>(bytes, 16));
  std::string name = (kind == AccessKind::Read ? abi::kRobustZeroPrefix
                                               : abi::kRobustSinkPrefix)
                         .str() +
                     std::to_string(size);
  auto module = op->getParentOfType<ModuleOp>();
  Location loc = op->getLoc();
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), size);
    LLVM::GlobalOp::create(
        b, loc, type, /*isConstant=*/kind == AccessKind::Read,
        LLVM::Linkage::Internal, name, b.getStringAttr(std::string(size, '\0')),
        /*alignment=*/64);
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
}

/// "FILE:LINE:COL: out-of-bounds write of 4 bytes to buffer 'Y' (set 0,
/// binding 1)".
static std::string describeAccess(Operation *op, spirv::AddressOfOp variable,
                                  const InterfaceVariable &interface,
                                  const InterfaceLayout &layout, uint64_t bytes,
                                  AccessKind kind) {
  std::string where = formatLocation(op->getLoc());
  std::string text = (where.empty() ? "" : where + ": ") + "out-of-bounds " +
                     (kind == AccessKind::Read ? "read of " : "write of ") +
                     std::to_string(bytes) + " bytes " +
                     (kind == AccessKind::Read ? "from " : "to ") +
                     describeBuffer(variable.getVariable(), interface, layout);
  return text;
}

/// if (!inBounds) spvb_rt_fault(dispatch, invocation, OUT_OF_BOUNDS, offset,
/// size, message): the access itself goes on as with robust access.
static void emitBoundsReport(ConversionPatternRewriter &rewriter, Operation *op,
                             LLVM::LLVMFuncOp func, Value inBounds,
                             Value offset, Value size,
                             const std::string &message) {
  Location loc = op->getLoc();
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  Type i32 = rewriter.getI32Type();
  Type i64 = rewriter.getI64Type();
  declareRuntimeFunction(rewriter, op, abi::kFault,
                         LLVM::LLVMFunctionType::get(
                             LLVM::LLVMVoidType::get(rewriter.getContext()),
                             {ptr, ptr, i32, i64, i64, ptr}));
  emitConditionally(rewriter, loc, inBounds, /*when=*/false, [&] {
    Value text =
        createStringConstant(rewriter, op, "spvb.bounds.message", message);
    LLVM::CallOp::create(rewriter, loc, TypeRange{}, abi::kFault,
                         ValueRange{func.getArgument(0), func.getArgument(1),
                                    createIntConstant(rewriter, loc, i32,
                                                      SPVB_FAULT_OUT_OF_BOUNDS),
                                    offset, size, text});
  });
}

GuardedAccess spvb::guardBufferAccess(ConversionPatternRewriter &rewriter,
                                      Operation *op, Value original,
                                      Value address, uint64_t bytes,
                                      AccessKind kind,
                                      const InterfaceLayout &layout) {
  if (!layout.robustBufferAccess)
    return {address, Value()};
  std::optional<VariableRoot> root = findBufferRoot(original);
  if (!root)
    return {address, Value()};
  auto variable = layout.variables.find(root->variable.getVariable());
  if (variable == layout.variables.end())
    return {address, Value()};
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!func)
    return {address, Value()};

  Location loc = op->getLoc();
  Type i64 = rewriter.getI64Type();
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  // The binding table does not change during a dispatch: invariant loads
  // let LLVM hoist the bounds out of loops.
  auto loadInvariant = [&](Type type, Value base, int64_t offset) -> Value {
    return LLVM::LoadOp::create(rewriter, loc, type,
                                createByteOffset(rewriter, loc, base, offset),
                                8, false, false, /*isInvariant=*/true);
  };
  Value entry = getDescriptorEntry(
      rewriter, loc, func.getArgument(0), variable->second,
      root->descriptorIndex ? rewriter.getRemappedValue(root->descriptorIndex)
                            : Value());
  Value base = loadInvariant(ptr, entry, offsetof(spvb_binding, base));
  Value size = loadInvariant(i64, entry, offsetof(spvb_binding, size));
  // offset <= size && bytes <= size - offset, in unsigned arithmetic: an
  // address below the base wraps to a huge offset.
  Value offset = LLVM::SubOp::create(
      rewriter, loc, LLVM::PtrToIntOp::create(rewriter, loc, i64, address),
      LLVM::PtrToIntOp::create(rewriter, loc, i64, base));
  Value startsInside = LLVM::ICmpOp::create(
      rewriter, loc, LLVM::ICmpPredicate::ule, offset, size);
  Value fits =
      LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ule,
                           createIntConstant(rewriter, loc, i64, bytes),
                           LLVM::SubOp::create(rewriter, loc, size, offset));
  Value inBounds = LLVM::AndOp::create(rewriter, loc, startsInside, fits);
  if (layout.boundsReports)
    emitBoundsReport(rewriter, op, func, inBounds, offset, size,
                     describeAccess(op, root->variable, variable->second,
                                    layout, bytes, kind));
  Value spare = getSpareMemory(rewriter, op, bytes, kind);
  return {LLVM::SelectOp::create(rewriter, loc, inBounds, address, spare),
          inBounds};
}
