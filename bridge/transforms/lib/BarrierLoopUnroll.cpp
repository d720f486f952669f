//===- BarrierLoopUnroll.cpp - Unroll short loops around barriers ---------===//
#include "spvbridge/transforms/BarrierLoopUnroll.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"

#include <optional>

#define DEBUG_TYPE "spvb-barrier-loop-unroll"

ALWAYS_ENABLED_STATISTIC(NumUnrolled, "Barrier loops fully unrolled");

using namespace llvm;
using namespace spvb;

static bool callsBarrier(const Loop &loop) {
  for (BasicBlock *block : loop.blocks())
    for (Instruction &inst : *block)
      if (auto *call = dyn_cast<CallInst>(&inst))
        if (Function *callee = call->getCalledFunction())
          if (callee->getName() == abi::kControlBarrier)
            return true;
  return false;
}

namespace {
/// Evaluates a loop's values for one iteration from its header phis'.
struct IterationValues {
  const Loop &loop;
  const DataLayout &layout;
  DenseMap<const Value *, Constant *> known;

  Constant *get(Value *value, unsigned depth = 0) {
    if (auto *constant = dyn_cast<Constant>(value))
      return constant;
    if (Constant *done = known.lookup(value))
      return done;
    auto *inst = dyn_cast<Instruction>(value);
    if (!inst || !loop.contains(inst) || isa<PHINode>(inst) || depth == 16 ||
        !(isa<BinaryOperator, CmpInst, CastInst, SelectInst>(inst)))
      return nullptr;
    SmallVector<Constant *> operands;
    for (Value *operand : inst->operands()) {
      Constant *folded = get(operand, depth + 1);
      if (!folded)
        return nullptr;
      operands.push_back(folded);
    }
    Constant *result = ConstantFoldInstOperands(inst, operands, layout);
    if (result)
      known[inst] = result;
    return result;
  }
};
} // namespace

/// The number of times the body of `loop` (rotated: its latch is its only
/// exiting block) runs, if its exit follows from constants within
/// `maxTrips` iterations.
static std::optional<unsigned> getConstantTripCount(const Loop &loop,
                                                    unsigned maxTrips) {
  BasicBlock *latch = loop.getLoopLatch();
  BasicBlock *preheader = loop.getLoopPreheader();
  if (!latch || !preheader || loop.getExitingBlock() != latch)
    return std::nullopt;
  auto *branch = dyn_cast<BranchInst>(latch->getTerminator());
  if (!branch || !branch->isConditional())
    return std::nullopt;
  bool exitsWhenTrue = !loop.contains(branch->getSuccessor(0));
  const DataLayout &layout = latch->getDataLayout();
  DenseMap<const Value *, Constant *> phis;
  for (PHINode &phi : loop.getHeader()->phis())
    if (auto *start =
            dyn_cast<ConstantInt>(phi.getIncomingValueForBlock(preheader)))
      phis[&phi] = start;
  for (unsigned trips = 1; trips <= maxTrips; ++trips) {
    IterationValues values{loop, layout, phis};
    auto *exit =
        dyn_cast_or_null<ConstantInt>(values.get(branch->getCondition()));
    if (!exit)
      return std::nullopt;
    if (exit->isOne() == exitsWhenTrue)
      return trips;
    DenseMap<const Value *, Constant *> next;
    for (auto [phi, value] : phis)
      if (Constant *update =
              values.get(cast<PHINode>(phi)->getIncomingValueForBlock(latch)))
        next[phi] = update;
    phis = std::move(next);
  }
  return std::nullopt;
}

PreservedAnalyses
BarrierLoopUnrollPass::run(Function &function,
                           FunctionAnalysisManager &analyses) {
  if (function.isDeclaration())
    return PreservedAnalyses::all();
  auto &loops = analyses.getResult<LoopAnalysis>(function);
  SmallVector<Loop *> candidates;
  for (Loop *loop : loops.getLoopsInPreorder())
    if (loop->isInnermost() && callsBarrier(*loop))
      candidates.push_back(loop);
  if (candidates.empty())
    return PreservedAnalyses::all();
  auto &dominators = analyses.getResult<DominatorTreeAnalysis>(function);
  auto &evolution = analyses.getResult<ScalarEvolutionAnalysis>(function);
  auto &assumptions = analyses.getResult<AssumptionAnalysis>(function);
  auto &target = analyses.getResult<TargetIRAnalysis>(function);
  auto &remarks =
      analyses.getResult<OptimizationRemarkEmitterAnalysis>(function);
  bool changed = false;
  for (Loop *loop : candidates) {
    changed |= simplifyLoop(loop, &dominators, &loops, &evolution, &assumptions,
                            nullptr, false);
    std::optional<unsigned> trips = getConstantTripCount(*loop, kMaxTrips);
    if (!trips || *trips < 2)
      continue;
    unsigned size = 0;
    for (BasicBlock *block : loop->blocks())
      size += block->size();
    if (size * *trips > kMaxUnrolledSize)
      continue;
    changed |= formLCSSARecursively(*loop, dominators, &loops, &evolution);
    UnrollLoopOptions options;
    options.Count = *trips;
    options.Force = true;
    options.Runtime = false;
    options.AllowExpensiveTripCount = false;
    options.UnrollRemainder = false;
    options.ForgetAllSCEV = true;
    options.SCEVExpansionBudget = 0;
    if (UnrollLoop(loop, options, &loops, &evolution, &dominators, &assumptions,
                   &target, &remarks,
                   /*PreserveLCSSA=*/true) != LoopUnrollResult::Unmodified) {
      ++NumUnrolled;
      changed = true;
    }
  }
  if (!changed)
    return PreservedAnalyses::all();
  // The copies' exit tests are constants now: their branches go, and the
  // steps join into straight-line code.
  analyses.invalidate(function, PreservedAnalyses::none());
  SimplifyCFGPass().run(function, analyses);
  return PreservedAnalyses::none();
}
