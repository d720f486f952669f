//===- Watchdog.h - Ends a run whose dispatch never finishes ----*- C++ -*-===//
//
// Generated code cannot be interrupted: a shader that loops forever would
// hang spv-run. While armed, the watchdog's thread waits for the deadline;
// if it passes, it prints the error `describe` gives and ends the process
// with exit code 1, as a GPU driver's timeout ends a hung submission; or,
// armed with a canceller, calls that (the Python module's dispatches).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_WATCHDOG_H
#define SPVBRIDGE_CPU_RUNTIME_WATCHDOG_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace spvb::runtime {

class Watchdog {
public:
  /// A zero `timeout` never fires.
  Watchdog(std::chrono::duration<double> timeout,
           std::function<std::string()> describe);
  /// A watchdog each arm() gives its timeout and message: one thread for
  /// the runs of a long-lived process (the Python module's).
  Watchdog();
  ~Watchdog();

  /// Starts the countdown (for one dispatch).
  void arm();
  /// Starts a countdown of \p timeout (zero: none) whose message is
  /// \p describe's. With \p expire, the deadline calls it with the
  /// message instead of ending the process, and again every 10 ms until
  /// disarm(): a canceller that may need repeating (Launcher::cancel).
  /// With \p interrupt too, the flag turning true (a signal handler sets
  /// it) calls \p expire as the deadline does; it is polled every 50 ms.
  void arm(std::chrono::duration<double> timeout,
           std::function<std::string()> describe,
           std::function<void(const std::string &)> expire = nullptr,
           const std::atomic<bool> *interrupt = nullptr);
  /// Stops it.
  void disarm();

private:
  void watch();
  /// The deadline of a countdown starting now (a new arming); with the
  /// mutex held.
  void setDeadline();
  /// Whether the thread's wait ends after what is now due (a thread not
  /// waiting looks again anyway); with the mutex held.
  bool needsWaking() const;

  static constexpr std::chrono::milliseconds PollInterval{50};

  std::chrono::duration<double> timeout;
  std::function<std::string()> describe;
  std::function<void(const std::string &)> expire;
  const std::atomic<bool> *interrupt = nullptr;
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  bool stopping = false;
  /// When the thread's wait ends (min: it is not waiting).
  std::chrono::steady_clock::time_point waitingUntil =
      std::chrono::steady_clock::time_point::min();
  /// Counts arm() and disarm() calls.
  uint64_t armings = 0;
  std::thread thread;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_WATCHDOG_H
