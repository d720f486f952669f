//===- DeferredEntries.h - Entries compiled on their first call -*- C++ -*-===//
//
// A kernel's invocation entry, when a workgroup entry runs the kernel, is
// compiled only if something calls it: its symbol is a stub that compiles
// the module holding it on the first call (ORC's lazy re-exports), and the
// JIT's IR transform finishes the module's optimization then.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_DEFERREDENTRIES_H
#define SPVBRIDGE_BRIDGE_DEFERREDENTRIES_H

#include "llvm/ExecutionEngine/Orc/IndirectionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/LazyReexports.h"

#include <memory>

namespace spvb {

class DeferredEntries {
public:
  /// Sets `jit`'s IR transform, which optimizes deferred modules
  /// (isDeferredModule) when they are materialized.
  static llvm::Expected<std::unique_ptr<DeferredEntries>>
  create(llvm::orc::LLJIT &jit);

  /// Adds `module`, a deferred module (optimizeModule) defining `symbol`, to
  /// `dylib`, and defines `symbol` there as a stub that compiles it on the
  /// first call.
  llvm::Error add(llvm::orc::JITDylib &dylib,
                  llvm::orc::ThreadSafeModule module, llvm::StringRef symbol);
  /// The same for a deferred module kept as `bitcode` (the disk cache's),
  /// parsed only on the first call, as module `identifier`.
  llvm::Error addBitcode(llvm::orc::JITDylib &dylib,
                         std::unique_ptr<llvm::MemoryBuffer> bitcode,
                         llvm::StringRef symbol, std::string identifier);

private:
  /// Defines `symbol` in `dylib` as a stub that calls `body`, materializing
  /// it on the first call.
  llvm::Error defineStub(llvm::orc::JITDylib &dylib, llvm::StringRef symbol,
                         llvm::StringRef body);

  DeferredEntries(
      llvm::orc::LLJIT &jit,
      std::unique_ptr<llvm::orc::LazyCallThroughManager> callThrough,
      std::unique_ptr<llvm::orc::IndirectStubsManager> stubs)
      : jit(jit), callThrough(std::move(callThrough)), stubs(std::move(stubs)) {
  }

  llvm::orc::LLJIT &jit;
  std::unique_ptr<llvm::orc::LazyCallThroughManager> callThrough;
  std::unique_ptr<llvm::orc::IndirectStubsManager> stubs;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_DEFERREDENTRIES_H
