//===- TestResult.h - What one script's run came to -------------*- C++ -*-===//
//
// The outcome of running one script in its child process: pass, fail or
// skip, with the reason (one line) and, for a failed EXPECT, the script line
// and message of each failure the runner reported.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_TESTRESULT_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_TESTRESULT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvb::driver {

enum class Outcome { Pass, Fail, Skip };

/// "pass", "fail" or "skip": the runner's JSON status and the expectations
/// file use these words.
llvm::StringRef getOutcomeName(Outcome outcome);
/// The outcome \p name names, if any.
std::optional<Outcome> parseOutcome(llvm::StringRef name);

/// One failed EXPECT (or error) the runner reported.
struct FailureEntry {
  /// The script line; 0 when the runner gave none.
  int64_t line = 0;
  std::string message;
};

struct TestResult {
  Outcome outcome = Outcome::Fail;
  /// Why it failed or was skipped; empty for a pass.
  std::string reason;
  std::vector<FailureEntry> failures;
  /// Everything the runner wrote to stderr (for -v and the JUnit report).
  std::string errorOutput;
  /// Wall-clock time of the child process.
  double seconds = 0;
};

/// How many results have each outcome.
struct Tally {
  size_t passed = 0;
  size_t failed = 0;
  size_t skipped = 0;

  void add(Outcome outcome);
  size_t getTotal() const { return passed + failed + skipped; }
};

Tally countOutcomes(llvm::ArrayRef<TestResult> results);

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_TESTRESULT_H
