//===- ScriptResult.h - The outcome of one Amber script ---------*- C++ -*-===//
//
// Pass, fail (with the script line and message of each failed check or
// error) or skip (with the reason: a requirement spvbridge does not meet).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_SCRIPTRESULT_H
#define SPVBRIDGE_TOOLS_AMBER_SCRIPTRESULT_H

#include <string>
#include <vector>

namespace spvb::amber {

struct ScriptFailure {
  /// The script line of the failing command; 0 for the script as a whole.
  unsigned line = 0;
  std::string message;
  /// Where to look further, kept out of the message so that pinned
  /// outcomes do not depend on paths: the images a failed probe wrote.
  std::string note;
};

struct ScriptResult {
  enum class Status { Pass, Fail, Skip };
  Status status = Status::Pass;
  /// Skip: why; fail: the first failure's message.
  std::string reason;
  std::vector<ScriptFailure> failures;

  void fail(unsigned line, std::string message, std::string note = "") {
    if (status != Status::Fail)
      reason = message;
    status = Status::Fail;
    failures.push_back({line, std::move(message), std::move(note)});
  }
  static ScriptResult skip(std::string reason) {
    ScriptResult result;
    result.status = Status::Skip;
    result.reason = std::move(reason);
    return result;
  }
};

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_SCRIPTRESULT_H
