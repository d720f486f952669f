//===- Watchdog.cpp - Ends a run whose dispatch never finishes ------------===//
#include "Watchdog.h"

#include <cstdio>
#include <cstdlib>

using namespace spvb::run;

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
  {
    std::lock_guard<std::mutex> lock(mutex);
    setDeadline();
  }
  changed.notify_all();
}

void Watchdog::arm(std::chrono::duration<double> newTimeout,
                   std::function<std::string()> newDescribe) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    timeout = newTimeout;
    describe = std::move(newDescribe);
    setDeadline();
  }
  changed.notify_all();
}

void Watchdog::disarm() {
  if (!thread.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex);
    deadline.reset();
  }
  changed.notify_all();
}

void Watchdog::watch() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    if (!deadline) {
      changed.wait(lock);
      continue;
    }
    if (changed.wait_until(lock, *deadline) == std::cv_status::timeout &&
        deadline && std::chrono::steady_clock::now() >= *deadline) {
      // The workers are still running generated code: nothing to unwind.
      std::string message = describe();
      std::fputs(message.c_str(), stderr);
      std::fputc('\n', stderr);
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(1);
    }
  }
}
