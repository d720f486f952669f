//===- LaneMasks.cpp - Lane masks for structured divergent control flow ---===//
//
// A depth-first walk over the structurized body keeps a stack of open
// constructs, each with the block where it ends and the mask to restore
// there: a divergent conditional branch opens an if (its second successor
// is where the if ends), a Flow block whose condition is "came from the
// if's header" turns the if into an else, and a divergent back edge closes
// a loop whose exit restores the lanes that left it.
//
//===----------------------------------------------------------------------===//
#include "LaneMasks.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace spvb;

namespace {

class LaneMaskBuilder {
public:
  LaneMaskBuilder(Function &function, unsigned lanes, DominatorTree &dominators,
                  LoopInfo &loops, UniformityInfo &uniformity)
      : function(function), dominators(dominators), loops(loops),
        uniformity(uniformity) {
    LLVMContext &context = function.getContext();
    Module &module = *function.getParent();
    Type *i1 = Type::getInt1Ty(context);
    mask = FixedVectorType::get(i1, lanes);
    Type *pair = StructType::get(i1, mask);
    ifFunction = module.getOrInsertFunction(kLanesIf, pair, i1);
    elseFunction = module.getOrInsertFunction(kLanesElse, pair, mask);
    ifBreakFunction = module.getOrInsertFunction(kLanesIfBreak, mask, i1, mask);
    loopFunction = module.getOrInsertFunction(kLanesLoop, i1, mask);
    endFunction =
        module.getOrInsertFunction(kLanesEnd, Type::getVoidTy(context), mask);
  }

  bool run();

private:
  bool isUniform(BranchInst &branch) {
    return !uniformity.hasDivergentTerminator(*branch.getParent()) ||
           branch.hasMetadata("structurizecfg.uniform");
  }
  bool endsConstruct(BasicBlock *block) const {
    return !stack.empty() && stack.back().first == block;
  }
  bool isElseCondition(PHINode &phi) const;
  void openIf(BranchInst &branch);
  void openElse(BranchInst &branch);
  Value *accumulateBreak(Value *condition, PHINode *broken, Loop &loop,
                         BranchInst &latch);
  void closeLoop(BranchInst &latch);
  void closeConstruct(BasicBlock *block);

  Function &function;
  DominatorTree &dominators;
  LoopInfo &loops;
  UniformityInfo &uniformity;
  Type *mask;
  FunctionCallee ifFunction, elseFunction, ifBreakFunction, loopFunction,
      endFunction;
  /// Open constructs: the block where each ends, the mask it restores.
  SmallVector<std::pair<BasicBlock *, Value *>> stack;
};

} // namespace

/// A Flow block's condition that is true exactly when control came from the
/// immediate dominator (the if's header): the branch starts the else-part.
bool LaneMaskBuilder::isElseCondition(PHINode &phi) const {
  DomTreeNode *node = dominators.getNode(phi.getParent());
  if (!node || !node->getIDom())
    return false;
  BasicBlock *header = node->getIDom()->getBlock();
  for (unsigned i = 0; i < phi.getNumIncomingValues(); ++i) {
    auto *value = dyn_cast<ConstantInt>(phi.getIncomingValue(i));
    if (!value || value->isOne() != (phi.getIncomingBlock(i) == header))
      return false;
  }
  return true;
}

void LaneMaskBuilder::openIf(BranchInst &branch) {
  if (isUniform(branch))
    return;
  IRBuilder<> b(&branch);
  Value *result = b.CreateCall(ifFunction, {branch.getCondition()});
  branch.setCondition(b.CreateExtractValue(result, 0, "any"));
  stack.emplace_back(branch.getSuccessor(1),
                     b.CreateExtractValue(result, 1, "rest"));
}

void LaneMaskBuilder::openElse(BranchInst &branch) {
  IRBuilder<> b(&branch);
  Value *result = b.CreateCall(elseFunction, {stack.pop_back_val().second});
  branch.setCondition(b.CreateExtractValue(result, 0, "any"));
  stack.emplace_back(branch.getSuccessor(1),
                     b.CreateExtractValue(result, 1, "then"));
}

/// broken | (active & condition), computed where the condition is known
/// for every lane still in the loop.
Value *LaneMaskBuilder::accumulateBreak(Value *condition, PHINode *broken,
                                        Loop &loop, BranchInst &latch) {
  Instruction *point = &latch;
  if (auto *inst = dyn_cast<Instruction>(condition)) {
    if (loops.getLoopFor(inst->getParent()) == &loop)
      point = inst->getParent()->getTerminator();
    else if (!loop.contains(inst))
      point = &*loop.getHeader()->getFirstNonPHIIt();
  } else if (isa<Argument>(condition) ||
             (isa<Constant>(condition) &&
              condition != ConstantInt::getTrue(function.getContext()))) {
    point = &*loop.getHeader()->getFirstNonPHIIt();
  }
  return IRBuilder<>(point).CreateCall(ifBreakFunction, {condition, broken},
                                       "broken.next");
}

void LaneMaskBuilder::closeLoop(BranchInst &latch) {
  if (isUniform(latch))
    return;
  BasicBlock *block = latch.getParent();
  Loop *loop = loops.getLoopFor(block);
  if (!loop)
    return;
  BasicBlock *header = latch.getSuccessor(1);
  PHINode *broken = PHINode::Create(mask, 0, "broken");
  broken->insertBefore(header->begin());
  Value *condition = latch.getCondition();
  latch.setCondition(ConstantInt::getTrue(function.getContext()));
  Value *next = accumulateBreak(condition, broken, *loop, latch);
  for (BasicBlock *predecessor : predecessors(header)) {
    Value *incoming = Constant::getNullValue(mask);
    if (predecessor == block)
      incoming = next;
    else if (loop->contains(predecessor) &&
             dominators.dominates(predecessor, block))
      incoming = broken;
    broken->addIncoming(incoming, predecessor);
  }
  latch.setCondition(
      IRBuilder<>(&latch).CreateCall(loopFunction, {next}, "all.left"));
  stack.emplace_back(latch.getSuccessor(0), next);
}

void LaneMaskBuilder::closeConstruct(BasicBlock *block) {
  Loop *loop = loops.getLoopFor(block);
  if (loop && loop->getHeader() == block) {
    // Restoring lanes in a loop header would restore them each iteration:
    // restore them once, on the way in.
    SmallVector<BasicBlock *> latches;
    loop->getLoopLatches(latches);
    SmallVector<BasicBlock *> entries;
    for (BasicBlock *predecessor : predecessors(block))
      if (!is_contained(latches, predecessor))
        entries.push_back(predecessor);
    block = SplitBlockPredecessors(block, entries, ".lanes.end", &dominators,
                                   &loops, nullptr, false);
  }
  Value *saved = stack.pop_back_val().second;
  BasicBlock::iterator point = block->getFirstInsertionPt();
  if (isa<UndefValue>(saved) || isa<UnreachableInst>(*point))
    return;
  BasicBlock *definition = cast<Instruction>(saved)->getParent();
  if (!dominators.dominates(definition, block))
    point = SplitEdge(definition, block, &dominators, &loops)
                ->getFirstInsertionPt();
  IRBuilder<>(point->getParent(), point).CreateCall(endFunction, {saved});
}

bool LaneMaskBuilder::run() {
  BasicBlock *entry = &function.getEntryBlock();
  for (auto it = df_begin(entry), end = df_end(entry); it != end; ++it) {
    BasicBlock *block = *it;
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch || branch->isUnconditional()) {
      if (endsConstruct(block))
        closeConstruct(block);
      continue;
    }
    if (it.nodeVisited(branch->getSuccessor(1))) {
      if (endsConstruct(block))
        closeConstruct(block);
      if (dominators.dominates(branch->getSuccessor(1), block))
        closeLoop(*branch);
      continue;
    }
    if (endsConstruct(block)) {
      auto *phi = dyn_cast<PHINode>(branch->getCondition());
      if (phi && phi->getParent() == block && isElseCondition(*phi)) {
        if (isUniform(*branch))
          return false;
        // The phi stays (dead): nothing may be deleted while the widening
        // still looks values up by address in the analysis' results.
        openElse(*branch);
        continue;
      }
      closeConstruct(block);
    }
    openIf(*branch);
  }
  return stack.empty();
}

bool spvb::insertLaneMasks(Function &function, unsigned lanes,
                           DominatorTree &dominators, LoopInfo &loops,
                           UniformityInfo &uniformity) {
  return LaneMaskBuilder(function, lanes, dominators, loops, uniformity).run();
}
