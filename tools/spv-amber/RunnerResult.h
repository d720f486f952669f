//===- RunnerResult.h - A runner's exit and output as a result --*- C++ -*-===//
//
// The runner (spv-run SCRIPT --json) exits 0, 1 or 77 for pass, fail or skip
// and prints one JSON object as the last stdout line that starts with '{':
//   {"script": "...", "status": "pass"|"fail"|"skip", "reason": "...",
//    "failures": [{"line": 12, "message": "..."}], "time_ms": 12.5}
// Anything else (a signal, no or unreadable JSON, an exit status that
// contradicts the JSON) is a failure whose reason says what happened.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_RUNNERRESULT_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_RUNNERRESULT_H

#include "ChildProcess.h"
#include "TestResult.h"

namespace spvb::driver {

/// The result of a runner that ended as \p exit having written \p output to
/// stdout and \p errorOutput to stderr; `seconds` is left to the caller.
TestResult interpretRunner(const ChildExit &exit, llvm::StringRef output,
                           std::string errorOutput);

/// The result of a runner killed after running \p seconds.
TestResult makeTimeoutResult(unsigned seconds, std::string errorOutput);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_RUNNERRESULT_H
