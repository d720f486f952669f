//===- WorkerPool.cpp - Threads that run one job together -----------------===//
#include "WorkerPool.h"

#include <chrono>

using namespace spvb::runtime;

/// How long an idle helper watches for the next job before it sleeps:
/// longer than the serial gap between a draw's stages or two dispatches of
/// a script, short enough not to steal a core from other processes.
static constexpr std::chrono::microseconds kSpinTime{2000};

static void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// Spins until `done()` or the spin time has passed; true if done. After
/// a short busy spin it yields between checks, so that with more threads
/// than cores (other processes, or threads of other launchers) the thread
/// that has work runs.
template <typename Done> static bool spinUntil(Done done) {
  constexpr unsigned kBusyChecks = 1024;
  auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  for (unsigned i = 1;; ++i) {
    if (done())
      return true;
    if (i < kBusyChecks) {
      pause();
      continue;
    }
    std::this_thread::yield();
    if (i % 16 == 0 && std::chrono::steady_clock::now() >= deadline)
      return done();
  }
}

WorkerPool::WorkerPool(unsigned threads) {
  for (unsigned thread = 1; thread < threads; ++thread)
    helpers.emplace_back([this, thread] { helperLoop(thread); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping.store(true);
  }
  wake.notify_all();
  for (std::thread &helper : helpers)
    helper.join();
}

void WorkerPool::helperLoop(unsigned thread) {
  uint64_t seen = 0;
  for (;;) {
    auto started = [&] {
      return generation.load(std::memory_order_acquire) != seen;
    };
    if (!spinUntil(started)) {
      std::unique_lock<std::mutex> lock(mutex);
      wake.wait(lock, [&] { return started() || stopping.load(); });
    }
    if (stopping.load())
      return;
    seen = generation.load(std::memory_order_acquire);
    job(thread);
    if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::lock_guard<std::mutex> lock(mutex);
      done.notify_one();
    }
  }
}

void WorkerPool::run(llvm::function_ref<void(unsigned)> body) {
  if (helpers.empty()) {
    body(0);
    return;
  }
  std::lock_guard<std::mutex> turn(runMutex);
  job = body;
  pending.store(helpers.size(), std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex);
    generation.fetch_add(1, std::memory_order_release);
  }
  wake.notify_all();
  body(0);
  auto finished = [&] { return pending.load(std::memory_order_acquire) == 0; };
  if (!spinUntil(finished)) {
    std::unique_lock<std::mutex> lock(mutex);
    done.wait(lock, finished);
  }
}
