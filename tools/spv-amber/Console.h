//===- Console.h - Progress, per-script lines and the summary ---*- C++ -*-===//
//
// On a terminal one progress line is redrawn in place:
//   [12/80] 10 passed, 1 failed, 1 skipped  path/of/the/oldest-running.amber
// Elsewhere (a CI log) there are plain lines only. Each failure prints
//   FAIL: path: reason
//     path:LINE: message          (each failure the runner reported)
// and the end a summary: the counts, the failed scripts, and the skips
// grouped by reason.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_CONSOLE_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_CONSOLE_H

#include "Scripts.h"
#include "TestResult.h"

#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>

namespace spvb::driver {

enum class Verbosity {
  /// No per-script lines: only the summary.
  Quiet,
  /// Failures as they happen.
  Normal,
  /// Every script's result, and the runner's stderr for failures.
  Verbose,
};

class Console {
public:
  /// \p live: redraw a progress line (\p os is a terminal \p columns wide).
  Console(llvm::raw_ostream &os, llvm::ArrayRef<Script> scripts,
          Verbosity verbosity, bool live, unsigned columns);

  void started(size_t index);
  void finished(size_t index, const TestResult &result);
  /// Ends the progress line and prints the summary of \p results (those of
  /// all scripts) that took \p seconds.
  void printSummary(llvm::ArrayRef<TestResult> results, double seconds);

private:
  void printResult(const Script &script, const TestResult &result);
  void clearProgress();
  void drawProgress();

  llvm::raw_ostream &os;
  llvm::ArrayRef<Script> scripts;
  Verbosity verbosity;
  bool live;
  unsigned columns;
  /// Indices of the running scripts: the first started longest ago.
  std::set<size_t> running;
  Tally tally;
  /// The progress line on screen, if any.
  std::string shownProgress;
};

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_CONSOLE_H
