//===- JitCompilerFlags.cpp - The JIT the tools run kernels with ----------===//
#include "JitCompilerFlags.h"

#include "CompileFlags.h"

#include "spvbridge/bridge/KernelCache.h"

#include "llvm/Support/Process.h"

using namespace llvm;

static cl::opt<std::string> kernelCache(
    "kernel-cache",
    cl::desc("Where compiled kernels are kept, so that a later run of the "
             "same shader with the same flags loads instead of compiling "
             "(default: $SPVBRIDGE_KERNEL_CACHE, else ~/.cache/spvbridge); "
             "'off' keeps none"),
    cl::value_desc("dir|off"), cl::cat(spvb::tools::getToolCategory()));

Expected<std::unique_ptr<spvb::JitCompiler>>
spvb::tools::createJitCompiler(bool debuggable) {
  Expected<std::unique_ptr<JitCompiler>> jit = JitCompiler::create(debuggable);
  if (!jit || debuggable)
    return jit;
  // An explicit place must work; the default one is used when it does.
  std::string directory = kernelCache;
  std::string origin = "--kernel-cache=" + directory;
  if (!kernelCache.getNumOccurrences()) {
    directory = KernelDiskCache::getDefaultDirectory();
    origin = sys::Process::GetEnv("SPVBRIDGE_KERNEL_CACHE")
                 ? "SPVBRIDGE_KERNEL_CACHE=" + directory
                 : "";
  }
  if (directory == "off" || directory.empty())
    return jit;
  Expected<std::unique_ptr<KernelDiskCache>> cache =
      KernelDiskCache::open(directory, origin);
  if (!cache) {
    if (!origin.empty())
      return cache.takeError();
    consumeError(cache.takeError());
    return jit;
  }
  (*jit)->setDiskCache(std::move(*cache));
  return jit;
}
