//===- FaultTrap.cpp - Hardware faults in kernel code become errors -------===//
#include "FaultTrap.h"

#include <csetjmp>
#include <csignal>
#include <mutex>
#include <sys/mman.h>
#include <ucontext.h>

using namespace spvb::runtime;

static constexpr int kTrappedSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};

namespace {

struct ThreadTrap {
  sigjmp_buf jump;
  /// Set only while kernel code runs on this thread.
  volatile sig_atomic_t armed = 0;
  TrappedSignal signal;
};

/// This thread's alternate signal stack, if it had none of its own.
struct AlternateStack {
  static constexpr size_t kSize = 64 * 1024;
  void *memory = nullptr;

  void ensure() {
    stack_t current;
    if (memory || sigaltstack(nullptr, &current) != 0 ||
        !(current.ss_flags & SS_DISABLE))
      return;
    void *mapped = mmap(nullptr, kSize, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
      return;
    stack_t stack{};
    stack.ss_sp = mapped;
    stack.ss_size = kSize;
    if (sigaltstack(&stack, nullptr) != 0) {
      munmap(mapped, kSize);
      return;
    }
    memory = mapped;
  }
  ~AlternateStack() {
    if (!memory)
      return;
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && current.ss_sp == memory) {
      stack_t disable{};
      disable.ss_flags = SS_DISABLE;
      sigaltstack(&disable, nullptr);
    }
    munmap(memory, kSize);
  }
};

} // namespace

static thread_local ThreadTrap threadTrap;
static thread_local AlternateStack alternateStack;
static struct sigaction previousActions[NSIG];

/// Hands a signal that is not ours to whoever handled it before (LLVM's
/// stack dump, a sanitizer), or dies of it as the process would have.
static void forwardSignal(int signal, siginfo_t *info, void *context) {
  const struct sigaction &previous = previousActions[signal];
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
    previous.sa_sigaction(signal, info, context);
    return;
  }
  if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL &&
      previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
    return;
  }
  // The faulting instruction runs again and, now unhandled, ends the process.
  std::signal(signal, SIG_DFL);
  if (info->si_code <= 0)
    raise(signal);
}

static void handleSignal(int signal, siginfo_t *info, void *context) {
  ThreadTrap &trap = threadTrap;
  if (!trap.armed) {
    forwardSignal(signal, info, context);
    return;
  }
  trap.armed = 0;
  TrappedSignal &trapped = trap.signal;
  trapped = TrappedSignal();
  trapped.signal = signal;
  trapped.code = info->si_code;
  trapped.address = reinterpret_cast<uintptr_t>(info->si_addr);
#if defined(__x86_64__)
  const mcontext_t &machine = static_cast<ucontext_t *>(context)->uc_mcontext;
  trapped.stackPointer = machine.gregs[REG_RSP];
  if (signal == SIGSEGV && info->si_code != SI_KERNEL)
    trapped.access = (machine.gregs[REG_ERR] & 2) ? TrappedSignal::Access::Write
                                                  : TrappedSignal::Access::Read;
#elif defined(__aarch64__)
  trapped.stackPointer = static_cast<ucontext_t *>(context)->uc_mcontext.sp;
#endif
  siglongjmp(trap.jump, 1);
}

void FaultTrap::installHandlers() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  for (int signal : kTrappedSignals) {
    struct sigaction current;
    if (sigaction(signal, nullptr, &current) != 0)
      continue;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == handleSignal)
      continue;
    struct sigaction action {};
    action.sa_sigaction = handleSignal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (int blocked : kTrappedSignals)
      sigaddset(&action.sa_mask, blocked);
    previousActions[signal] = current;
    sigaction(signal, &action, nullptr);
  }
}

FaultTrap::FaultTrap() { alternateStack.ensure(); }

std::optional<TrappedSignal> FaultTrap::run(llvm::function_ref<void()> body) {
  ThreadTrap &trap = threadTrap;
  // Saving the signal mask at each call is a system call (it ran once per
  // workgroup), so only a trapped fault, which leaves the handler's signals
  // blocked, unblocks them.
  if (sigsetjmp(trap.jump, 0) != 0) {
    sigset_t trapped;
    sigemptyset(&trapped);
    for (int signal : kTrappedSignals)
      sigaddset(&trapped, signal);
    pthread_sigmask(SIG_UNBLOCK, &trapped, nullptr);
    return trap.signal;
  }
  trap.armed = 1;
  body();
  trap.armed = 0;
  return std::nullopt;
}
