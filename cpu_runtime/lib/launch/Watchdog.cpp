//===- Watchdog.cpp - Ends a run whose dispatch never finishes ------------===//
#include "spvbridge/cpu_runtime/Watchdog.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace spvb::runtime;

Watchdog::Watchdog(std::chrono::duration<double> timeout,
                   std::function<std::string()> describe)
    : timeout(timeout), describe(std::move(describe)) {
  if (timeout.count() > 0)
    thread = std::thread([this] { watch(); });
}

Watchdog::Watchdog() : timeout(0) {
  thread = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  thread.join();
}

void Watchdog::setDeadline() {
  ++armings;
  if (timeout.count() > 0)
    deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   timeout);
  else
    deadline.reset();
}

void Watchdog::arm() {
  if (!thread.joinable())
    return;
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex);
    setDeadline();
    wake = needsWaking();
  }
  if (wake)
    changed.notify_all();
}

void Watchdog::arm(std::chrono::duration<double> newTimeout,
                   std::function<std::string()> newDescribe,
                   std::function<void(const std::string &)> newExpire,
                   const std::atomic<bool> *newInterrupt) {
  bool wake;
  {
    std::lock_guard<std::mutex> lock(mutex);
    timeout = newTimeout;
    describe = std::move(newDescribe);
    expire = std::move(newExpire);
    interrupt = newInterrupt;
    setDeadline();
    wake = needsWaking();
  }
  if (wake)
    changed.notify_all();
}

bool Watchdog::needsWaking() const {
  auto wake =
      deadline ? *deadline : std::chrono::steady_clock::time_point::max();
  if (expire && interrupt)
    wake = std::min(wake, std::chrono::steady_clock::now() + PollInterval);
  return wake < waitingUntil;
}

void Watchdog::disarm() {
  if (!thread.joinable())
    return;
  // The thread is not woken: at its time it finds nothing due (a wake-up
  // per dispatch cost a Python call a third of its time).
  std::lock_guard<std::mutex> lock(mutex);
  ++armings;
  deadline.reset();
  interrupt = nullptr;
}

void Watchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    // Armed with an interrupt flag, it is polled every 50 ms.
    bool polling = expire && interrupt;
    if (!deadline && !polling) {
      waitingUntil = std::chrono::steady_clock::time_point::max();
      changed.wait(lock);
      continue;
    }
    auto now = std::chrono::steady_clock::now();
    auto wake = deadline ? *deadline : now + std::chrono::hours(24);
    if (polling)
      wake = std::min(wake, now + PollInterval);
    waitingUntil = wake;
    changed.wait_until(lock, wake);
    waitingUntil = std::chrono::steady_clock::time_point::min();
    if (stopping)
      break;
    bool due = deadline && std::chrono::steady_clock::now() >= *deadline;
    if (!due && !(expire && interrupt && interrupt->load()))
      continue;
    std::string message = describe();
    if (expire) {
      // Unlocked: the canceller may wait for the run it stops. Repeated
      // unless the watchdog was disarmed or armed again meanwhile.
      std::function<void(const std::string &)> cancel = expire;
      uint64_t arming = armings;
      lock.unlock();
      cancel(message);
      lock.lock();
      if (armings == arming)
        deadline =
            std::chrono::steady_clock::now() + std::chrono::milliseconds(10);
      continue;
    }
    // The workers are still running generated code: nothing to unwind.
    std::fputs(message.c_str(), stderr);
    std::fputc('\n', stderr);
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(1);
  }
}
