//===- AmberScripts.cpp - spvbridge.run_amber -----------------------------===//
#include "AmberScripts.h"

#include "Errors.h"
#include "Session.h"

#include "spvbridge/amber/ScriptExecutor.h"
#include "spvbridge/amber/ScriptParser.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>

namespace py = pybind11;
using namespace spvb;
using namespace spvb::python;

static const char *getStatusName(amber::ScriptResult::Status status) {
  switch (status) {
  case amber::ScriptResult::Status::Pass:
    return "pass";
  case amber::ScriptResult::Status::Skip:
    return "skip";
  case amber::ScriptResult::Status::Fail:
    break;
  }
  return "fail";
}

py::dict spvb::python::runAmber(const AmberRequest &request) {
  amber::ExecutorOptions options;
  options.threads = request.threads;
  options.subgroupSize = request.subgroupSize;
  options.compile.checkBounds = request.checkBounds;
  options.compile.checkRaces = request.checkRaces;
  options.compile.undefinedChecks =
      request.checkUndefined ? UndefinedChecks::Report : UndefinedChecks::None;
  options.imageDirectory = request.imageDirectory;
  options.getLauncher = [&](uint32_t subgroupSize) -> runtime::Launcher & {
    return Session::get().getLauncher(request.threads, subgroupSize);
  };
  std::string name = request.isText ? "<inline>" : request.script;
  JitCompiler &jit = Session::get().getJit();

  amber::ScriptResult result;
  double milliseconds = 0;
  std::string printed;
  llvm::Error error = [&]() -> llvm::Error {
    py::gil_scoped_release release;
    auto start = std::chrono::steady_clock::now();
    std::chrono::duration<double> timeout(request.timeoutSeconds);
    // The message ends the failure of the RUN or draw it stops.
    auto describe = [&]() -> std::string {
      if (Session::getInterrupt())
        return "error: the script was interrupted";
      return llvm::formatv("error: the script did not finish in {0} s (the "
                           "timeout; timeout=0 waits forever); a shader may "
                           "loop forever",
                           formatSeconds(request.timeoutSeconds))
          .str();
    };
    runtime::Watchdog &watchdog = Session::get().getWatchdog();
    llvm::Error ran = Session::get().runExclusive(
        [&](FILE *) -> llvm::Error {
          llvm::Expected<amber::Script> script =
              request.isText ? amber::parseScriptText(request.script, name)
                             : amber::parseScript(request.script);
          if (!script) {
            std::string message = llvm::toString(script.takeError());
            llvm::StringRef text(message);
            text.consume_front("error: ");
            result.fail(0, text.str());
            return llvm::Error::success();
          }
          watchdog.arm(
              timeout, describe,
              [](const std::string &message) {
                Session::get().cancelRuns(message);
              },
              &Session::getInterrupt());
          result = amber::executeScript(*script, jit, options);
          watchdog.disarm();
          return llvm::Error::success();
        },
        printed);
    milliseconds = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count();
    return ran;
  }();
  // A Ctrl-C before the script started fails the call itself; one during
  // it stopped the script, and raises KeyboardInterrupt now.
  if (error)
    throwDispatchError(std::move(error), printed);
  if (Session::getInterrupt() && PyErr_CheckSignals() != 0)
    throw py::error_already_set();
  py::list failures;
  for (const amber::ScriptFailure &failure : result.failures)
    failures.append(
        py::make_tuple(failure.line, failure.message, failure.note));
  py::dict dict;
  dict["script"] = name;
  dict["status"] = getStatusName(result.status);
  dict["reason"] = result.reason;
  dict["failures"] = failures;
  dict["time_ms"] = milliseconds;
  dict["printf"] = printed;
  return dict;
}
