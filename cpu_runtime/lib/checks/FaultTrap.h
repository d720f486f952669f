//===- FaultTrap.h - Hardware faults in kernel code become errors -*- C++
//-*-===//
//
// Generated code that reads or writes outside its memory, overflows its
// stack or traps would kill the process; one that never ends would hang it. A
// FaultTrap runs kernel code so that such a signal (SIGSEGV, SIGBUS, SIGFPE,
// SIGILL) returns to the trap instead: the handler runs on an alternate stack
// (a stack overflow leaves no room on the thread's own) and jumps back with
// siglongjmp. A signal on a thread outside a trap goes to the handler that was
// there before.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FAULTTRAP_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FAULTTRAP_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <pthread.h>

namespace spvb::runtime {

/// What the handler saw.
struct TrappedSignal {
  int signal = 0;
  /// siginfo_t::si_code: SI_KERNEL for a general-protection fault, which
  /// carries no address.
  int code = 0;
  uintptr_t address = 0;
  uintptr_t stackPointer = 0;
  /// From the page-fault error code where the host tells it (x86-64).
  enum class Access { Unknown, Read, Write } access = Access::Unknown;
};

class FaultTrap {
public:
  /// Installs the process's handlers (again, should something have replaced
  /// them); once per launch, before any FaultTrap runs.
  static void installHandlers();

  /// Cancellation: generated code cannot be interrupted, so a thread that
  /// must stop is sent getCancelSignal() (sendCancel) while cancelling is
  /// on (startCancelling). A trap running kernel code then ends as after a
  /// fault, with that signal, if the thread was in generated code; in a
  /// loaded object's code (the runtime, the C library), which may hold a
  /// lock, it goes on, and the canceller sends the signal again later.
  static int getCancelSignal();
  static void startCancelling();
  static void stopCancelling();
  static void sendCancel(pthread_t thread);
  /// Gives this thread an alternate signal stack if it has none.
  FaultTrap();

  /// Runs `body` on this thread. After a fault, whatever `body` had on its
  /// stack (and on fibers it switched to) is abandoned, destructors unrun:
  /// keep nothing there that must be released.
  std::optional<TrappedSignal> run(llvm::function_ref<void()> body);
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FAULTTRAP_H
