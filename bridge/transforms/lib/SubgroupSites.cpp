//===- SubgroupSites.cpp - Where each subgroup call meets -----------------===//
#include "spvbridge/transforms/SubgroupSites.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <queue>

using namespace llvm;
using namespace spvb;

/// The `site` parameter of spvb_rt_subgroup (kernel_abi.h).
static constexpr unsigned kSiteArgument = 4;

/// The function's reachable blocks in a topological order of its CFG without
/// back edges, with every loop's blocks before its exit blocks. Ties (and
/// irreducible cycles) follow reverse post-order.
static std::vector<BasicBlock *> orderBlocks(Function &function) {
  DominatorTree dominators(function);
  LoopInfo loops(dominators);
  ReversePostOrderTraversal<Function *> rpo(&function);
  DenseMap<BasicBlock *, unsigned> rank;
  for (BasicBlock *block : rpo)
    rank[block] = rank.size();

  DenseMap<BasicBlock *, SmallVector<BasicBlock *>> after;
  DenseMap<BasicBlock *, unsigned> pending;
  auto addEdge = [&](BasicBlock *from, BasicBlock *to) {
    after[from].push_back(to);
    ++pending[to];
  };
  for (BasicBlock *block : rpo)
    for (BasicBlock *successor : successors(block)) {
      Loop *loop = loops.getLoopFor(successor);
      bool backEdge =
          loop && loop->getHeader() == successor && loop->contains(block);
      if (!backEdge)
        addEdge(block, successor);
    }
  for (Loop *loop : loops.getLoopsInPreorder()) {
    SmallVector<BasicBlock *> exits;
    loop->getUniqueExitBlocks(exits);
    for (BasicBlock *exit : exits)
      for (BasicBlock *block : loop->blocks())
        addEdge(block, exit);
  }

  auto later = [&](BasicBlock *a, BasicBlock *b) { return rank[a] > rank[b]; };
  std::priority_queue<BasicBlock *, std::vector<BasicBlock *>, decltype(later)>
      ready(later);
  for (BasicBlock *block : rpo)
    if (!pending.lookup(block))
      ready.push(block);
  std::vector<BasicBlock *> order;
  DenseSet<BasicBlock *> placed;
  while (!ready.empty()) {
    BasicBlock *block = ready.top();
    ready.pop();
    order.push_back(block);
    placed.insert(block);
    for (BasicBlock *next : after[block])
      if (--pending[next] == 0)
        ready.push(next);
  }
  for (BasicBlock *block : rpo)
    if (!placed.contains(block))
      order.push_back(block);
  return order;
}

PreservedAnalyses SubgroupSitesPass::run(Module &module,
                                         ModuleAnalysisManager &) {
  Function *subgroup = module.getFunction(abi::kSubgroup);
  if (!subgroup)
    return PreservedAnalyses::all();
  SmallPtrSet<Function *, 8> callers;
  for (User *user : subgroup->users())
    if (auto *call = dyn_cast<CallBase>(user))
      callers.insert(call->getFunction());
  // Sites only order calls within one function; numbers stay unique across
  // the module.
  uint32_t site = 0;
  for (Function &function : module) {
    if (!callers.contains(&function))
      continue;
    for (BasicBlock *block : orderBlocks(function))
      for (Instruction &inst : *block)
        if (auto *call = dyn_cast<CallBase>(&inst))
          if (call->getCalledFunction() == subgroup)
            call->setArgOperand(
                kSiteArgument,
                ConstantInt::get(call->getArgOperand(kSiteArgument)->getType(),
                                 ++site));
  }
  return PreservedAnalyses::none();
}
