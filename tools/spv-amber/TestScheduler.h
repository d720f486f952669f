//===- TestScheduler.h - Run scripts in parallel child processes -*- C++
//-*-===//
//
// Each script runs in its own runner process, up to --jobs at a time, so a
// crash or a hang fails that script only; a runner that outlives the timeout
// is killed.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_TESTSCHEDULER_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_TESTSCHEDULER_H

#include "Scripts.h"
#include "TestResult.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace spvb::driver {

struct RunOptions {
  std::string runner;
  /// Passed to every runner after `SCRIPT --json`.
  std::vector<std::string> runnerArgs;
  unsigned jobs = 1;
  /// Per script; 0 is no limit.
  unsigned timeoutSeconds = 0;
};

/// Runs every script and returns their results in the order of \p scripts.
/// \p onStart and \p onFinish see each script (by index) start and finish,
/// on the calling thread.
std::vector<TestResult>
runScripts(llvm::ArrayRef<Script> scripts, const RunOptions &options,
           llvm::function_ref<void(size_t)> onStart,
           llvm::function_ref<void(size_t, const TestResult &)> onFinish);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_TESTSCHEDULER_H
