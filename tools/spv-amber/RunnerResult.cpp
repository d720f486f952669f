//===- RunnerResult.cpp - A runner's exit and output as a result ----------===//
#include "RunnerResult.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

using namespace llvm;
using namespace spvb::driver;

namespace {

/// The last line of \p text that satisfies \p predicate, trimmed; empty if
/// none does.
template <typename Predicate>
StringRef findLastLine(StringRef text, Predicate predicate) {
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : llvm::reverse(lines)) {
    line = line.trim();
    if (!line.empty() && predicate(line))
      return line;
  }
  return {};
}

int getExitStatusOf(Outcome outcome) {
  switch (outcome) {
  case Outcome::Pass:
    return 0;
  case Outcome::Fail:
    return 1;
  case Outcome::Skip:
    return 77;
  }
  llvm_unreachable("unknown outcome");
}

TestResult makeFailure(std::string reason, std::string errorOutput) {
  TestResult result;
  result.outcome = Outcome::Fail;
  result.reason = std::move(reason);
  result.errorOutput = std::move(errorOutput);
  return result;
}

/// The result a runner that exited with \p status reported in \p line.
TestResult readResult(int status, StringRef line, std::string errorOutput) {
  std::string prefix = "runner exited with status " + std::to_string(status);
  Expected<json::Value> value = json::parse(line);
  if (!value)
    return makeFailure(
        prefix + " and an unreadable result: " + toString(value.takeError()),
        std::move(errorOutput));
  const json::Object *object = value->getAsObject();
  std::optional<StringRef> statusName =
      object ? object->getString("status") : std::nullopt;
  std::optional<Outcome> outcome =
      statusName ? parseOutcome(*statusName) : std::nullopt;
  if (!outcome)
    return makeFailure(prefix + " and a result without a \"status\" of "
                                "pass, fail or skip",
                       std::move(errorOutput));
  // The exit status is what CI scripts calling the runner alone trust, so
  // a result that contradicts it is a runner bug, not a pass.
  if (getExitStatusOf(*outcome) != status)
    return makeFailure(prefix + " but reported " + statusName->str(),
                       std::move(errorOutput));

  TestResult result;
  result.outcome = *outcome;
  result.errorOutput = std::move(errorOutput);
  if (*outcome == Outcome::Pass)
    return result;
  result.reason = object->getString("reason").value_or("").str();
  if (result.reason.empty())
    result.reason = "the runner gave no reason";
  if (const json::Array *failures = object->getArray("failures")) {
    for (const json::Value &entry : *failures) {
      const json::Object *failure = entry.getAsObject();
      if (!failure)
        continue;
      result.failures.push_back(
          {failure->getInteger("line").value_or(0),
           failure->getString("message").value_or("").str()});
    }
  }
  return result;
}

} // namespace

TestResult spvb::driver::interpretRunner(const ChildExit &exit,
                                         StringRef output,
                                         std::string errorOutput) {
  switch (exit.kind) {
  case ChildExit::Kind::NotRun:
    return makeFailure("cannot run the runner: " + exit.message,
                       std::move(errorOutput));
  case ChildExit::Kind::Signaled:
    return makeFailure(exit.code
                           ? "crashed (signal " + std::to_string(exit.code) +
                                 ": " + exit.message + ")"
                           : "crashed (" + exit.message + ")",
                       std::move(errorOutput));
  case ChildExit::Kind::Exited:
    break;
  }
  StringRef line = findLastLine(
      output, [](StringRef line) { return line.starts_with("{"); });
  if (!line.empty())
    return readResult(exit.code, line, std::move(errorOutput));
  std::string reason = "runner exited with status " +
                       std::to_string(exit.code) + " and no result";
  StringRef lastError =
      findLastLine(errorOutput, [](StringRef) { return true; });
  if (!lastError.empty())
    reason += ": " + lastError.str();
  return makeFailure(std::move(reason), std::move(errorOutput));
}

TestResult spvb::driver::makeTimeoutResult(unsigned seconds,
                                           std::string errorOutput) {
  return makeFailure("timed out after " + std::to_string(seconds) + " s",
                     std::move(errorOutput));
}
