//===- FaultTrap.cpp - Hardware faults in kernel code become errors -------===//
#include "FaultTrap.h"

#include <array>
#include <atomic>
#include <csetjmp>
#include <csignal>
#include <link.h>
#include <mutex>
#include <sys/mman.h>
#include <ucontext.h>

using namespace spvb::runtime;

int FaultTrap::getCancelSignal() {
  // A real-time signal: nothing else in the process is likely to use it,
  // and glibc keeps those it needs below SIGRTMIN.
  return SIGRTMIN + 5;
}

/// The signals the handler takes: faults and cancellation.
static std::array<int, 5> getHandledSignals() {
  return {SIGSEGV, SIGBUS, SIGFPE, SIGILL, FaultTrap::getCancelSignal()};
}

namespace {

/// The executable segments of the loaded objects when cancelling started:
/// code there may hold a lock, so cancellation waits for the thread to be
/// back in generated code (which is in no object).
struct LoadedCode {
  static constexpr unsigned kMaxRanges = 4096;
  uintptr_t start[kMaxRanges];
  uintptr_t end[kMaxRanges];
  std::atomic<unsigned> count{0};

  void collect() {
    count.store(0, std::memory_order_relaxed);
    unsigned found = 0;
    auto visit = [](dl_phdr_info *info, size_t, void *data) {
      auto *self = static_cast<std::pair<LoadedCode *, unsigned *> *>(data);
      for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) &header = info->dlpi_phdr[i];
        if (header.p_type != PT_LOAD || !(header.p_flags & PF_X) ||
            *self->second >= kMaxRanges)
          continue;
        uintptr_t begin = info->dlpi_addr + header.p_vaddr;
        self->first->start[*self->second] = begin;
        self->first->end[*self->second] = begin + header.p_memsz;
        ++*self->second;
      }
      return 0;
    };
    std::pair<LoadedCode *, unsigned *> data{this, &found};
    dl_iterate_phdr(visit, &data);
    count.store(found, std::memory_order_release);
  }

  /// Async-signal-safe.
  bool contains(uintptr_t address) const {
    unsigned n = count.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i)
      if (address >= start[i] && address < end[i])
        return true;
    return false;
  }
};

} // namespace

static LoadedCode loadedCode;
static std::atomic<bool> cancelling{false};
static std::mutex cancelMutex;

void FaultTrap::startCancelling() {
  std::lock_guard<std::mutex> lock(cancelMutex);
  if (cancelling.load())
    return;
  loadedCode.collect();
  cancelling.store(true);
}

void FaultTrap::stopCancelling() {
  std::lock_guard<std::mutex> lock(cancelMutex);
  cancelling.store(false);
}

void FaultTrap::sendCancel(pthread_t thread) {
  pthread_kill(thread, getCancelSignal());
}

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
  // A cancellation that came late: nothing to do.
  if (signal == FaultTrap::getCancelSignal())
    return;
  // The faulting instruction runs again and, now unhandled, ends the process.
  std::signal(signal, SIG_DFL);
  if (info->si_code <= 0)
    raise(signal);
}

static uintptr_t getProgramCounter(void *context) {
#if defined(__x86_64__)
  return static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return static_cast<ucontext_t *>(context)->uc_mcontext.pc;
#else
  return 0;
#endif
}

static void handleSignal(int signal, siginfo_t *info, void *context) {
  ThreadTrap &trap = threadTrap;
  if (signal == FaultTrap::getCancelSignal()) {
    // Ours only while cancelling; a thread outside generated code goes on
    // and is sent the signal again.
    if (!cancelling.load(std::memory_order_relaxed)) {
      forwardSignal(signal, info, context);
      return;
    }
    uintptr_t pc = getProgramCounter(context);
    if (!trap.armed || !pc || loadedCode.contains(pc))
      return;
  } else if (!trap.armed) {
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
  for (int signal : getHandledSignals()) {
    struct sigaction current;
    if (sigaction(signal, nullptr, &current) != 0)
      continue;
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == handleSignal)
      continue;
    struct sigaction action{};
    action.sa_sigaction = handleSignal;
    // Restarted: a cancellation may reach a thread in a system call.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int blocked : getHandledSignals())
      sigaddset(&action.sa_mask, blocked);
    previousActions[signal] = current;
    sigaction(signal, &action, nullptr);
  }
}

FaultTrap::FaultTrap() { alternateStack.ensure(); }

std::optional<TrappedSignal> FaultTrap::run(llvm::function_ref<void()> body) {
  // threadTrap is named, not held in a local: gcc cannot tell that a local
  // set before sigsetjmp and never changed survives the siglongjmp
  // (-Wclobbered).
  // Saving the signal mask at each call is a system call (it ran once per
  // workgroup), so only a trapped fault, which leaves the handler's signals
  // blocked, unblocks them.
  if (sigsetjmp(threadTrap.jump, 0) != 0) {
    sigset_t trapped;
    sigemptyset(&trapped);
    for (int signal : getHandledSignals())
      sigaddset(&trapped, signal);
    pthread_sigmask(SIG_UNBLOCK, &trapped, nullptr);
    return threadTrap.signal;
  }
  threadTrap.armed = 1;
  body();
  threadTrap.armed = 0;
  return std::nullopt;
}
