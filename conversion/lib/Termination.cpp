//===- Termination.cpp - OpKill, OpTerminateInvocation and demotion -------===//
//
// A fragment invocation that terminates writes nothing: the instruction
// sets SPVB_FRAGMENT_TERMINATED in its output record and returns, and every
// call of a function that may terminate is followed by a check of that bit
// that returns too, so the whole invocation ends. (A longjmp would also end
// it, but would keep LLVM from inlining and vectorizing the invocation.)
//
// OpDemoteToHelperInvocation sets SPVB_FRAGMENT_DEMOTED (its outputs are
// dropped) and the input record's helper flag, which the helper guards
// (HelperInvocations.h) and OpIsHelperInvocationEXT read, and goes on.
//
//===----------------------------------------------------------------------===//
#include "Termination.h"

#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

using namespace mlir;
using namespace spvb;

static bool hasFragmentEntry(const InterfaceLayout &layout) {
  return llvm::any_of(layout.entryPoints, [](const EntryPointLayout &entry) {
    return entry.model == spirv::ExecutionModel::Fragment;
  });
}

/// The function's return with a zero result.
static void createReturn(OpBuilder &b, Location loc, LLVM::LLVMFuncOp func) {
  Type result = func.getFunctionType().getReturnType();
  if (isa<LLVM::LLVMVoidType>(result))
    LLVM::ReturnOp::create(b, loc, ValueRange{});
  else
    LLVM::ReturnOp::create(b, loc,
                           LLVM::ZeroOp::create(b, loc, result).getRes());
}

/// ORs `bit` into the fragment output record's status word.
static void setStatusBit(OpBuilder &b, Location loc, LLVM::LLVMFuncOp func,
                         const InterfaceLayout &layout, uint32_t bit) {
  Value status =
      getStageRecordAddress(b, loc, func.getArgument(0), func.getArgument(1),
                            /*output=*/true, layout, 0);
  Type i32 = b.getI32Type();
  Value old = LLVM::LoadOp::create(b, loc, i32, status, 4);
  Value mask = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(bit));
  LLVM::StoreOp::create(b, loc, LLVM::OrOp::create(b, loc, old, mask), status,
                        4);
}

/// The input record's helper flag (word 0).
static Value getHelperFlag(OpBuilder &b, Location loc, LLVM::LLVMFuncOp func,
                           const InterfaceLayout &layout) {
  return getStageRecordAddress(b, loc, func.getArgument(0), func.getArgument(1),
                               /*output=*/false, layout, 0);
}

namespace {

class KillPattern : public OpConversionPattern<spirv::KillOp> {
public:
  KillPattern(const TypeConverter &converter, MLIRContext *context,
              const InterfaceLayout &layout)
      : OpConversionPattern(converter, context, kOverrideBenefit),
        layout(layout) {}

  LogicalResult
  matchAndRewrite(spirv::KillOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Location loc = op.getLoc();
    if (hasFragmentEntry(layout) && func.getNumArguments() >= 2)
      setStatusBit(rewriter, loc, func, layout, SPVB_FRAGMENT_TERMINATED);
    createReturn(rewriter, loc, func);
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

class DemotePattern : public OpConversionPattern<DemoteOp> {
public:
  DemotePattern(const TypeConverter &converter, MLIRContext *context,
                const InterfaceLayout &layout)
      : OpConversionPattern(converter, context), layout(layout) {}

  LogicalResult
  matchAndRewrite(DemoteOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Location loc = op.getLoc();
    // Outside a fragment shader (a module with several entry points) it is
    // never reached.
    if (hasFragmentEntry(layout) && func.getNumArguments() >= 2) {
      setStatusBit(rewriter, loc, func, layout, SPVB_FRAGMENT_DEMOTED);
      Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                           rewriter.getI32IntegerAttr(1));
      LLVM::StoreOp::create(rewriter, loc, one,
                            getHelperFlag(rewriter, loc, func, layout), 4);
    }
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

class IsHelperPattern : public OpConversionPattern<IsHelperOp> {
public:
  IsHelperPattern(const TypeConverter &converter, MLIRContext *context,
                  const InterfaceLayout &layout)
      : OpConversionPattern(converter, context), layout(layout) {}

  LogicalResult
  matchAndRewrite(IsHelperOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Location loc = op.getLoc();
    if (!hasFragmentEntry(layout) || func.getNumArguments() < 2) {
      rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(
          op, rewriter.getI1Type(), rewriter.getBoolAttr(false));
      return success();
    }
    Type i32 = rewriter.getI32Type();
    Value flag = LLVM::LoadOp::create(
        rewriter, loc, i32, getHelperFlag(rewriter, loc, func, layout), 4);
    Value zero = LLVM::ConstantOp::create(rewriter, loc, i32,
                                          rewriter.getI32IntegerAttr(0));
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::ne, flag,
                                              zero);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

} // namespace

void spvb::populateTerminationPatterns(const TypeConverter &converter,
                                       const InterfaceLayout &layout,
                                       RewritePatternSet &patterns) {
  patterns.add<KillPattern, DemotePattern, IsHelperPattern>(
      converter, patterns.getContext(), layout);
}

void spvb::findTerminatingFunctions(ModuleOp module, InterfaceLayout &layout) {
  if (!hasFragmentEntry(layout))
    return;
  llvm::StringSet<> terminating;
  for (auto func : module.getOps<spirv::FuncOp>())
    if (func.walk([](spirv::KillOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      terminating.insert(func.getSymName());
  // Callers of terminating functions terminate too, to a fixed point.
  for (bool changed = true; changed;) {
    changed = false;
    for (auto func : module.getOps<spirv::FuncOp>()) {
      if (terminating.contains(func.getSymName()))
        continue;
      bool calls = func.walk([&](spirv::FunctionCallOp call) {
                         return terminating.contains(call.getCallee())
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
      if (calls)
        changed = terminating.insert(func.getSymName()).second;
    }
  }
  for (const auto &name : terminating.keys())
    layout.terminatingFunctions.insert(layout.functionSymbols.lookup(name));
}

void spvb::returnAfterTermination(ModuleOp module,
                                  const InterfaceLayout &layout) {
  if (layout.terminatingFunctions.empty())
    return;
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    if (auto callee = call.getCallee())
      if (layout.terminatingFunctions.contains(*callee))
        calls.push_back(call);
  });
  OpBuilder b(module.getContext());
  for (LLVM::CallOp call : calls) {
    auto func = call->getParentOfType<LLVM::LLVMFuncOp>();
    Location loc = call.getLoc();
    Block *before = call->getBlock();
    Block *after = before->splitBlock(std::next(call->getIterator()));
    Block *exit = b.createBlock(after);
    createReturn(b, loc, func);
    b.setInsertionPointToEnd(before);
    Type i32 = b.getI32Type();
    Value status = LLVM::LoadOp::create(
        b, loc, i32,
        getStageRecordAddress(b, loc, func.getArgument(0), func.getArgument(1),
                              /*output=*/true, layout, 0),
        4);
    Value bit = LLVM::AndOp::create(
        b, loc, status,
        LLVM::ConstantOp::create(
            b, loc, i32, b.getI32IntegerAttr(SPVB_FRAGMENT_TERMINATED)));
    Value terminated = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::ne, bit,
        LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0)));
    LLVM::CondBrOp::create(b, loc, terminated, exit, after);
  }
}
