//===- InvocationBlockScopes.h - Invocation block aliases -------*- C++ -*-===//
//
// An invocation entry reads its builtins and the addresses of its Private
// and Workgroup storage from its invocation block (spvb_invocation), which
// no shader access can reach. Without saying so, every store to a buffer or
// to Private storage may overwrite those fields for LLVM, which then loads
// the Private storage's address again after each such store and cannot
// forward a Private variable one function stores and a later one loads
// (the workgroup entries run such a load in SIMD lanes as a gather).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_INVOCATIONBLOCKSCOPES_H
#define SPVBRIDGE_TRANSFORMS_INVOCATIONBLOCKSCOPES_H

#include "llvm/IR/PassManager.h"

namespace spvb {

/// Gives each access of an invocation entry (after inlining) scoped alias
/// metadata: one through its invocation block `!alias.scope` of the block,
/// one through memory the shader addresses (allocas, globals, pointers
/// loaded from the dispatch or invocation block, the dispatch block)
/// `!noalias` of it. Accesses through any other pointer, and calls, stay
/// as they are, as does an entry that stores its block's address.
class InvocationBlockScopesPass
    : public llvm::PassInfoMixin<InvocationBlockScopesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_INVOCATIONBLOCKSCOPES_H
