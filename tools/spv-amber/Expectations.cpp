//===- Expectations.cpp - Pinned outcomes of a corpus ---------------------===//
#include "Expectations.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace spvb::driver;

namespace {

constexpr StringLiteral defaultHeader =
    "# spv-amber expectations: SCRIPT<TAB>pass, or SCRIPT<TAB>fail|skip<TAB>\n"
    "# REASON; SCRIPT relative to the deepest directory holding every PATH\n"
    "# spv-amber runs. Rewrite with\n"
    "# spv-amber --expectations FILE --update PATH...\n";

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "error: " + message);
}

} // namespace

Expected<Expectations> spvb::driver::readExpectations(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return makeError("--expectations '" + path +
                     "': " + buffer.getError().message());
  Expectations expectations;
  bool inHeader = true;
  SmallVector<StringRef> lines;
  (*buffer)->getBuffer().split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    StringRef line = lines[i].rtrim("\r");
    std::string where = (path + ":" + Twine(i + 1)).str();
    if (line.trim().empty() || line.starts_with("#")) {
      if (inHeader && !line.trim().empty())
        expectations.header += line.str() + "\n";
      continue;
    }
    inHeader = false;
    auto [key, rest] = line.split('\t');
    auto [outcomeName, reason] = rest.split('\t');
    if (key.empty() || outcomeName.empty())
      return makeError(where +
                       ": expected SCRIPT<TAB>OUTCOME[<TAB>REASON], "
                       "got '" +
                       line + "'");
    std::optional<Outcome> outcome = parseOutcome(outcomeName.trim());
    if (!outcome)
      return makeError(where + ": unknown outcome '" + outcomeName +
                       "' (expected pass, fail or skip)");
    if (*outcome == Outcome::Pass && !reason.empty())
      return makeError(where + ": a pass has no reason");
    if (!expectations.outcomes
             .emplace(key.str(), ExpectedOutcome{*outcome, reason.str()})
             .second)
      return makeError(where + ": '" + key + "' is listed twice");
  }
  return expectations;
}

size_t spvb::driver::printChanges(raw_ostream &os, const Expectations &expected,
                                  ArrayRef<Script> scripts,
                                  ArrayRef<TestResult> results) {
  // Every key of either side, in order, so the list reads like the file.
  std::map<std::string, const TestResult *> actual;
  for (size_t i = 0; i < scripts.size(); ++i)
    actual[scripts[i].key] = &results[i];
  std::map<std::string,
           std::pair<std::optional<ExpectedOutcome>, const TestResult *>>
      keys;
  for (const auto &[key, outcome] : expected.outcomes)
    keys[key].first = outcome;
  for (const auto &[key, result] : actual)
    keys[key].second = result;

  size_t changes = 0;
  for (const auto &[key, sides] : keys) {
    const auto &[outcome, result] = sides;
    if (outcome && result && outcome->outcome == result->outcome &&
        (outcome->reason.empty() || outcome->reason == result->reason))
      continue;
    ++changes;
    os << "changed: " << key << ": ";
    if (!result) {
      os << "expected " << getOutcomeName(outcome->outcome) << ", not found\n";
      continue;
    }
    if (outcome) {
      os << "expected " << getOutcomeName(outcome->outcome);
      if (!outcome->reason.empty())
        os << " (" << outcome->reason << ")";
      os << ", got ";
    } else {
      os << "not listed, got ";
    }
    os << getOutcomeName(result->outcome);
    if (result->outcome != Outcome::Pass)
      os << " (" << result->reason << ")";
    os << "\n";
  }
  return changes;
}

Error spvb::driver::writeExpectations(StringRef path, StringRef header,
                                      ArrayRef<Script> scripts,
                                      ArrayRef<TestResult> results) {
  std::map<StringRef, const TestResult *> outcomes;
  for (size_t i = 0; i < scripts.size(); ++i)
    outcomes[scripts[i].key] = &results[i];
  Error error = writeToOutput(path, [&](raw_ostream &os) {
    os << (header.empty() ? StringRef(defaultHeader) : header);
    for (const auto &[key, result] : outcomes) {
      os << key << "\t" << getOutcomeName(result->outcome);
      // A reason is one line; it is pinned with the outcome.
      if (result->outcome != Outcome::Pass && !result->reason.empty() &&
          !StringRef(result->reason).contains_insensitive('\n'))
        os << "\t" << result->reason;
      os << "\n";
    }
    return Error::success();
  });
  if (error)
    return makeError("--expectations '" + path +
                     "': " + toString(std::move(error)));
  return Error::success();
}
