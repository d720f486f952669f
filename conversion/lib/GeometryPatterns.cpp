//===- GeometryPatterns.cpp - OpEmitVertex and OpEndPrimitive -------------===//
//
// A geometry shader emits into room the runtime gives each invocation
// (spvb_geometry_emit in kernel_abi.h) with plain loads, stores and a copy,
// not a runtime call: the invocations stay in SIMD lanes, where a call
// would run lane by lane, and the runtime need not copy the vertices again.
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <cstddef>

using namespace mlir;
using namespace spvb;

namespace {

/// What both ops read of the invocation's emitter.
struct Emitter {
  Value emit;
  /// The invocation's index among the launch's (global_id[0]), as i64.
  Value index;
  /// &counts[index] and its value, the vertices emitted so far.
  Value countAddress;
  Value count;
  Value maxVertices;
};

/// Loads a field of the dispatch block or of the emitter: both are invariant
/// for the launch.
Value loadInvariant(OpBuilder &b, Location loc, Value base, int64_t offset,
                    Type type) {
  bool pointer = isa<LLVM::LLVMPointerType>(type);
  return LLVM::LoadOp::create(b, loc, type,
                              createByteOffset(b, loc, base, offset),
                              pointer ? 8 : 4, false, false,
                              /*isInvariant=*/true);
}

/// Builds `body` where the launch has an emitter; a launch without one (a
/// kernel run on its own, --debug-pixel's rerun) drops what it emits.
void withEmitter(ConversionPatternRewriter &rewriter, Operation *op,
                 llvm::function_ref<void(const Emitter &)> body) {
  Location loc = op->getLoc();
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  Value dispatch = func.getArgument(0);
  Value invocation = func.getArgument(1);
  Type ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
  Type i32 = rewriter.getI32Type();
  Type i64 = rewriter.getI64Type();
  Value emit = loadInvariant(rewriter, loc, dispatch,
                             offsetof(spvb_dispatch, geometry_emit), ptr);
  Value none =
      LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, emit,
                           LLVM::ZeroOp::create(rewriter, loc, ptr));
  emitConditionally(rewriter, loc, none, false, [&] {
    Emitter emitter;
    emitter.emit = emit;
    Value id = LLVM::LoadOp::create(
        rewriter, loc, i32,
        createByteOffset(rewriter, loc, invocation,
                         offsetof(spvb_invocation, global_id)),
        4);
    emitter.index = LLVM::ZExtOp::create(rewriter, loc, i64, id);
    Value counts = loadInvariant(rewriter, loc, emit,
                                 offsetof(spvb_geometry_emit, counts), ptr);
    emitter.countAddress = LLVM::GEPOp::create(rewriter, loc, ptr, i32, counts,
                                               ValueRange{emitter.index});
    emitter.count =
        LLVM::LoadOp::create(rewriter, loc, i32, emitter.countAddress, 4);
    emitter.maxVertices = loadInvariant(
        rewriter, loc, emit, offsetof(spvb_geometry_emit, max_vertices), i32);
    body(emitter);
  });
}

/// index * max_vertices + vertex, as i64: a vertex's slot.
Value getSlot(OpBuilder &b, Location loc, const Emitter &emitter,
              Value vertex) {
  Type i64 = b.getI64Type();
  Value max = LLVM::ZExtOp::create(b, loc, i64, emitter.maxVertices);
  return LLVM::AddOp::create(b, loc,
                             LLVM::MulOp::create(b, loc, emitter.index, max),
                             LLVM::ZExtOp::create(b, loc, i64, vertex));
}

/// OpEmitVertex: unless the invocation has emitted OutputVertices
/// vertices already, its output record is copied to its next slot. The
/// output variables keep their values (the specification leaves them
/// undefined after the emit; GPUs keep them, and shaders rely on it).
class EmitVertexPattern : public OpConversionPattern<spirv::EmitVertexOp> {
public:
  EmitVertexPattern(const TypeConverter &converter, MLIRContext *context,
                    const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}

  LogicalResult
  matchAndRewrite(spirv::EmitVertexOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    Type i64 = rewriter.getI64Type();
    withEmitter(rewriter, op, [&](const Emitter &emitter) {
      Value full = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge,
                                        emitter.count, emitter.maxVertices);
      emitConditionally(rewriter, loc, full, false, [&] {
        Value vertices =
            loadInvariant(rewriter, loc, emitter.emit,
                          offsetof(spvb_geometry_emit, vertices), ptr);
        Value size = LLVM::ConstantOp::create(
            rewriter, loc, i64,
            rewriter.getI64IntegerAttr(layout.stageOutputSize));
        Value to = createByteOffset(
            rewriter, loc, vertices,
            LLVM::MulOp::create(rewriter, loc,
                                getSlot(rewriter, loc, emitter, emitter.count),
                                size));
        Value from = getStageRecordAddress(rewriter, loc, func.getArgument(0),
                                           func.getArgument(1),
                                           /*output=*/true, layout, 0);
        LLVM::MemcpyOp::create(rewriter, loc, to, from, size, false);
        Value one = LLVM::ConstantOp::create(rewriter, loc, i32,
                                             rewriter.getI32IntegerAttr(1));
        LLVM::StoreOp::create(
            rewriter, loc,
            LLVM::AddOp::create(rewriter, loc, emitter.count, one),
            emitter.countAddress, 4);
      });
    });
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

/// OpEndPrimitive: marks the last vertex emitted as the end of its strip.
class EndPrimitivePattern : public OpConversionPattern<spirv::EndPrimitiveOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(spirv::EndPrimitiveOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i8 = rewriter.getI8Type();
    Type i32 = rewriter.getI32Type();
    withEmitter(rewriter, op, [&](const Emitter &emitter) {
      Value zero = LLVM::ConstantOp::create(rewriter, loc, i32,
                                            rewriter.getI32IntegerAttr(0));
      Value empty = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                         emitter.count, zero);
      emitConditionally(rewriter, loc, empty, false, [&] {
        Value ends =
            loadInvariant(rewriter, loc, emitter.emit,
                          offsetof(spvb_geometry_emit, strip_ends), ptr);
        Value last = LLVM::SubOp::create(
            rewriter, loc, emitter.count,
            LLVM::ConstantOp::create(rewriter, loc, i32,
                                     rewriter.getI32IntegerAttr(1)));
        LLVM::StoreOp::create(
            rewriter, loc,
            LLVM::ConstantOp::create(rewriter, loc, i8,
                                     rewriter.getI8IntegerAttr(1)),
            createByteOffset(rewriter, loc, ends,
                             getSlot(rewriter, loc, emitter, last)),
            1);
      });
    });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void spvb::populateGeometryPatterns(const TypeConverter &converter,
                                    const InterfaceLayout &layout,
                                    RewritePatternSet &patterns) {
  patterns.add<EmitVertexPattern>(converter, patterns.getContext(), layout);
  patterns.add<EndPrimitivePattern>(converter, patterns.getContext(),
                                    kOverrideBenefit);
}
