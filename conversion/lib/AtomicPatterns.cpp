//===- AtomicPatterns.cpp - Atomics and barriers as host atomics ----------===//
//
// SPIR-V atomics become LLVM atomics at system scope: host threads share
// storage buffers, and workgroup memory may be touched by several host
// threads too. Memory semantics choose the ordering; relaxed atomics are
// monotonic. Control barriers call into the runtime, which switches fibers.
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace spvb;

namespace {

LLVM::AtomicOrdering getOrdering(uint32_t semantics) {
  using S = spirv::MemorySemantics;
  auto has = [&](S bit) { return semantics & static_cast<uint32_t>(bit); };
  if (has(S::SequentiallyConsistent))
    return LLVM::AtomicOrdering::seq_cst;
  if (has(S::AcquireRelease) || (has(S::Acquire) && has(S::Release)))
    return LLVM::AtomicOrdering::acq_rel;
  if (has(S::Acquire))
    return LLVM::AtomicOrdering::acquire;
  if (has(S::Release))
    return LLVM::AtomicOrdering::release;
  return LLVM::AtomicOrdering::monotonic;
}

/// Orderings a load may have: no release part.
LLVM::AtomicOrdering forLoad(LLVM::AtomicOrdering o) {
  if (o == LLVM::AtomicOrdering::release)
    return LLVM::AtomicOrdering::monotonic;
  if (o == LLVM::AtomicOrdering::acq_rel)
    return LLVM::AtomicOrdering::acquire;
  return o;
}
LLVM::AtomicOrdering forStore(LLVM::AtomicOrdering o) {
  if (o == LLVM::AtomicOrdering::acquire)
    return LLVM::AtomicOrdering::monotonic;
  if (o == LLVM::AtomicOrdering::acq_rel)
    return LLVM::AtomicOrdering::release;
  return o;
}

template <typename Op, LLVM::AtomicBinOp Bin>
class AtomicRMWPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ordering = getOrdering(static_cast<uint32_t>(op.getSemantics()));
    rewriter.replaceOpWithNewOp<LLVM::AtomicRMWOp>(
        op, Bin, adaptor.getPointer(), adaptor.getValue(), ordering);
    return success();
  }
};

template <typename Op, LLVM::AtomicBinOp Bin>
class AtomicIncDecPattern : public OpConversionPattern<Op> {
public:
  using OpConversionPattern<Op>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ordering = getOrdering(static_cast<uint32_t>(op.getSemantics()));
    Type type = this->getTypeConverter()->convertType(op.getType());
    Value one = LLVM::ConstantOp::create(rewriter, op.getLoc(), type,
                                         rewriter.getIntegerAttr(type, 1));
    rewriter.replaceOpWithNewOp<LLVM::AtomicRMWOp>(
        op, Bin, adaptor.getPointer(), one, ordering);
    return success();
  }
};

class AtomicCompareExchangePattern
    : public OpConversionPattern<spirv::AtomicCompareExchangeOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::AtomicCompareExchangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto success = getOrdering(static_cast<uint32_t>(op.getEqualSemantics()));
    auto failure =
        forLoad(getOrdering(static_cast<uint32_t>(op.getUnequalSemantics())));
    if (success == LLVM::AtomicOrdering::monotonic ||
        success == LLVM::AtomicOrdering::release)
      failure = LLVM::AtomicOrdering::monotonic;
    auto cmpxchg = LLVM::AtomicCmpXchgOp::create(
        rewriter, op.getLoc(), adaptor.getPointer(), adaptor.getComparator(),
        adaptor.getValue(), success, failure);
    rewriter.replaceOp(op, extractValue(rewriter, op.getLoc(), cmpxchg, 0));
    return mlir::success();
  }
};

class AtomicLoadPattern : public OpConversionPattern<AtomicLoadOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    unsigned size = type.getIntOrFloatBitWidth() / 8;
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(
        op, type, adaptor.getPointer(), size, false, false, false, false,
        forLoad(getOrdering(op.getSemantics())));
    return success();
  }
};

class AtomicStorePattern : public OpConversionPattern<AtomicStoreOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AtomicStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    unsigned size = adaptor.getValue().getType().getIntOrFloatBitWidth() / 8;
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(
        op, adaptor.getValue(), adaptor.getPointer(), size, false, false, false,
        forStore(getOrdering(op.getSemantics())));
    return success();
  }
};

class MemoryBarrierPattern
    : public OpConversionPattern<spirv::MemoryBarrierOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::MemoryBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    uint32_t semantics = static_cast<uint32_t>(op.getMemorySemantics());
    if (semantics & 0x1E) // Acquire | Release | AcquireRelease | SeqCst
      LLVM::FenceOp::create(rewriter, op.getLoc(),
                            LLVM::AtomicOrdering::seq_cst);
    rewriter.eraseOp(op);
    return success();
  }
};

/// spvb_rt_control_barrier(invocation, execution scope, memory scope,
/// semantics); the runtime orders memory at the rendezvous.
class ControlBarrierPattern
    : public OpConversionPattern<spirv::ControlBarrierOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(spirv::ControlBarrierOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    StringRef name = "spvb_rt_control_barrier";
    Type i32 = rewriter.getI32Type();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    declareRuntimeFunction(
        rewriter, func, name,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                    {ptr, i32, i32, i32}));
    Location loc = op.getLoc();
    auto constant = [&](uint32_t v) -> Value {
      return LLVM::ConstantOp::create(rewriter, loc, i32,
                                      rewriter.getI32IntegerAttr(v));
    };
    LLVM::CallOp::create(
        rewriter, loc, TypeRange{}, name,
        ValueRange{func.getArgument(1),
                   constant(static_cast<uint32_t>(op.getExecutionScope())),
                   constant(static_cast<uint32_t>(op.getMemoryScope())),
                   constant(static_cast<uint32_t>(op.getMemorySemantics()))});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void spvb::populateAtomicAndBarrierPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns) {
  using B = LLVM::AtomicBinOp;
  patterns.add<AtomicRMWPattern<spirv::AtomicExchangeOp, B::xchg>,
               AtomicRMWPattern<spirv::AtomicIAddOp, B::add>,
               AtomicRMWPattern<spirv::AtomicISubOp, B::sub>,
               AtomicRMWPattern<spirv::AtomicSMinOp, B::min>,
               AtomicRMWPattern<spirv::AtomicSMaxOp, B::max>,
               AtomicRMWPattern<spirv::AtomicUMinOp, B::umin>,
               AtomicRMWPattern<spirv::AtomicUMaxOp, B::umax>,
               AtomicRMWPattern<spirv::AtomicAndOp, B::_and>,
               AtomicRMWPattern<spirv::AtomicOrOp, B::_or>,
               AtomicRMWPattern<spirv::AtomicXorOp, B::_xor>,
               AtomicRMWPattern<spirv::EXTAtomicFAddOp, B::fadd>,
               AtomicIncDecPattern<spirv::AtomicIIncrementOp, B::add>,
               AtomicIncDecPattern<spirv::AtomicIDecrementOp, B::sub>,
               AtomicCompareExchangePattern, AtomicLoadPattern,
               AtomicStorePattern, MemoryBarrierPattern, ControlBarrierPattern>(
      converter, patterns.getContext(), kOverrideBenefit);
}
