//===- TestScheduler.cpp - Run scripts in parallel child processes --------===//
//
// One thread starts the children and polls them: the work is in the
// children, and sys::Wait's blocking timeout (a process-wide alarm() and a
// wait() for any child) cannot be used from several threads at once.
//
//===----------------------------------------------------------------------===//
#include "TestScheduler.h"

#include "ChildProcess.h"
#include "RunnerResult.h"

#include <chrono>
#include <memory>
#include <thread>

using namespace llvm;
using namespace spvb::driver;

namespace {

using Clock = std::chrono::steady_clock;

struct RunningScript {
  size_t index;
  std::unique_ptr<ChildProcess> child;
  Clock::time_point start;
};

double getSecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

std::vector<TestResult> spvb::driver::runScripts(
    ArrayRef<Script> scripts, const RunOptions &options,
    function_ref<void(size_t)> onStart,
    function_ref<void(size_t, const TestResult &)> onFinish) {
  std::vector<TestResult> results(scripts.size());
  auto finish = [&](size_t index, TestResult result, Clock::time_point start) {
    result.seconds = getSecondsSince(start);
    results[index] = std::move(result);
    onFinish(index, results[index]);
  };

  std::vector<RunningScript> running;
  size_t next = 0;
  while (next < scripts.size() || !running.empty()) {
    while (running.size() < options.jobs && next < scripts.size()) {
      size_t index = next++;
      SmallVector<StringRef> args = {options.runner, scripts[index].path,
                                     "--json"};
      args.append(options.runnerArgs.begin(), options.runnerArgs.end());
      onStart(index);
      Clock::time_point start = Clock::now();
      Expected<std::unique_ptr<ChildProcess>> child =
          ChildProcess::start(options.runner, args);
      if (!child) {
        finish(index,
               interpretRunner(
                   {ChildExit::Kind::NotRun, 0, toString(child.takeError())},
                   "", ""),
               start);
        continue;
      }
      running.push_back({index, std::move(*child), start});
    }

    bool anyFinished = false;
    for (auto it = running.begin(); it != running.end();) {
      ChildProcess &child = *it->child;
      std::optional<ChildExit> exit = child.poll();
      if (exit) {
        finish(
            it->index,
            interpretRunner(*exit, child.readOutput(), child.readErrorOutput()),
            it->start);
      } else if (options.timeoutSeconds &&
                 getSecondsSince(it->start) >= options.timeoutSeconds) {
        child.kill();
        finish(
            it->index,
            makeTimeoutResult(options.timeoutSeconds, child.readErrorOutput()),
            it->start);
      } else {
        ++it;
        continue;
      }
      it = running.erase(it);
      anyFinished = true;
    }
    // A runner takes tens of milliseconds at least: looking every 10 ms
    // keeps the driver idle and adds little to any script's time.
    if (!anyFinished)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return results;
}
