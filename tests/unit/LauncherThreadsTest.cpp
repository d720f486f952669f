//===- LauncherThreadsTest.cpp - Launcher::runOnAllThreads ----------------===//
#include "spvbridge/cpu_runtime/Launcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

using namespace spvb::runtime;

namespace {

// Every run calls the body once per thread, thread 0 on the caller, and
// returns only after all calls did: many short runs in a row, as a draw's
// stages and a script's dispatches make them.
void checkRuns(unsigned threads) {
  Launcher launcher(threads);
  ASSERT_EQ(launcher.getThreadCount(), threads);
  std::thread::id caller = std::this_thread::get_id();
  for (int run = 0; run < 2000; ++run) {
    std::mutex mutex;
    std::multiset<unsigned> seen;
    std::atomic<unsigned> onCaller{0};
    launcher.runOnAllThreads([&](unsigned thread) {
      if (thread == 0 && std::this_thread::get_id() == caller)
        ++onCaller;
      std::lock_guard<std::mutex> lock(mutex);
      seen.insert(thread);
    });
    ASSERT_EQ(seen.size(), threads) << "run " << run;
    for (unsigned thread = 0; thread < threads; ++thread)
      ASSERT_EQ(seen.count(thread), 1u) << "run " << run;
    ASSERT_EQ(onCaller.load(), 1u) << "run " << run;
  }
}

TEST(LauncherThreads, OneThreadRunsOnTheCaller) { checkRuns(1); }

TEST(LauncherThreads, EveryThreadOncePerRun) { checkRuns(3); }

TEST(LauncherThreads, RunsFromSeveralThreadsTakeTurns) {
  Launcher launcher(2);
  std::atomic<int> inside{0}, overlap{0}, calls{0};
  auto client = [&] {
    for (int run = 0; run < 500; ++run)
      launcher.runOnAllThreads([&](unsigned thread) {
        if (thread == 0 && inside.fetch_add(1) != 0)
          ++overlap;
        ++calls;
        if (thread == 0)
          --inside;
      });
  };
  std::thread a(client), b(client);
  a.join();
  b.join();
  EXPECT_EQ(overlap.load(), 0);
  EXPECT_EQ(calls.load(), 2 * 500 * 2);
}

} // namespace
