//===- Termination.cpp - OpKill and OpTerminateInvocation -----------------===//
//
// A fragment invocation that terminates writes nothing: the instruction
// sets SPVB_FRAGMENT_TERMINATED in its output record and returns, and every
// call of a function that may terminate is followed by a check of that bit
// that returns too, so the whole invocation ends. (A longjmp would also end
// it, but would keep LLVM from inlining and vectorizing the invocation.)
//
//===----------------------------------------------------------------------===//
#include "Termination.h"

#include "PatternUtils.h"
#include "spvbridge/conversion/Patterns.h"

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
    if (hasFragmentEntry(layout) && func.getNumArguments() >= 2) {
      Value status = getStageRecordAddress(rewriter, loc, func.getArgument(0),
                                           func.getArgument(1),
                                           /*output=*/true, layout, 0);
      Type i32 = rewriter.getI32Type();
      Value old = LLVM::LoadOp::create(rewriter, loc, i32, status, 4);
      Value bit = LLVM::ConstantOp::create(
          rewriter, loc, i32,
          rewriter.getI32IntegerAttr(SPVB_FRAGMENT_TERMINATED));
      LLVM::StoreOp::create(rewriter, loc,
                            LLVM::OrOp::create(rewriter, loc, old, bit), status,
                            4);
    }
    createReturn(rewriter, loc, func);
    rewriter.eraseOp(op);
    return success();
  }

private:
  const InterfaceLayout &layout;
};

} // namespace

void spvb::populateTerminationPatterns(const TypeConverter &converter,
                                       const InterfaceLayout &layout,
                                       RewritePatternSet &patterns) {
  patterns.add<KillPattern>(converter, patterns.getContext(), layout);
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
