//===- DeferredEntries.cpp - Entries compiled on their first call ---------===//
#include "DeferredEntries.h"

#include "spvbridge/bridge/Codegen.h"

#include "llvm/Bitcode/BitcodeReader.h"
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

/// The deferred function's name; the stub takes the entry's.
static std::string getBodyName(llvm::StringRef symbol) {
  return (symbol + ".deferred").str();
}

/// Renames the entry `symbol` of a deferred module to its body's name.
static void renameEntry(llvm::Module &module, llvm::StringRef symbol) {
  if (llvm::Function *function = module.getFunction(symbol))
    function->setName(getBodyName(symbol));
}

namespace {
/// A deferred module kept as bitcode, parsed when its body is first looked
/// up (the stub's first call) and handed to the JIT's IR layers then.
class DeferredBitcodeUnit : public MaterializationUnit {
public:
  DeferredBitcodeUnit(LLJIT &jit, std::unique_ptr<llvm::MemoryBuffer> bitcode,
                      llvm::StringRef symbol, std::string identifier)
      : MaterializationUnit(Interface(
            {{jit.mangleAndIntern(getBodyName(symbol)),
              llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable}},
            nullptr)),
        jit(jit), bitcode(std::move(bitcode)), symbol(symbol.str()),
        identifier(std::move(identifier)) {}

  llvm::StringRef getName() const override { return "DeferredBitcodeUnit"; }

  void materialize(
      std::unique_ptr<MaterializationResponsibility> responsibility) override {
    auto context = std::make_unique<llvm::LLVMContext>();
    llvm::Expected<std::unique_ptr<llvm::Module>> module =
        llvm::parseBitcodeFile(*bitcode, *context);
    if (!module) {
      jit.getExecutionSession().reportError(module.takeError());
      responsibility->failMaterialization();
      return;
    }
    (*module)->setModuleIdentifier(identifier);
    renameEntry(**module, symbol);
    jit.getIRTransformLayer().emit(
        std::move(responsibility),
        ThreadSafeModule(std::move(*module), std::move(context)));
  }

private:
  void discard(const JITDylib &, const SymbolStringPtr &) override {}

  LLJIT &jit;
  std::unique_ptr<llvm::MemoryBuffer> bitcode;
  std::string symbol;
  std::string identifier;
};
} // namespace

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
  module.withModuleDo([&](llvm::Module &ir) { renameEntry(ir, symbol); });
  if (llvm::Error error = jit.addIRModule(dylib, std::move(module)))
    return error;
  return defineStub(dylib, symbol, getBodyName(symbol));
}

llvm::Error
DeferredEntries::addBitcode(JITDylib &dylib,
                            std::unique_ptr<llvm::MemoryBuffer> bitcode,
                            llvm::StringRef symbol, std::string identifier) {
  if (llvm::Error error = dylib.define(std::make_unique<DeferredBitcodeUnit>(
          jit, std::move(bitcode), symbol, std::move(identifier))))
    return error;
  return defineStub(dylib, symbol, getBodyName(symbol));
}

llvm::Error DeferredEntries::defineStub(JITDylib &dylib, llvm::StringRef symbol,
                                        llvm::StringRef body) {
  SymbolAliasMap aliases;
  aliases[jit.mangleAndIntern(symbol)] = {jit.mangleAndIntern(body),
                                          llvm::JITSymbolFlags::Exported |
                                              llvm::JITSymbolFlags::Callable};
  return dylib.define(
      lazyReexports(*callThrough, *stubs, dylib, std::move(aliases)));
}
