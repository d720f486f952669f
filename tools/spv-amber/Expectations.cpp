//===- Expectations.cpp - Pinned outcomes of a corpus ---------------------===//
#include "Expectations.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace spvb::driver;

namespace {

constexpr StringLiteral defaultHeader =
    "# spv-amber expectations: SCRIPT<TAB>pass|fail|skip, SCRIPT relative to\n"
    "# the deepest directory holding every PATH spv-amber runs. Rewrite with\n"
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
    auto [key, outcomeName] = line.split('\t');
    if (key.empty() || outcomeName.empty() || outcomeName.contains('\t'))
      return makeError(where + ": expected SCRIPT<TAB>OUTCOME, got '" + line +
                       "'");
    std::optional<Outcome> outcome = parseOutcome(outcomeName.trim());
    if (!outcome)
      return makeError(where + ": unknown outcome '" + outcomeName +
                       "' (expected pass, fail or skip)");
    if (!expectations.outcomes.emplace(key.str(), *outcome).second)
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
  std::map<std::string, std::pair<std::optional<Outcome>, const TestResult *>>
      keys;
  for (const auto &[key, outcome] : expected.outcomes)
    keys[key].first = outcome;
  for (const auto &[key, result] : actual)
    keys[key].second = result;

  size_t changes = 0;
  for (const auto &[key, sides] : keys) {
    const auto &[outcome, result] = sides;
    if (outcome && result && *outcome == result->outcome)
      continue;
    ++changes;
    os << "changed: " << key << ": ";
    if (!result) {
      os << "expected " << getOutcomeName(*outcome) << ", not found\n";
      continue;
    }
    if (outcome)
      os << "expected " << getOutcomeName(*outcome) << ", got ";
    else
      os << "not listed, got ";
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
  std::map<StringRef, Outcome> outcomes;
  for (size_t i = 0; i < scripts.size(); ++i)
    outcomes[scripts[i].key] = results[i].outcome;
  Error error = writeToOutput(path, [&](raw_ostream &os) {
    os << (header.empty() ? StringRef(defaultHeader) : header);
    for (const auto &[key, outcome] : outcomes)
      os << key << "\t" << getOutcomeName(outcome) << "\n";
    return Error::success();
  });
  if (error)
    return makeError("--expectations '" + path +
                     "': " + toString(std::move(error)));
  return Error::success();
}
