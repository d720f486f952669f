//===- Launcher.h - Run a compiled kernel's workgroups ----------*- C++ -*-===//
//
// The GPU of spvbridge: spreads a dispatch's workgroups over a thread pool
// and runs every invocation. A kernel without barriers runs each workgroup as
// one call of its per-workgroup entry; a kernel with barriers runs each
// invocation on its own fiber, switching at barriers. Workgroup memory is
// filled per workgroup, with zeros unless the kernel asks otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LAUNCHER_H
#define SPVBRIDGE_CPU_RUNTIME_LAUNCHER_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <array>
#include <atomic>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <string>
#include <vector>

namespace spvb::runtime {

class PrivateAtomicCopies;
class WorkerPool;

/// The largest subgroup the runtime runs.
inline constexpr uint32_t kMaxSubgroupSize = SPVB_MAX_SUBGROUP_SIZE;
/// Whether the runtime runs subgroups of `size`: a power of two from 1 to
/// kMaxSubgroupSize.
inline constexpr bool isSubgroupSize(uint32_t size) {
  return size != 0 && size <= kMaxSubgroupSize && (size & (size - 1)) == 0;
}

/// A compiled entry point, as the runtime needs it.
struct KernelEntry {
  spvb_entry_fn invocation = nullptr;
  spvb_entry_fn workgroup = nullptr;
  spvb_kernel_info info{};
  /// The byte each workgroup's Workgroup memory starts as: 0, or 0xff to
  /// perturb memory nothing initializes (--perturb-undefined).
  uint8_t workgroupFill = 0;
  /// Compiled with race checks: a draw keeps what names each fragment for
  /// the reports of races between batches.
  bool checksRaces = false;
  /// The buffers each worker thread may change in a copy of its own
  /// (spvb_NAME_private_atomics); empty changes every buffer in place.
  std::vector<spvb_private_atomics> privateAtomics;
};

/// What one dispatch binds: the binding table in the kernel's slot order and
/// the push-constant bytes.
struct DispatchResources {
  std::vector<spvb_binding> bindings;
  std::vector<uint8_t> pushConstants;
  /// Graphics stages: invocation 0's input and output records
  /// (kernel_abi.h).
  uint8_t *stageInputs = nullptr;
  uint8_t *stageOutputs = nullptr;
  /// The subgroup size of this launch; 0: the launcher's. Fragment shaders
  /// run with 4, a quad.
  uint32_t subgroupSize = 0;
  /// The WorkgroupId of the launch's first workgroup (vkCmdDispatchBase);
  /// NumWorkgroups stays the count.
  std::array<uint32_t, 3> baseWorkgroup{};
  /// Where a geometry shader's invocations emit (spvb_dispatch's
  /// geometry_emit).
  const spvb_geometry_emit *geometryEmit = nullptr;
  /// Graphics stages: names invocation i of the launch (its linear
  /// workgroup index x the workgroup size + its local index) in the checks'
  /// messages, e.g. "vertex 5". Empty: by workgroup and local invocation.
  std::function<std::string(uint64_t)> nameInvocation;
};

/// A hardware fault in a kernel (an access outside mapped memory, a stack
/// overflow, a trap), caught on the worker thread: the dispatch stops and
/// the process goes on. Dispatch (bridge/Kernel.h) names the buffer.
class KernelFault : public llvm::ErrorInfo<KernelFault> {
public:
  static char ID;
  enum class Kind {
    /// An access to unmapped or protected memory, at `address`.
    Access,
    /// An address the host cannot use at all (non-canonical, or a
    /// misaligned vector access): the hardware gives no address.
    BadAddress,
    StackOverflow,
    /// An integer division the host traps on.
    Arithmetic,
    /// A trap instruction (generated for unreachable code).
    IllegalInstruction,
  };
  enum class Access { Unknown, Read, Write };

  Kind kind = Kind::Access;
  Access access = Access::Unknown;
  uintptr_t address = 0;
  std::array<uint32_t, 3> workgroup{};
  /// For an access in the runtime's own memory of the workgroup: "Workgroup
  /// memory" or "Private memory", with its start and size.
  std::string region;
  uintptr_t regionStart = 0;
  uint64_t regionSize = 0;
  /// How the user turns on the bounds check, for the messages' advice
  /// (spv-run's flag; a driver's variable).
  std::string boundsCheckHint = "--check-bounds";

  /// "a write", "a read" or "an access".
  llvm::StringRef getAccessPhrase() const;
  /// Where the access fell relative to [start, start + size): "a write at
  /// byte 40 of <what> (<detail>; 32 bytes), 9 bytes past its end".
  std::string describeOffset(llvm::StringRef what, llvm::StringRef detail,
                             uintptr_t start, uint64_t size) const;
  /// "the shader accessed memory outside its buffers: <place>, in workgroup
  /// (x, y, z); rerun with <boundsCheckHint> to find the instruction".
  std::string describeAccess(llvm::StringRef place) const;
  /// The message without "error: ", for callers that name the shader.
  std::string getMessage() const;
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
};

/// The first fault a dispatch's checks found in the shader, or a misuse of
/// barriers; the message is the whole "error: ..." text. Its kind lets an
/// embedder (the Python module) tell the checks apart without parsing it.
class ShaderFault : public llvm::ErrorInfo<ShaderFault> {
public:
  static char ID;
  enum class Kind {
    /// --check-bounds: an access outside its buffer.
    OutOfBounds,
    /// --check-races: two unordered accesses, one a write.
    DataRace,
    /// --check-undefined or --check-nan: an operation whose result the
    /// specifications leave undefined for its operands.
    Undefined,
    /// Launcher::cancel stopped the dispatch (a timeout).
    Cancelled,
    Other,
  };
  ShaderFault(Kind kind, std::string message)
      : kind(kind), message(std::move(message)) {}
  Kind getKind() const { return kind; }
  const std::string &getMessage() const { return message; }
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  Kind kind;
  std::string message;
};

/// Where debugPrintfEXT output goes (stdout by default); nullptr drops it.
/// One invocation of a dispatch run through another build of its kernel (a
/// debug build, CompileOptions::debug): its workgroup runs on fibers, that
/// invocation through `entry`, the others through the kernel's own
/// invocation entry; the builds share the ABI and memory layouts.
struct DebugInvocation {
  spvb_entry_fn entry = nullptr;
  std::array<uint32_t, 3> workgroup{};
  /// Its local invocation index in the workgroup.
  uint32_t localIndex = 0;
  /// Every invocation of the workgroup runs through `entry` instead, each
  /// on an OS thread of its own named for it ("inv X,Y,Z"), one at a time
  /// as on fibers: for kernels with barriers, where a debugger then lists
  /// the invocations as threads and switches between them.
  bool wholeWorkgroup = false;
  /// The thread's name while the invocation runs there (at most 15
  /// characters), or with wholeWorkgroup the prefix of "NAME/I" for local
  /// index I; empty: "inv X,Y,Z" by its global id.
  std::string threadName;
};

void setPrintfSink(FILE *file);
/// Hands each debugPrintfEXT line (newline included) to `handler` instead
/// of the sink, one line at a time (a Vulkan driver's messengers); an empty
/// function goes back to the sink.
void setPrintfHandler(std::function<void(const std::string &)> handler);

class Launcher {
public:
  /// `threads` == 0: all hardware threads.
  explicit Launcher(unsigned threads = 0, uint32_t subgroupSize = 32);
  ~Launcher();

  unsigned getThreadCount() const;
  uint32_t getSubgroupSize() const { return subgroupSize; }
  /// Hands out workgroups from the last (linear id) to the first: with one
  /// thread, a result that changes depends on the order workgroups run in.
  void setReverseOrder(bool reverse) { reverseOrder = reverse; }
  /// Runs one invocation of the following launches through a debug build
  /// (--debug-invocation); its thread is named for it meanwhile, so that a
  /// debugger's thread list shows it.
  void setDebugInvocation(std::optional<DebugInvocation> invocation) {
    debugInvocation = invocation;
  }
  const std::optional<DebugInvocation> &getDebugInvocation() const {
    return debugInvocation;
  }
  /// How many workgroups of the current (or last) launch have finished;
  /// safe to read from another thread while it runs.
  uint64_t getFinishedWorkgroups() const {
    return finishedWorkgroups.load(std::memory_order_relaxed);
  }

  /// Runs groups[0] x groups[1] x groups[2] workgroups to completion. A
  /// barrier that not every invocation of a workgroup reaches is an error
  /// (the waiting invocations are released so the dispatch still ends).
  llvm::Error launch(const KernelEntry &kernel,
                     const DispatchResources &resources,
                     std::array<uint32_t, 3> groups);

  /// Calls `body(thread)` once on each of the launcher's threads, thread 0
  /// being the caller's, and waits for all: for work spread over threads
  /// at a coarser grain than workgroups (a draw's tiles).
  void runOnAllThreads(llvm::function_ref<void(unsigned thread)> body);

  /// Stops the launch() (or runOnAllThreads()) running now, from another
  /// thread: no workgroup starts any more, and each thread in generated
  /// code leaves it as after a fault; launch() then fails with
  /// ShaderFault::Kind::Cancelled and `message`. A thread outside generated
  /// code (in the runtime or the C library) goes on until it is back: call
  /// again until the run returns. Without a run, nothing happens.
  void cancel(const std::string &message);
  /// The cancellation of the last run as an error (once), or success: for
  /// work over runOnAllThreads() (a draw's tiles), whose faults it
  /// explains.
  llvm::Error takeCancellation();
  /// Whether the run going on has been cancelled.
  bool isCancelled() const { return cancelled.load(std::memory_order_relaxed); }

private:
  /// runOnAllThreads() on the first \p threads: the caller alone for 1.
  void runOnThreads(unsigned threads,
                    llvm::function_ref<void(unsigned thread)> body);

  uint32_t subgroupSize;
  bool reverseOrder = false;
  std::optional<DebugInvocation> debugInvocation;
  std::atomic<uint64_t> finishedWorkgroups{0};
  std::unique_ptr<WorkerPool> pool;
  /// Each thread's copies of the buffers only atomics change, kept between
  /// launches.
  std::unique_ptr<PrivateAtomicCopies> privateCopies;
  /// The running launch's threads, for cancel(); guarded by cancelMutex.
  std::mutex cancelMutex;
  std::vector<pthread_t> launchThreads;
  bool launching = false;
  std::atomic<bool> cancelled{false};
  std::string cancelMessage;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LAUNCHER_H
