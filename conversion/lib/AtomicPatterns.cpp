//===- AtomicPatterns.cpp - Atomics and barriers as host atomics ----------===//
//
// SPIR-V atomics become LLVM atomics: at system scope on buffers and images,
// which host threads share; on workgroup memory at single-thread scope, as
// one host thread runs a workgroup's invocations one at a time (fibers,
// region loops and lanes alike), and SingleThreadAtomicsPass makes them
// plain accesses once the invocations are in lanes. So do the atomics on a
// buffer each thread changes in a copy of its own (PrivateAtomics.h). Memory
// semantics choose the ordering; relaxed atomics are monotonic. Control
// barriers call into the runtime, which switches fibers.
//
//===----------------------------------------------------------------------===//
#include "DescriptorEntry.h"
#include "PatternUtils.h"
#include "RobustAccess.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
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

/// An atomic on a buffer under robust access: out of bounds it works on a
/// sink and returns zero (RobustAccess.h).
template <typename Op> class AtomicPattern : public OpConversionPattern<Op> {
public:
  AtomicPattern(const TypeConverter &converter, MLIRContext *context,
                const InterfaceLayout &layout)
      : OpConversionPattern<Op>(converter, context, kOverrideBenefit),
        layout(layout) {}

protected:
  /// "singlethread" for an atomic on workgroup memory or on a buffer each
  /// thread changes in a copy of its own (the file comment).
  StringRef getSyncScope(Value spirvPointer) const {
    auto type = dyn_cast<spirv::PointerType>(spirvPointer.getType());
    if (type && type.getStorageClass() == spirv::StorageClass::Workgroup)
      return "singlethread";
    if (std::optional<VariableRoot> root = findVariableRoot(spirvPointer))
      if (layout.privateAtomicVariables.contains(root->variable.getVariable()))
        return "singlethread";
    return {};
  }
  GuardedAccess guard(ConversionPatternRewriter &rewriter, Op op, Value pointer,
                      Type valueType) const {
    uint64_t bytes = valueType.getIntOrFloatBitWidth() / 8;
    return guardBufferAccess(rewriter, op, op.getPointer(), pointer, bytes,
                             AccessKind::Write, layout);
  }
  /// Replaces `op` by `result`, or zero where the access was out of bounds.
  void replace(ConversionPatternRewriter &rewriter, Op op, Value result,
               const GuardedAccess &access) const {
    if (access.inBounds)
      result = LLVM::SelectOp::create(
          rewriter, op.getLoc(), access.inBounds, result,
          createConstant(rewriter, op.getLoc(), result.getType(), 0));
    rewriter.replaceOp(op, result);
  }

  const InterfaceLayout &layout;
};

template <typename Op, LLVM::AtomicBinOp Bin>
class AtomicRMWPattern : public AtomicPattern<Op> {
public:
  using AtomicPattern<Op>::AtomicPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ordering = getOrdering(static_cast<uint32_t>(op.getSemantics()));
    GuardedAccess access = this->guard(rewriter, op, adaptor.getPointer(),
                                       adaptor.getValue().getType());
    Value result = LLVM::AtomicRMWOp::create(
        rewriter, op.getLoc(), Bin, access.address, adaptor.getValue(),
        ordering, this->getSyncScope(op.getPointer()));
    this->replace(rewriter, op, result, access);
    return success();
  }
};

template <typename Op, LLVM::AtomicBinOp Bin>
class AtomicIncDecPattern : public AtomicPattern<Op> {
public:
  using AtomicPattern<Op>::AtomicPattern;
  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto ordering = getOrdering(static_cast<uint32_t>(op.getSemantics()));
    Type type = this->getTypeConverter()->convertType(op.getType());
    Value one = LLVM::ConstantOp::create(rewriter, op.getLoc(), type,
                                         rewriter.getIntegerAttr(type, 1));
    GuardedAccess access =
        this->guard(rewriter, op, adaptor.getPointer(), type);
    Value result = LLVM::AtomicRMWOp::create(
        rewriter, op.getLoc(), Bin, access.address, one, ordering,
        this->getSyncScope(op.getPointer()));
    this->replace(rewriter, op, result, access);
    return success();
  }
};

class AtomicCompareExchangePattern
    : public AtomicPattern<spirv::AtomicCompareExchangeOp> {
public:
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(spirv::AtomicCompareExchangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto success = getOrdering(static_cast<uint32_t>(op.getEqualSemantics()));
    auto failure =
        forLoad(getOrdering(static_cast<uint32_t>(op.getUnequalSemantics())));
    if (success == LLVM::AtomicOrdering::monotonic ||
        success == LLVM::AtomicOrdering::release)
      failure = LLVM::AtomicOrdering::monotonic;
    GuardedAccess access =
        guard(rewriter, op, adaptor.getPointer(), adaptor.getValue().getType());
    auto cmpxchg = LLVM::AtomicCmpXchgOp::create(
        rewriter, op.getLoc(), access.address, adaptor.getComparator(),
        adaptor.getValue(), success, failure, getSyncScope(op.getPointer()));
    replace(rewriter, op, extractValue(rewriter, op.getLoc(), cmpxchg, 0),
            access);
    return mlir::success();
  }
};

/// LLVM's fmin/fmax are minnum/maxnum: a NaN operand gives the other, as
/// SPV_EXT_shader_atomic_float_min_max asks.
class AtomicFMinMaxPattern : public AtomicPattern<AtomicFMinMaxOp> {
public:
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(AtomicFMinMaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    GuardedAccess access =
        guard(rewriter, op, adaptor.getPointer(), adaptor.getValue().getType());
    Value result = LLVM::AtomicRMWOp::create(
        rewriter, op.getLoc(),
        op.getIsMax() ? LLVM::AtomicBinOp::fmax : LLVM::AtomicBinOp::fmin,
        access.address, adaptor.getValue(), getOrdering(op.getSemantics()),
        getSyncScope(op.getPointer()));
    replace(rewriter, op, result, access);
    return success();
  }
};

class AtomicLoadPattern : public AtomicPattern<AtomicLoadOp> {
public:
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(AtomicLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    unsigned size = type.getIntOrFloatBitWidth() / 8;
    // Out of bounds it reads the zero constant: no select needed.
    GuardedAccess access =
        guardBufferAccess(rewriter, op, op.getPointer(), adaptor.getPointer(),
                          size, AccessKind::Read, layout);
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(
        op, type, access.address, size, false, false, false, false,
        forLoad(getOrdering(op.getSemantics())));
    return success();
  }
};

class AtomicStorePattern : public AtomicPattern<AtomicStoreOp> {
public:
  using AtomicPattern::AtomicPattern;
  LogicalResult
  matchAndRewrite(AtomicStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = adaptor.getValue().getType();
    unsigned size = type.getIntOrFloatBitWidth() / 8;
    GuardedAccess access = guard(rewriter, op, adaptor.getPointer(), type);
    rewriter.replaceOpWithNewOp<LLVM::StoreOp>(
        op, adaptor.getValue(), access.address, size, false, false, false,
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
    StringRef name = abi::kControlBarrier;
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
                                            const InterfaceLayout &layout,
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
               AtomicCompareExchangePattern, AtomicFMinMaxPattern,
               AtomicLoadPattern, AtomicStorePattern>(
      converter, patterns.getContext(), layout);
  patterns.add<MemoryBarrierPattern, ControlBarrierPattern>(
      converter, patterns.getContext(), kOverrideBenefit);
}
