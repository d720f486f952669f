//===- Console.cpp - Progress, per-script lines and the summary -----------===//
#include "Console.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace llvm;
using namespace spvb::driver;

Console::Console(raw_ostream &os, ArrayRef<Script> scripts, Verbosity verbosity,
                 bool live, unsigned columns)
    : os(os), scripts(scripts), verbosity(verbosity), live(live),
      columns(columns) {}

void Console::started(size_t index) {
  running.insert(index);
  drawProgress();
}

void Console::finished(size_t index, const TestResult &result) {
  running.erase(index);
  tally.add(result.outcome);
  clearProgress();
  printResult(scripts[index], result);
  drawProgress();
}

void Console::printResult(const Script &script, const TestResult &result) {
  if (verbosity == Verbosity::Quiet)
    return;
  switch (result.outcome) {
  case Outcome::Pass:
    if (verbosity == Verbosity::Verbose)
      os << "PASS: " << script.path << " (" << format("%.2f", result.seconds)
         << " s)\n";
    break;
  case Outcome::Skip:
    if (verbosity == Verbosity::Verbose)
      os << "SKIP: " << script.path << ": " << result.reason << "\n";
    break;
  case Outcome::Fail:
    os << "FAIL: " << script.path << ": " << result.reason << "\n";
    for (const FailureEntry &failure : result.failures) {
      os << "  " << script.path;
      if (failure.line > 0)
        os << ":" << failure.line;
      os << ": " << failure.message << "\n";
    }
    if (verbosity == Verbosity::Verbose && !result.errorOutput.empty()) {
      os << "  stderr:\n";
      SmallVector<StringRef> lines;
      StringRef(result.errorOutput).rtrim().split(lines, '\n');
      for (StringRef line : lines)
        os << "    " << line << "\n";
    }
    break;
  }
  os.flush();
}

void Console::clearProgress() {
  if (shownProgress.empty())
    return;
  os << '\r';
  os.indent(shownProgress.size());
  os << '\r';
  shownProgress.clear();
}

void Console::drawProgress() {
  if (!live)
    return;
  std::string line;
  raw_string_ostream text(line);
  text << "[" << tally.getTotal() << "/" << scripts.size() << "] "
       << tally.passed << " passed, " << tally.failed << " failed, "
       << tally.skipped << " skipped";
  // Stay short of the last column: a full line wraps on some terminals, and
  // '\r' then returns to the wrapped part only.
  size_t width = columns > 1 ? columns - 1 : line.size();
  if (!running.empty() && line.size() + 6 < width) {
    // The end of a path tells the script apart.
    StringRef path = scripts[*running.begin()].path;
    size_t room = width - line.size() - 2;
    text << "  ";
    if (path.size() > room)
      text << "..." << path.take_back(room - 3);
    else
      text << path;
  }
  line.resize(std::min(line.size(), width));
  if (line == shownProgress)
    return;
  clearProgress();
  os << line;
  os.flush();
  shownProgress = std::move(line);
}

void Console::printSummary(ArrayRef<TestResult> results, double seconds) {
  clearProgress();
  Tally total = countOutcomes(results);
  os << total.passed << " passed, " << total.failed << " failed, "
     << total.skipped << " skipped (" << total.getTotal()
     << (total.getTotal() == 1 ? " test" : " tests") << " in "
     << format("%.1f", seconds) << " s)\n";

  if (total.failed) {
    os << "failed (" << total.failed << "):\n";
    for (size_t i = 0; i < results.size(); ++i)
      if (results[i].outcome == Outcome::Fail)
        os << "  " << scripts[i].path << ": " << results[i].reason << "\n";
  }

  StringMap<size_t> skipCounts;
  for (const TestResult &result : results)
    if (result.outcome == Outcome::Skip)
      ++skipCounts[result.reason];
  std::vector<std::pair<size_t, StringRef>> groups;
  for (const StringMapEntry<size_t> &entry : skipCounts)
    groups.push_back({entry.getValue(), entry.getKey()});
  // The most common reasons first: they are what to implement next.
  llvm::sort(groups, [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (const auto &[count, reason] : groups)
    os << "skipped (" << count << "): " << reason << "\n";
  os.flush();
}
