//===- ScriptRun.cpp - spv-run SCRIPT: one Amber script -------------------===//
#include "ScriptRun.h"

#include "JitCompilerFlags.h"

#include "spvbridge/amber/ScriptParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace spvb;
using namespace spvb::amber;

bool spvb::isScriptPath(StringRef path) {
  StringRef extension = sys::path::extension(path);
  for (StringRef shader : {".spv", ".spvasm", ".comp", ".vert", ".tesc",
                           ".tese", ".geom", ".frag", ".glsl", ".hlsl"})
    if (extension.equals_insensitive(shader))
      return false;
  return true;
}

static const char *getStatusName(ScriptResult::Status status) {
  switch (status) {
  case ScriptResult::Status::Pass:
    return "pass";
  case ScriptResult::Status::Fail:
    return "fail";
  case ScriptResult::Status::Skip:
    return "skip";
  }
  return "fail";
}

static void printJson(StringRef path, const ScriptResult &result,
                      double milliseconds) {
  json::Array failures;
  for (const ScriptFailure &failure : result.failures) {
    json::Object object{{"line", failure.line}, {"message", failure.message}};
    if (!failure.note.empty())
      object["note"] = failure.note;
    failures.push_back(std::move(object));
  }
  json::Object object{{"script", path},
                      {"status", getStatusName(result.status)},
                      {"reason", result.reason},
                      {"failures", std::move(failures)},
                      {"time_ms", milliseconds}};
  outs() << json::Value(std::move(object)) << "\n";
}

static void printText(StringRef path, const ScriptResult &result) {
  switch (result.status) {
  case ScriptResult::Status::Pass:
    outs() << "PASS " << path << "\n";
    return;
  case ScriptResult::Status::Skip:
    outs() << "SKIP " << path << ": " << result.reason << "\n";
    return;
  case ScriptResult::Status::Fail:
    outs() << "FAIL " << path << "\n";
    // A failure of the whole script (it does not parse) names its place.
    for (const ScriptFailure &failure : result.failures) {
      outs() << "  ";
      if (failure.line)
        outs() << path << ":" << failure.line << ": ";
      // Continuation lines (a validator's instruction, a note) stay under
      // their failure.
      SmallVector<StringRef> lines;
      StringRef(failure.message).split(lines, '\n');
      outs() << join(lines, "\n    ") << "\n";
      if (!failure.note.empty())
        outs() << "    note: " << failure.note << "\n";
    }
    return;
  }
}

int spvb::runScriptFile(StringRef path, const ExecutorOptions &options,
                        bool json) {
  auto start = std::chrono::steady_clock::now();
  ScriptResult result;
  Expected<Script> script = parseScript(path);
  if (!script) {
    std::string message = toString(script.takeError());
    errs() << message << "\n";
    StringRef text(message);
    text.consume_front("error: ");
    result.fail(0, text.str());
  } else {
    Expected<std::unique_ptr<JitCompiler>> jit = tools::createJitCompiler(
        options.compile.debug || options.debugPixel.has_value());
    if (!jit) {
      errs() << toString(jit.takeError()) << "\n";
      return 1;
    }
    result = executeScript(*script, **jit, options);
  }
  double milliseconds = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  if (json)
    printJson(path, result, milliseconds);
  else
    printText(path, result);
  switch (result.status) {
  case ScriptResult::Status::Pass:
    return 0;
  case ScriptResult::Status::Skip:
    return kSkippedExitStatus;
  case ScriptResult::Status::Fail:
    return 1;
  }
  return 1;
}
