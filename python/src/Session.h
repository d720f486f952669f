//===- Session.h - What every kernel of the Python module shares -*- C++ -*-=//
//
// One JIT for the process (its in-memory cache serves every compile() of
// the same module and options, its disk cache later processes), one
// launcher per (threads, subgroup size) so that a dispatch does not start
// threads, one watchdog thread, and one dispatch or draw at a time: the
// printf sink is global.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_PYTHON_SESSION_H
#define SPVBRIDGE_PYTHON_SESSION_H

#include "PrintfCapture.h"
#include "spvbridge/cpu_runtime/Watchdog.h"

#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace spvb::python {

class Session {
public:
  /// The process's session; its JIT is created on first use.
  static Session &get();

  /// The JIT; the disk cache is $SPVBRIDGE_KERNEL_CACHE (or
  /// ~/.cache/spvbridge, or none when it is "off"), as for spv-run.
  JitCompiler &getJit();
  /// The JIT of debug builds (draw(debug_pixel=...)): registered with
  /// the GDB JIT interface, without a disk cache.
  JitCompiler &getDebugJit();
  /// Moves the disk cache to \p directory ("off": none); the kernels
  /// compiled so far stay in memory.
  void setDiskCache(const std::string &directory);

  /// The launcher for \p threads (0: every hardware thread) and
  /// \p subgroupSize.
  runtime::Launcher &getLauncher(unsigned threads, uint32_t subgroupSize);
  /// Cancels the run of whichever launcher has one (Launcher::cancel): for
  /// a watchdog over runs whose launcher it does not know (an Amber
  /// script's).
  void cancelRuns(const std::string &message);

  /// The watchdog of every run (armed per run: runs are exclusive).
  runtime::Watchdog &getWatchdog();

  /// Runs \p body alone; \p printed receives the debugPrintfEXT output it
  /// sent to `sink` (runtime::setPrintfSink, up to the printf limit), also
  /// when it fails: \p body's errors pass through.
  /// Meanwhile SIGINT (Ctrl-C) also sets getInterrupt(), for the watchdog
  /// to stop the run, before Python's own handler sees it; one that came
  /// before is raised at once. Called without the GIL.
  llvm::Error runExclusive(llvm::function_ref<llvm::Error(FILE *sink)> body,
                           std::string &printed);
  /// How many bytes of printf output a run keeps (PrintfCapture).
  void setPrintfLimit(size_t bytes);
  /// Set by SIGINT during runExclusive(); cleared when the next starts.
  static const std::atomic<bool> &getInterrupt();

private:
  Session() = default;
  std::mutex mutex;
  std::unique_ptr<JitCompiler> jit, debugJit;
  std::map<std::pair<unsigned, uint32_t>, std::unique_ptr<runtime::Launcher>>
      launchers;
  std::unique_ptr<runtime::Watchdog> watchdog;
  size_t printfLimit = PrintfCapture::kDefaultLimit;
};

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_SESSION_H
