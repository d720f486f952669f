//===- TestResult.cpp - What one script's run came to ---------------------===//
#include "TestResult.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;

StringRef spvb::driver::getOutcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Pass:
    return "pass";
  case Outcome::Fail:
    return "fail";
  case Outcome::Skip:
    return "skip";
  }
  llvm_unreachable("unknown outcome");
}

std::optional<spvb::driver::Outcome>
spvb::driver::parseOutcome(StringRef name) {
  return StringSwitch<std::optional<Outcome>>(name)
      .Case("pass", Outcome::Pass)
      .Case("fail", Outcome::Fail)
      .Case("skip", Outcome::Skip)
      .Default(std::nullopt);
}

void spvb::driver::Tally::add(Outcome outcome) {
  switch (outcome) {
  case Outcome::Pass:
    ++passed;
    return;
  case Outcome::Fail:
    ++failed;
    return;
  case Outcome::Skip:
    ++skipped;
    return;
  }
  llvm_unreachable("unknown outcome");
}

spvb::driver::Tally spvb::driver::countOutcomes(ArrayRef<TestResult> results) {
  Tally tally;
  for (const TestResult &result : results)
    tally.add(result.outcome);
  return tally;
}
