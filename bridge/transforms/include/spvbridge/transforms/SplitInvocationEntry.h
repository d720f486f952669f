//===- SplitInvocationEntry.h - The invocation entry, apart -----*- C++ -*-===//
//
// A kernel with a workgroup entry runs through it; its invocation entry is
// called only when one invocation runs alone (--debug-invocation runs the
// others of its workgroup on it). Moved into a module of its own, it is
// optimized and compiled on its first call instead of with the kernel.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_SPLITINVOCATIONENTRY_H
#define SPVBRIDGE_TRANSFORMS_SPLITINVOCATIONENTRY_H

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <memory>

namespace spvb {

/// Moves the invocation entry of the module's kernel, if it has a workgroup
/// entry, into `split`: the function and nothing else, with declarations of
/// what it uses. What it uses with local linkage becomes external, so that
/// the two modules link. Leaves `split` empty for a kernel without a
/// workgroup entry.
class SplitInvocationEntryPass
    : public llvm::PassInfoMixin<SplitInvocationEntryPass> {
public:
  explicit SplitInvocationEntryPass(std::unique_ptr<llvm::Module> &split)
      : split(split) {}
  llvm::PreservedAnalyses run(llvm::Module &module,
                              llvm::ModuleAnalysisManager &analyses);

private:
  std::unique_ptr<llvm::Module> &split;
};

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_SPLITINVOCATIONENTRY_H
