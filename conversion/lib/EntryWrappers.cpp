//===- EntryWrappers.cpp - The ABI's per-workgroup entries ----------------===//
//
// For kernels without barriers, spvb_NAME_workgroup loops over the local ids
// (constant workgroup size, so LLVM can unroll and vectorize once the
// invocation body is inlined), fills the invocation block and calls
// spvb_NAME_invocation. Kernels with barriers get theirs from the LLVM-level
// WorkgroupLoops pass, which needs the optimized invocation body.
//
//===----------------------------------------------------------------------===//
#include "EntryWrappers.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

static Value fieldAddress(OpBuilder &b, Location loc, Value base,
                          size_t offset) {
  return LLVM::GEPOp::create(
      b, loc, base.getType(), b.getI8Type(), base,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
}

static void buildWorkgroupEntry(OpBuilder &b, Location loc,
                                const EntryPointLayout &entry) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i32 = b.getI32Type();
  auto func =
      func::FuncOp::create(b, loc, abi::getWorkgroupEntrySymbol(entry.name),
                           b.getFunctionType({ptr, ptr}, {}));
  Block *body = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);
  Value dispatch = body->getArgument(0);
  // Work on a private copy of the invocation block: once the invocation is
  // inlined, LLVM promotes its fields to registers and can vectorize the
  // loop over local ids (stores through the caller's pointer would stay).
  Value invocation = LLVM::AllocaOp::create(
      b, loc, ptr, b.getI8Type(),
      LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                               b.getI64IntegerAttr(sizeof(spvb_invocation))),
      alignof(spvb_invocation));
  LLVM::MemcpyOp::create(
      b, loc, invocation, body->getArgument(1),
      LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                               b.getI64IntegerAttr(sizeof(spvb_invocation))),
      /*isVolatile=*/false);
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v));
  };
  Value groupId[3];
  for (int d = 0; d < 3; ++d)
    groupId[d] = LLVM::LoadOp::create(
        b, loc, i32,
        fieldAddress(b, loc, invocation,
                     offsetof(spvb_invocation, workgroup_id) + 4 * d),
        4);
  const uint32_t *size = entry.workgroupSize;
  // A subgroup size of 0 would divide by zero: treat it as 1.
  Value rawSubgroupSize = LLVM::LoadOp::create(
      b, loc, i32,
      fieldAddress(b, loc, dispatch, offsetof(spvb_dispatch, subgroup_size)),
      4);
  Value subgroupSize = arith::MaxUIOp::create(b, loc, rawSubgroupSize, c32(1));
  auto loop = [&](int64_t upper, auto bodyFn) {
    scf::ForOp::create(
        b, loc, c32(0), c32(upper), c32(1), ValueRange{},
        [&](OpBuilder &nested, Location l, Value iv, ValueRange) {
          bodyFn(iv);
          scf::YieldOp::create(nested, l);
        });
  };
  loop(size[2], [&](Value z) {
    loop(size[1], [&](Value y) {
      loop(size[0], [&](Value x) {
        Value local[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          LLVM::StoreOp::create(
              b, loc, local[d],
              fieldAddress(b, loc, invocation,
                           offsetof(spvb_invocation, local_id) + 4 * d),
              4);
          Value global = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, groupId[d], c32(size[d])),
              local[d]);
          LLVM::StoreOp::create(
              b, loc, global,
              fieldAddress(b, loc, invocation,
                           offsetof(spvb_invocation, global_id) + 4 * d),
              4);
        }
        // One statement per op: argument evaluation order would make the
        // op order depend on the host compiler.
        Value width = c32(size[0]);
        Value height = c32(size[1]);
        Value row = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, z, height), y);
        Value index = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, row, width), x);
        LLVM::StoreOp::create(
            b, loc, index,
            fieldAddress(b, loc, invocation,
                         offsetof(spvb_invocation, local_index)),
            4);
        Value subgroupId = arith::DivUIOp::create(b, loc, index, subgroupSize);
        Value subgroupLocal =
            arith::RemUIOp::create(b, loc, index, subgroupSize);
        LLVM::StoreOp::create(
            b, loc, subgroupId,
            fieldAddress(b, loc, invocation,
                         offsetof(spvb_invocation, subgroup_id)),
            4);
        LLVM::StoreOp::create(
            b, loc, subgroupLocal,
            fieldAddress(b, loc, invocation,
                         offsetof(spvb_invocation, subgroup_local_id)),
            4);
        LLVM::CallOp::create(b, loc, TypeRange{},
                             abi::getInvocationEntrySymbol(entry.name),
                             ValueRange{dispatch, invocation});
      });
    });
  });
  func::ReturnOp::create(b, loc);
}

/// Invocations can run one after the other only if they never meet.
static bool hasLoopEntry(const EntryPointLayout &entry) {
  return !entry.usesBarriers && !entry.usesSubgroupOps;
}

static void buildKernelInfo(OpBuilder &b, Location loc,
                            const EntryPointLayout &entry,
                            const InterfaceLayout &layout) {
  Type i32 = b.getI32Type();
  uint32_t fields[] = {SPVB_ABI_VERSION,
                       entry.workgroupSize[0],
                       entry.workgroupSize[1],
                       entry.workgroupSize[2],
                       static_cast<uint32_t>(layout.sharedMemorySize),
                       static_cast<uint32_t>(layout.privateMemorySize),
                       static_cast<uint32_t>(layout.bindings.size()),
                       entry.usesBarriers ? 1u : 0u,
                       hasLoopEntry(entry)
                           ? uint32_t(SPVB_WORKGROUP_ENTRY_LOOP)
                           : uint32_t(SPVB_WORKGROUP_ENTRY_NONE),
                       /*workgroup_scratch_size=*/0,
                       static_cast<uint32_t>(entry.model),
                       static_cast<uint32_t>(layout.stageInputSize),
                       static_cast<uint32_t>(layout.stageOutputSize),
                       static_cast<uint32_t>(layout.stageVariables.size()),
                       /*simd_lanes=*/1,
                       /*subgroup_size=*/0,
                       static_cast<uint32_t>(layout.privateAtomics.size())};
  static_assert(sizeof(fields) == sizeof(spvb_kernel_info),
                "kernel info fields follow kernel_abi.h");
  auto type = LLVM::LLVMArrayType::get(i32, std::size(fields));
  SmallVector<int32_t> values(std::begin(fields), std::end(fields));
  LLVM::GlobalOp::create(
      b, loc, type, /*isConstant=*/true, LLVM::Linkage::External,
      abi::getKernelInfoSymbol(entry.name), b.getI32TensorAttr(values));
  // An empty table still gets one (unused) row: zero-length globals are not
  // portable.
  auto buildTable = [&](StringRef symbol, SmallVector<int32_t> table,
                        size_t rowSize) {
    if (table.empty())
      table.assign(rowSize, 0);
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(i32, table.size()),
                           /*isConstant=*/true, LLVM::Linkage::External, symbol,
                           b.getI32TensorAttr(table));
  };
  if (entry.model == spirv::ExecutionModel::GLCompute) {
    static_assert(sizeof(spvb_private_atomics) == 3 * sizeof(uint32_t),
                  "private atomics are three 32-bit fields");
    SmallVector<int32_t> table;
    for (const spvb_private_atomics &buffer : layout.privateAtomics)
      table.append({static_cast<int32_t>(buffer.slot),
                    static_cast<int32_t>(buffer.operation),
                    static_cast<int32_t>(buffer.bytes)});
    buildTable(abi::getPrivateAtomicsSymbol(entry.name), std::move(table), 3);
    return;
  }
  // spvb_NAME_stage_variables: the table, field after field.
  static_assert(sizeof(spvb_stage_variable) == 9 * sizeof(uint32_t),
                "stage variables are nine 32-bit fields");
  SmallVector<int32_t> table;
  for (const spvb_stage_variable &var : layout.stageVariables)
    table.append(
        {static_cast<int32_t>(var.location),
         static_cast<int32_t>(var.component), static_cast<int32_t>(var.builtin),
         static_cast<int32_t>(var.offset), static_cast<int32_t>(var.kind),
         static_cast<int32_t>(var.bytes), static_cast<int32_t>(var.count),
         static_cast<int32_t>(var.flags), static_cast<int32_t>(var.vertex)});
  buildTable(abi::getStageVariablesSymbol(entry.name), std::move(table), 9);
}

LogicalResult spvb::buildEntryWrappers(ModuleOp module,
                                       const InterfaceLayout &layout) {
  MLIRContext *context = module.getContext();
  OpBuilder b(context);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = module.getLoc();
  for (const EntryPointLayout &entry : layout.entryPoints) {
    if (hasLoopEntry(entry))
      buildWorkgroupEntry(b, loc, entry);
    buildKernelInfo(b, loc, entry, layout);
  }

  LLVMTypeConverter converter(context);
  RewritePatternSet patterns(context);
  populateSCFToControlFlowConversionPatterns(patterns);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
  populateFuncToLLVMConversionPatterns(converter, patterns);
  LLVMConversionTarget target(*context);
  target.addLegalOp<ModuleOp>();
  return applyFullConversion(module, target, std::move(patterns));
}
