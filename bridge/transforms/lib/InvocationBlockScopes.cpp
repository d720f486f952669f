//===- InvocationBlockScopes.cpp - What the invocation block aliases ------===//
#include "spvbridge/transforms/InvocationBlockScopes.h"

#include "KernelInfoGlobals.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/MemoryLocation.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "spvb-invocation-block-scopes"

ALWAYS_ENABLED_STATISTIC(NumBlockAccesses,
                         "Accesses of the invocation block given its scope");
ALWAYS_ENABLED_STATISTIC(NumShaderAccesses,
                         "Accesses given the invocation block's noalias");

using namespace llvm;
using namespace spvb;

namespace {
enum class Target { Block, Shader, Unknown };
} // namespace

/// What `pointer` may address: the invocation block (`block`), only memory
/// of the shader's, or either.
static Target classify(const Value *pointer, const Argument &block) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects);
  bool inBlock = false, inShader = false;
  for (const Value *object : objects) {
    if (object == &block)
      inBlock = true;
    // The dispatch block, allocas, globals and loaded addresses (the
    // block's own address is never stored, see below) are not the block.
    else if (isa<AllocaInst, GlobalValue, LoadInst>(object) ||
             (isa<Argument>(object) && cast<Argument>(object)->getArgNo() == 0))
      inShader = true;
    else
      return Target::Unknown;
  }
  if (inBlock == inShader)
    return Target::Unknown;
  return inBlock ? Target::Block : Target::Shader;
}

/// Whether `function` stores the address of its block (or one within it)
/// as a value, which a load could then return.
static bool storesBlockAddress(Function &function, const Argument &block) {
  for (Instruction &inst : instructions(function)) {
    Value *stored = nullptr;
    if (auto *store = dyn_cast<StoreInst>(&inst))
      stored = store->getValueOperand();
    else if (auto *rmw = dyn_cast<AtomicRMWInst>(&inst))
      stored = rmw->getValOperand();
    else if (auto *cmpxchg = dyn_cast<AtomicCmpXchgInst>(&inst))
      stored = cmpxchg->getNewValOperand();
    else if (isa<PtrToIntInst>(&inst))
      stored = inst.getOperand(0);
    if (stored && stored->getType()->isPointerTy() &&
        getUnderlyingObject(stored) == &block)
      return true;
  }
  return false;
}

static bool addScopes(Function &function, MDNode *scope) {
  if (function.arg_size() < 2 || !function.getArg(1)->getType()->isPointerTy())
    return false;
  const Argument &block = *function.getArg(1);
  if (storesBlockAddress(function, block))
    return false;
  MDNode *scopes = MDNode::get(function.getContext(), scope);
  bool changed = false;
  for (Instruction &inst : instructions(function)) {
    // Loads, stores and atomics; calls stay as they are.
    std::optional<MemoryLocation> access = MemoryLocation::getOrNone(&inst);
    if (!access)
      continue;
    switch (classify(access->Ptr, block)) {
    case Target::Block:
      inst.setMetadata(
          LLVMContext::MD_alias_scope,
          MDNode::concatenate(inst.getMetadata(LLVMContext::MD_alias_scope),
                              scopes));
      ++NumBlockAccesses;
      changed = true;
      break;
    case Target::Shader:
      inst.setMetadata(LLVMContext::MD_noalias,
                       MDNode::concatenate(
                           inst.getMetadata(LLVMContext::MD_noalias), scopes));
      ++NumShaderAccesses;
      changed = true;
      break;
    case Target::Unknown:
      break;
    }
  }
  return changed;
}

PreservedAnalyses InvocationBlockScopesPass::run(Module &module,
                                                 ModuleAnalysisManager &) {
  std::vector<KernelInfoGlobal> kernels = getKernelInfoGlobals(module);
  if (kernels.empty())
    return PreservedAnalyses::all();
  MDBuilder builder(module.getContext());
  MDNode *domain = builder.createAnonymousAliasScopeDomain("spvb.invocation");
  MDNode *scope = builder.createAnonymousAliasScope(domain, "spvb.block");
  bool changed = false;
  for (KernelInfoGlobal &kernel : kernels)
    changed |= addScopes(*kernel.invocation, scope);
  if (!changed)
    return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}
