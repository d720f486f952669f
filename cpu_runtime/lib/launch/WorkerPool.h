//===- WorkerPool.h - Threads that run one job together ---------*- C++ -*-===//
//
// A dispatch or a draw is a job every thread works on until a shared queue
// is empty. The calling thread works too, and helper threads spin briefly
// before they sleep: on virtual machines a sleeping thread can take a
// millisecond or more to wake, longer than many dispatches last, so a pool
// that always sleeps (llvm::StdThreadPool) leaves the second core idle on
// short back-to-back launches.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_WORKERPOOL_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_WORKERPOOL_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace spvb::runtime {

class WorkerPool {
public:
  /// `threads` workers in all, the caller of run() included.
  explicit WorkerPool(unsigned threads);
  ~WorkerPool();

  unsigned getThreadCount() const { return helpers.size() + 1; }

  /// Calls `body(thread)` once on each worker, thread 0 being the caller,
  /// and returns when all calls have returned. Calls from several threads
  /// take turns; `body` must not call run() again.
  void run(llvm::function_ref<void(unsigned thread)> body);

private:
  void helperLoop(unsigned thread);

  std::vector<std::thread> helpers;
  /// Serializes run() callers.
  std::mutex runMutex;
  /// Guards sleeping: generation changes and `stopping` happen under it.
  std::mutex mutex;
  std::condition_variable wake, done;
  std::atomic<uint64_t> generation{0};
  std::atomic<unsigned> pending{0};
  llvm::function_ref<void(unsigned)> job;
  std::atomic<bool> stopping{false};
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_WORKERPOOL_H
