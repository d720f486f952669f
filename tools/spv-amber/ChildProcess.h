//===- ChildProcess.h - A runner process with captured output ---*- C++ -*-===//
//
// One child process whose stdout and stderr go to temporary files (removed
// when the ChildProcess goes away), polled without blocking so that one
// thread can watch many children and kill the ones that run too long.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_AMBER_CHILDPROCESS_H
#define SPVBRIDGE_TOOLS_SPV_AMBER_CHILDPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Program.h"

#include <memory>
#include <optional>
#include <string>

namespace spvb::driver {

/// How a child ended.
struct ChildExit {
  enum class Kind {
    /// It exited; `code` is its exit status.
    Exited,
    /// A signal ended it; `code` is the signal number (0 if unknown).
    Signaled,
    /// It could not be run at all.
    NotRun,
  };
  Kind kind = Kind::Exited;
  int code = 0;
  /// The signal's name, or why it could not run.
  std::string message;
};

class ChildProcess {
public:
  /// Starts \p program with \p args (args[0] is the program name), stdin
  /// from /dev/null.
  static llvm::Expected<std::unique_ptr<ChildProcess>>
  start(llvm::StringRef program, llvm::ArrayRef<llvm::StringRef> args);
  ~ChildProcess();
  ChildProcess(const ChildProcess &) = delete;
  ChildProcess &operator=(const ChildProcess &) = delete;

  /// How the child ended, or nothing while it runs. Never blocks.
  std::optional<ChildExit> poll();
  /// Kills the child and waits until it is gone.
  void kill();

  /// What the child wrote so far.
  std::string readOutput() const;
  std::string readErrorOutput() const;

private:
  ChildProcess() = default;

  llvm::sys::ProcessInfo process;
  llvm::SmallString<128> outputPath;
  llvm::SmallString<128> errorPath;
};

} // namespace spvb::driver

#endif // SPVBRIDGE_TOOLS_SPV_AMBER_CHILDPROCESS_H
