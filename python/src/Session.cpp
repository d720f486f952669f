//===- Session.cpp - What every kernel of the Python module shares --------===//
#include "Session.h"

#include "Errors.h"

#include "spvbridge/bridge/KernelCache.h"

#include "llvm/Support/FormatVariadic.h"

#include <csignal>
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

JitCompiler &Session::getDebugJit() {
  std::lock_guard<std::mutex> lock(mutex);
  if (debugJit)
    return *debugJit;
  llvm::Expected<std::unique_ptr<JitCompiler>> created =
      JitCompiler::create(/*debuggable=*/true);
  if (!created)
    throwCompileError(created.takeError());
  debugJit = std::move(*created);
  return *debugJit;
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
  if (!runtime::isSubgroupSize(subgroupSize))
    throwBindingError(llvm::formatv("subgroup_size={0}: expected a power of "
                                    "two from 1 to {1}",
                                    subgroupSize, runtime::kMaxSubgroupSize));
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<runtime::Launcher> &launcher =
      launchers[{threads, subgroupSize}];
  if (!launcher)
    launcher = std::make_unique<runtime::Launcher>(threads, subgroupSize);
  return *launcher;
}

void Session::cancelRuns(const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &[key, launcher] : launchers)
    launcher->cancel(message);
}

void Session::setPrintfLimit(size_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  printfLimit = bytes;
}

runtime::Watchdog &Session::getWatchdog() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!watchdog)
    watchdog = std::make_unique<runtime::Watchdog>();
  return *watchdog;
}

static std::atomic<bool> interrupted{false};
static struct sigaction pythonInterrupt;

/// SIGINT during a run: flags it for the watchdog, then hands it to the
/// handler that was there (Python's, or LLVM's, which removes its
/// temporary files and passes it on to Python's), so that
/// KeyboardInterrupt follows.
static void handleInterrupt(int signal, siginfo_t *info, void *context) {
  interrupted.store(true);
  if (pythonInterrupt.sa_flags & SA_SIGINFO)
    pythonInterrupt.sa_sigaction(signal, info, context);
  else
    pythonInterrupt.sa_handler(signal);
}

/// Puts back the handler that was there, unless the one we chained to has
/// changed it (LLVM's unregisters itself when called).
static void restoreInterrupt() {
  struct sigaction now;
  if (sigaction(SIGINT, nullptr, &now) == 0 && (now.sa_flags & SA_SIGINFO) &&
      now.sa_sigaction == handleInterrupt)
    sigaction(SIGINT, &pythonInterrupt, nullptr);
}

const std::atomic<bool> &Session::getInterrupt() { return interrupted; }

llvm::Error
Session::runExclusive(llvm::function_ref<llvm::Error(FILE *sink)> body,
                      std::string &printed) {
  static std::mutex running;
  std::lock_guard<std::mutex> lock(running);
  interrupted.store(false);
  // Only over a handler: SIGINT ignored (a background job) or left to its
  // default action stays so.
  struct sigaction current, ours{};
  bool intercept =
      sigaction(SIGINT, nullptr, &current) == 0 &&
      ((current.sa_flags & SA_SIGINFO) ||
       (current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN));
  if (intercept) {
    pythonInterrupt = current;
    ours.sa_sigaction = handleInterrupt;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    sigaction(SIGINT, &ours, nullptr);
  }
  // A Ctrl-C that came before (while compiling) is Python's to raise now;
  // from here on the handler above sees it.
  bool pending = false;
  {
    pybind11::gil_scoped_acquire gil;
    pending = PyErr_CheckSignals() != 0;
  }
  if (pending) {
    if (intercept)
      restoreInterrupt();
    interrupted.store(true);
    return llvm::make_error<runtime::ShaderFault>(
        runtime::ShaderFault::Kind::Cancelled, "error: interrupted");
  }
  size_t limit;
  {
    std::lock_guard<std::mutex> guard(mutex);
    limit = printfLimit;
  }
  PrintfCapture capture(limit);
  runtime::setPrintfSink(capture.getSink());
  llvm::Error error = body(capture.getSink());
  if (intercept)
    restoreInterrupt();
  runtime::setPrintfSink(stdout);
  printed = capture.take();
  return error;
}
