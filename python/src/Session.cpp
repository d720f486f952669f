//===- Session.cpp - What every kernel of the Python module shares --------===//
#include "Session.h"

#include "Errors.h"

#include "spvbridge/bridge/KernelCache.h"

#include <cstdio>
#include <cstdlib>

using namespace spvb;
using namespace spvb::python;

Session &Session::get() {
  // Never destroyed: kernels still referenced at interpreter exit keep
  // their code in the JIT.
  static Session *session = new Session();
  return *session;
}

JitCompiler &Session::getJit() {
  std::lock_guard<std::mutex> lock(mutex);
  if (jit)
    return *jit;
  llvm::Expected<std::unique_ptr<JitCompiler>> created = JitCompiler::create();
  if (!created)
    throwCompileError(created.takeError());
  jit = std::move(*created);
  // As spv-run without --kernel-cache: the default place when it works.
  std::string directory = KernelDiskCache::getDefaultDirectory();
  if (directory != "off" && !directory.empty()) {
    llvm::Expected<std::unique_ptr<KernelDiskCache>> cache =
        KernelDiskCache::open(directory, "SPVBRIDGE_KERNEL_CACHE");
    if (cache)
      jit->setDiskCache(std::move(*cache));
    else
      llvm::consumeError(cache.takeError());
  }
  return *jit;
}

void Session::setDiskCache(const std::string &directory) {
  JitCompiler &compiler = getJit();
  if (directory == "off") {
    compiler.setDiskCache(nullptr);
    return;
  }
  llvm::Expected<std::unique_ptr<KernelDiskCache>> cache =
      KernelDiskCache::open(directory, "set_kernel_cache('" + directory + "')");
  if (!cache)
    throw Error(llvm::toString(cache.takeError()));
  compiler.setDiskCache(std::move(*cache));
}

runtime::Launcher &Session::getLauncher(unsigned threads,
                                        uint32_t subgroupSize) {
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<runtime::Launcher> &launcher =
      launchers[{threads, subgroupSize}];
  if (!launcher)
    launcher = std::make_unique<runtime::Launcher>(threads, subgroupSize);
  return *launcher;
}

run::Watchdog &Session::getWatchdog() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!watchdog)
    watchdog = std::make_unique<run::Watchdog>();
  return *watchdog;
}

llvm::Expected<std::string>
Session::runExclusive(llvm::function_ref<llvm::Error(FILE *sink)> body) {
  static std::mutex running;
  std::lock_guard<std::mutex> lock(running);
  char *text = nullptr;
  size_t size = 0;
  FILE *sink = open_memstream(&text, &size);
  runtime::setPrintfSink(sink);
  llvm::Error error = body(sink);
  runtime::setPrintfSink(stdout);
  std::string output;
  if (sink) {
    std::fclose(sink);
    output.assign(text, size);
    std::free(text);
  }
  if (error)
    return error;
  return output;
}
