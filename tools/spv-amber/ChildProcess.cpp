//===- ChildProcess.cpp - A runner process with captured output -----------===//
#include "ChildProcess.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Signals.h"

#include <csignal>
#include <cstring>

using namespace llvm;
using namespace spvb::driver;

namespace {

/// sys::Wait tells a signal only by its strsignal() text; the number is the
/// one with that text.
int getSignalNumber(StringRef name) {
  for (int signal = 1; signal < NSIG; ++signal)
    if (name == strsignal(signal))
      return signal;
  return 0;
}

Error createOutputFile(StringRef suffix, SmallVectorImpl<char> &path) {
  if (std::error_code error =
          sys::fs::createTemporaryFile("spv-amber", suffix, path))
    return createStringError(error, "cannot create a temporary file: " +
                                        error.message());
  // An interrupted run leaves no files behind.
  sys::RemoveFileOnSignal(StringRef(path.data(), path.size()));
  return Error::success();
}

std::string readFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

} // namespace

Expected<std::unique_ptr<ChildProcess>>
ChildProcess::start(StringRef program, ArrayRef<StringRef> args) {
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  if (Error error = createOutputFile("out", child->outputPath))
    return error;
  if (Error error = createOutputFile("err", child->errorPath))
    return error;
  // An empty redirect is /dev/null: a runner never waits for input.
  std::optional<StringRef> redirects[] = {
      StringRef(), StringRef(child->outputPath), StringRef(child->errorPath)};
  std::string message;
  child->process = sys::ExecuteNoWait(program, args, /*Env=*/std::nullopt,
                                      redirects, /*MemoryLimit=*/0, &message);
  if (child->process.Pid == sys::ProcessInfo::InvalidPid)
    return createStringError(inconvertibleErrorCode(), message);
  return child;
}

ChildProcess::~ChildProcess() {
  for (StringRef path : {StringRef(outputPath), StringRef(errorPath)}) {
    if (path.empty())
      continue;
    sys::fs::remove(path);
    sys::DontRemoveFileOnSignal(path);
  }
}

std::optional<ChildExit> ChildProcess::poll() {
  std::string message;
  // Polling: a wait that a signal interrupts must not kill the child (it
  // comes back as pid -1 with return code 0: look again later).
  sys::ProcessInfo waited = sys::Wait(process, /*SecondsToWait=*/0, &message,
                                      /*ProcStat=*/nullptr, /*Polling=*/true);
  if (waited.Pid != process.Pid) {
    if (waited.Pid == sys::ProcessInfo::InvalidPid || waited.ReturnCode != -1)
      return std::nullopt;
    return ChildExit{ChildExit::Kind::NotRun, 0, message};
  }
  if (waited.ReturnCode >= 0)
    return ChildExit{ChildExit::Kind::Exited, waited.ReturnCode, ""};
  if (waited.ReturnCode == -2) {
    StringRef name(message);
    name.consume_back(" (core dumped)");
    return ChildExit{ChildExit::Kind::Signaled, getSignalNumber(name),
                     name.str()};
  }
  // sys::Wait turns exit status 127 and 126 (what the shell and posix_spawn
  // report for a program that cannot be executed) into -1.
  return ChildExit{ChildExit::Kind::NotRun, 0, message};
}

void ChildProcess::kill() {
  // LLVM kills only from sys::Wait's timeout, which arms the process-wide
  // alarm() and then reaps any child: wrong with several children running.
  ::kill(process.Pid, SIGKILL);
  sys::Wait(process, /*SecondsToWait=*/std::nullopt);
}

std::string ChildProcess::readOutput() const { return readFile(outputPath); }

std::string ChildProcess::readErrorOutput() const {
  return readFile(errorPath);
}
