//===- RaceChecks.cpp - Data-race reports for memory accesses -------------===//
#include "RaceChecks.h"

#include "DescriptorEntry.h"
#include "PatternUtils.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/LocationFormat.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

void spvb::recordAccessForRaceCheck(ConversionPatternRewriter &rewriter,
                                    Operation *op, Value original,
                                    Value address, uint64_t bytes,
                                    AccessKind kind, bool atomic,
                                    const InterfaceLayout &layout) {
  if (!layout.raceReports)
    return;
  auto storage = cast<spirv::PointerType>(original.getType()).getStorageClass();
  bool workgroup = storage == spirv::StorageClass::Workgroup;
  // Function, Private, push-constant and builtin memory is per invocation
  // or read-only: nothing to race on.
  if (!workgroup && storage != spirv::StorageClass::StorageBuffer &&
      storage != spirv::StorageClass::Uniform &&
      storage != spirv::StorageClass::PhysicalStorageBuffer)
    return;
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

  uint32_t flags = (kind == AccessKind::Write ? SPVB_ACCESS_WRITE : 0) |
                   (atomic ? SPVB_ACCESS_ATOMIC : 0) |
                   (workgroup ? SPVB_ACCESS_WORKGROUP : 0);
  declareRuntimeFunction(rewriter, op, abi::kRecordAccess,
                         LLVM::LLVMFunctionType::get(
                             LLVM::LLVMVoidType::get(rewriter.getContext()),
                             {ptr, ptr, ptr, i64, i32, ptr, ptr, ptr}));
  LLVM::CallOp::create(
      rewriter, loc, TypeRange{}, abi::kRecordAccess,
      ValueRange{
          dispatch, invocation, address,
          createIntConstant(rewriter, loc, i64, bytes),
          createIntConstant(rewriter, loc, i32, flags), base,
          createStringConstant(rewriter, op, "spvb.race.site",
                               formatLocation(loc)),
          createStringConstant(rewriter, op, "spvb.race.object", object)});
}
