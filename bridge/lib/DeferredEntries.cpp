//===- DeferredEntries.cpp - Entries compiled on their first call ---------===//
#include "DeferredEntries.h"

#include "spvbridge/bridge/Codegen.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace spvb;
using namespace llvm::orc;

/// Called in place of an entry whose compile failed (ORC has reported why):
/// there is no result to return to the kernel's caller.
static void reportDeferredCompileFailure() {
  llvm::errs() << "error: spvbridge: compiling a kernel's invocation entry "
                  "on its first call failed\n";
  std::_Exit(70);
}

llvm::Expected<std::unique_ptr<DeferredEntries>>
DeferredEntries::create(LLJIT &jit) {
  const llvm::Triple &triple = jit.getTargetTriple();
  auto callThrough = createLocalLazyCallThroughManager(
      triple, jit.getExecutionSession(),
      llvm::orc::ExecutorAddr::fromPtr(&reportDeferredCompileFailure));
  if (!callThrough)
    return callThrough.takeError();
  auto stubsBuilder = createLocalIndirectStubsManagerBuilder(triple);
  if (!stubsBuilder)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: no JIT stubs for the host " +
                                       triple.str());
  jit.getIRTransformLayer().setTransform(
      [](ThreadSafeModule module,
         MaterializationResponsibility &) -> llvm::Expected<ThreadSafeModule> {
        llvm::Error error = module.withModuleDo([](llvm::Module &ir) {
          return isDeferredModule(ir) ? optimizeDeferredModule(ir)
                                      : llvm::Error::success();
        });
        if (error)
          return error;
        return module;
      });
  return std::unique_ptr<DeferredEntries>(
      new DeferredEntries(jit, std::move(*callThrough), stubsBuilder()));
}

llvm::Error DeferredEntries::add(JITDylib &dylib, ThreadSafeModule module,
                                 llvm::StringRef symbol) {
  // The body takes another name; the stub takes the entry's.
  std::string body = (symbol + ".deferred").str();
  module.withModuleDo([&](llvm::Module &ir) {
    if (llvm::Function *function = ir.getFunction(symbol))
      function->setName(body);
  });
  if (llvm::Error error = jit.addIRModule(dylib, std::move(module)))
    return error;
  SymbolAliasMap aliases;
  aliases[jit.mangleAndIntern(symbol)] = {jit.mangleAndIntern(body),
                                          llvm::JITSymbolFlags::Exported |
                                              llvm::JITSymbolFlags::Callable};
  return dylib.define(
      lazyReexports(*callThrough, *stubs, dylib, std::move(aliases)));
}
