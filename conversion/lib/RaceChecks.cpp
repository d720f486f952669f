//===- RaceChecks.cpp - Data-race reports for memory accesses -------------===//
#include "RaceChecks.h"

#include "DescriptorEntry.h"
#include "PatternUtils.h"
#include "PointerLayout.h"
#include "spvbridge/conversion/Layout.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

namespace {

/// Whether other invocations may see memory of \p pointer's storage class:
/// Function, Private, push-constant and builtin memory is per invocation or
/// read-only, nothing to race on.
bool isShared(Value pointer) {
  auto type = dyn_cast<spirv::PointerType>(pointer.getType());
  if (!type)
    return false;
  switch (type.getStorageClass()) {
  case spirv::StorageClass::Workgroup:
  case spirv::StorageClass::StorageBuffer:
  case spirv::StorageClass::Uniform:
  case spirv::StorageClass::PhysicalStorageBuffer:
    return true;
  default:
    return false;
  }
}

/// Puts a spvb.record_access before \p op.
void recordBefore(Operation *op, Value pointer, uint64_t bytes, bool write,
                  bool atomic) {
  if (!isShared(pointer))
    return;
  OpBuilder builder(op);
  auto record = RecordAccessOp::create(builder, op->getLoc(), pointer,
                                       builder.getI64IntegerAttr(bytes));
  record.setWrite(write);
  record.setAtomic(atomic);
}

/// Emits the call of spvb_rt_record_access for the access \p op records at
/// \p address.
void emitRecordCall(ConversionPatternRewriter &rewriter, RecordAccessOp op,
                    Value address, const InterfaceLayout &layout) {
  Value original = op.getPointer();
  bool workgroup =
      cast<spirv::PointerType>(original.getType()).getStorageClass() ==
      spirv::StorageClass::Workgroup;
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!func || func.getNumArguments() < 2)
    return;
  Location loc = op->getLoc();
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  Type i32 = rewriter.getI32Type();
  Type i64 = rewriter.getI64Type();
  Value dispatch = func.getArgument(0);
  Value invocation = func.getArgument(1);

  Value base;
  std::string object =
      workgroup ? "Workgroup memory" : "physical storage buffer memory";
  if (std::optional<VariableRoot> root = findVariableRoot(original)) {
    auto it = layout.variables.find(root->variable.getVariable());
    if (it != layout.variables.end()) {
      const InterfaceVariable &var = it->second;
      if (workgroup) {
        Value shared = LLVM::LoadOp::create(
            rewriter, loc, ptr,
            createByteOffset(rewriter, loc, invocation,
                             offsetof(spvb_invocation, shared_memory)),
            8);
        base = createByteOffset(rewriter, loc, shared, var.offset);
        object =
            "workgroup variable '" + root->variable.getVariable().str() + "'";
      } else {
        Value entry = getDescriptorEntry(
            rewriter, loc, dispatch, var,
            root->descriptorIndex
                ? rewriter.getRemappedValue(root->descriptorIndex)
                : Value());
        base =
            LLVM::LoadOp::create(rewriter, loc, ptr,
                                 createByteOffset(rewriter, loc, entry,
                                                  offsetof(spvb_binding, base)),
                                 8, false, false, /*isInvariant=*/true);
        object = describeBuffer(root->variable.getVariable(), var, layout);
      }
    }
  }
  if (!base)
    base = LLVM::ZeroOp::create(rewriter, loc, ptr);

  uint32_t flags = (op.getWrite() ? SPVB_ACCESS_WRITE : 0) |
                   (op.getAtomic() ? SPVB_ACCESS_ATOMIC : 0) |
                   (workgroup ? SPVB_ACCESS_WORKGROUP : 0);
  declareRuntimeFunction(rewriter, op, abi::kRecordAccess,
                         LLVM::LLVMFunctionType::get(
                             LLVM::LLVMVoidType::get(rewriter.getContext()),
                             {ptr, ptr, ptr, i64, i32, ptr, ptr, ptr}));
  LLVM::CallOp::create(
      rewriter, loc, TypeRange{}, abi::kRecordAccess,
      ValueRange{
          dispatch, invocation, address,
          createIntConstant(rewriter, loc, i64, op.getBytes()),
          createIntConstant(rewriter, loc, i32, flags), base,
          createStringConstant(rewriter, op, "spvb.race.site",
                               formatLocation(loc)),
          createStringConstant(rewriter, op, "spvb.race.object", object)});
}

class RecordAccessPattern : public OpConversionPattern<RecordAccessOp> {
public:
  RecordAccessPattern(const TypeConverter &converter, MLIRContext *context,
                      const InterfaceLayout &layout)
      : OpConversionPattern(converter, context), layout(layout) {}
  LogicalResult
  matchAndRewrite(RecordAccessOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitRecordCall(rewriter, op, adaptor.getPointer(), layout);
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

} // namespace

void spvb::insertRaceChecks(ModuleOp module) {
  module.walk([](Operation *op) {
    if (auto load = dyn_cast<spirv::LoadOp>(op))
      return recordBefore(
          op, load.getPtr(),
          getByteSize(load.getType(), readPointerLayout(op).matrix),
          /*write=*/false, /*atomic=*/false);
    if (auto store = dyn_cast<spirv::StoreOp>(op))
      return recordBefore(
          op, store.getPtr(),
          getByteSize(store.getValue().getType(), readPointerLayout(op).matrix),
          /*write=*/true, /*atomic=*/false);
    if (auto load = dyn_cast<AtomicLoadOp>(op))
      return recordBefore(op, load.getPointer(), getByteSize(load.getType()),
                          /*write=*/false, /*atomic=*/true);
    if (auto store = dyn_cast<AtomicStoreOp>(op))
      return recordBefore(op, store.getPointer(),
                          getByteSize(store.getValue().getType()),
                          /*write=*/true, /*atomic=*/true);
    if (auto minMax = dyn_cast<AtomicFMinMaxOp>(op))
      return recordBefore(op, minMax.getPointer(),
                          getByteSize(minMax.getValue().getType()),
                          /*write=*/true, /*atomic=*/true);
    // The read-modify-write atomics the lowering knows: writes.
    if (isa<spirv::AtomicExchangeOp, spirv::AtomicIAddOp, spirv::AtomicISubOp,
            spirv::AtomicSMinOp, spirv::AtomicSMaxOp, spirv::AtomicUMinOp,
            spirv::AtomicUMaxOp, spirv::AtomicAndOp, spirv::AtomicOrOp,
            spirv::AtomicXorOp, spirv::EXTAtomicFAddOp,
            spirv::AtomicIIncrementOp, spirv::AtomicIDecrementOp,
            spirv::AtomicCompareExchangeOp>(op))
      return recordBefore(op, op->getOperand(0),
                          getByteSize(op->getResult(0).getType()),
                          /*write=*/true, /*atomic=*/true);
  });
}

void spvb::populateRaceCheckPatterns(const TypeConverter &converter,
                                     const InterfaceLayout &layout,
                                     RewritePatternSet &patterns) {
  patterns.add<RecordAccessPattern>(converter, patterns.getContext(), layout);
}
