//===- Launcher.cpp - Run a compiled kernel's workgroups ------------------===//
#include "spvbridge/cpu_runtime/Launcher.h"

#include "PrivateAtomicCopies.h"
#include "WorkerPool.h"
#include "WorkgroupRunner.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <optional>

using namespace spvb::runtime;

Launcher::Launcher(unsigned threads, uint32_t subgroupSize)
    : subgroupSize(subgroupSize),
      pool(std::make_unique<WorkerPool>(
          threads ? threads
                  : llvm::hardware_concurrency().compute_thread_count())),
      privateCopies(std::make_unique<PrivateAtomicCopies>()) {}

Launcher::~Launcher() = default;

unsigned Launcher::getThreadCount() const { return pool->getThreadCount(); }

void Launcher::runOnAllThreads(llvm::function_ref<void(unsigned)> body) {
  runOnThreads(getThreadCount(), body);
}

void Launcher::runOnThreads(unsigned threads,
                            llvm::function_ref<void(unsigned)> body) {
  {
    std::lock_guard<std::mutex> lock(cancelMutex);
    launchThreads.assign(threads, pthread_self());
    launching = true;
    cancelled.store(false);
  }
  auto each = [&](unsigned thread) {
    {
      std::lock_guard<std::mutex> lock(cancelMutex);
      launchThreads[thread] = pthread_self();
    }
    body(thread);
  };
  // The caller alone does not wake the helpers (half of a small dispatch's
  // time from Python).
  if (threads == 1)
    each(0);
  else
    pool->run(each);
  std::lock_guard<std::mutex> lock(cancelMutex);
  launching = false;
  if (cancelled.load())
    FaultTrap::stopCancelling();
}

llvm::Error Launcher::takeCancellation() {
  if (!cancelled.exchange(false))
    return llvm::Error::success();
  std::lock_guard<std::mutex> lock(cancelMutex);
  return llvm::make_error<ShaderFault>(ShaderFault::Kind::Cancelled,
                                       cancelMessage);
}

char KernelFault::ID = 0;
char ShaderFault::ID = 0;

llvm::StringRef KernelFault::getAccessPhrase() const {
  switch (access) {
  case Access::Read:
    return "a read";
  case Access::Write:
    return "a write";
  case Access::Unknown:
    break;
  }
  return "an access";
}

static std::string countBytes(uint64_t bytes) {
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string KernelFault::describeOffset(llvm::StringRef what,
                                        llvm::StringRef detail, uintptr_t start,
                                        uint64_t size) const {
  auto offset = static_cast<int64_t>(address - start);
  std::string text = llvm::formatv(
      "{0} at byte {1} of {2} ({3}{4}{5})", getAccessPhrase(), offset, what,
      detail, detail.empty() ? "" : "; ", countBytes(size));
  if (offset < 0)
    text += ", " + countBytes(uint64_t(-offset)) + " before its start";
  else if (uint64_t(offset) >= size)
    text += ", " + countBytes(uint64_t(offset) - size + 1) + " past its end";
  return text;
}

std::string KernelFault::describeAccess(llvm::StringRef place) const {
  return llvm::formatv("the shader accessed memory outside its buffers: {0}, "
                       "in workgroup ({1}, {2}, {3}); rerun with {4} to find "
                       "the instruction",
                       place, workgroup[0], workgroup[1], workgroup[2],
                       boundsCheckHint);
}

std::string KernelFault::getMessage() const {
  std::string where = llvm::formatv("in workgroup ({0}, {1}, {2})",
                                    workgroup[0], workgroup[1], workgroup[2]);
  switch (kind) {
  case Kind::Access:
    if (!region.empty())
      return describeAccess(
          describeOffset(region, "", regionStart, regionSize));
    return describeAccess((getAccessPhrase() + " at address " +
                           llvm::formatv("{0:x}", address).str() +
                           ", which no buffer covers")
                              .str());
  case Kind::BadAddress:
    return "the shader accessed memory at an address the host cannot use "
           "(far outside any buffer, or a misaligned vector access) " +
           where + "; rerun with " + boundsCheckHint +
           " to find the instruction";
  case Kind::StackOverflow:
    return "the shader overflowed its stack " + where +
           ": its Function variables (a large private array?) or calls need "
           "more than the host stack it runs on";
  case Kind::Arithmetic:
    return "the shader executed an integer division the host traps on " + where;
  case Kind::IllegalInstruction:
    return "the shader reached a trap (code it declares unreachable) " + where;
  }
  return "the shader faulted " + where;
}

void KernelFault::log(llvm::raw_ostream &os) const {
  os << "error: " << getMessage();
}

llvm::Error Launcher::launch(const KernelEntry &kernel,
                             const DispatchResources &resources,
                             std::array<uint32_t, 3> groups) {
  DispatchState state;
  spvb_dispatch dispatch;
  if (llvm::Error error = prepareDispatch(kernel, resources, groups,
                                          subgroupSize, state, dispatch))
    return error;
  uint64_t total = uint64_t(groups[0]) * groups[1] * groups[2];
  finishedWorkgroups.store(0, std::memory_order_relaxed);
  if (total == 0)
    return llvm::Error::success();
  unsigned threads = privateCopies->prepare(kernel, dispatch,
                                            total == 1 ? 1 : getThreadCount());
  // Workgroup ids in dispatch order (x fastest), handed out in chunks:
  // enough per thread to balance, few enough to keep overhead low.
  uint64_t chunk = std::max<uint64_t>(1, total / (uint64_t(threads) * 8));
  std::atomic<uint64_t> nextChunk{0};
  FirstFault faults;

  runOnThreads(threads, [&](unsigned thread) {
    WorkgroupRunner runner(kernel, privateCopies->getDispatch(thread));
    // A fault in the thread's copy of a buffer is named by the buffer's
    // address.
    auto report = [&](uint64_t order, KernelFault fault) {
      fault.address = privateCopies->toBufferAddress(thread, fault.address);
      faults.report(order, std::move(fault));
    };
    uint64_t index = 0, end = 0, finished = 0;
    // The last workgroup handed out, and its id.
    std::optional<uint64_t> previous;
    std::array<uint32_t, 3> current{};
    // The next run of workgroups of this thread's chunks in dispatch order:
    // `count` ids along x from `id`, the first at `linear` in that order;
    // false when there is none or the launch stops. Reversed, a run is one
    // workgroup.
    auto next = [&](std::array<uint32_t, 3> &id, uint64_t &linear,
                    uint32_t &count) {
      for (;;) {
        if (index >= end) {
          // Counted once a chunk: a counter every thread bumped for every
          // workgroup cost more than a small vertex shader.
          finishedWorkgroups.fetch_add(finished, std::memory_order_relaxed);
          finished = 0;
          index = nextChunk.fetch_add(chunk);
          if (index >= total)
            return false;
          end = std::min(index + chunk, total);
        }
        if (cancelled.load(std::memory_order_relaxed))
          return false;
        linear = reverseOrder ? total - 1 - index : index;
        // Past a fault only earlier workgroups run: one of them may have
        // the dispatch's first fault (FaultLog.h).
        uint64_t fault =
            std::min(faults.getEarliest(), state.faults.getEarliest());
        if (linear >= fault) {
          ++index;
          if (reverseOrder)
            continue;
          return false;
        }
        // The next id in x order without the three divisions (as long as
        // a small kernel's workgroup).
        if (previous && linear == *previous + 1 && current[0] + 1 < groups[0])
          ++current[0];
        else
          current = {uint32_t(linear % groups[0]),
                     uint32_t((linear / groups[0]) % groups[1]),
                     uint32_t(linear / (uint64_t(groups[0]) * groups[1]))};
        count =
            reverseOrder
                ? 1
                : uint32_t(std::min<uint64_t>(
                      {end - index, groups[0] - current[0], fault - linear}));
        index += count;
        previous = linear + count - 1;
        id = current;
        current[0] += count - 1;
        return true;
      }
    };
    // Workgroups [linear, linear + count) have finished.
    auto finish = [&](uint64_t linear, uint32_t count) {
      for (uint32_t i = 0; i < count; ++i)
        state.races.finishWorkgroup(linear + i);
      finished += count;
    };
    std::array<uint32_t, 3> id;
    uint64_t linear = 0;
    uint32_t count = 0;
    if (kernel.workgroup && !debugInvocation) {
      bool running = false;
      auto step = [&](std::array<uint32_t, 3> &nextId, uint32_t &nextCount) {
        if (running)
          finish(linear, count);
        running = next(id, linear, count);
        nextId = id;
        nextCount = count;
        return running;
      };
      while (std::optional<KernelFault> fault = runner.runBatch(step)) {
        uint32_t offset =
            fault->workgroup[0] - resources.baseWorkgroup[0] - id[0];
        finish(linear, offset);
        report(linear + offset, std::move(*fault));
        running = false;
      }
    } else {
      const std::array<uint32_t, 3> &base = resources.baseWorkgroup;
      while (next(id, linear, count)) {
        for (uint32_t i = 0; i < count; ++i) {
          std::array<uint32_t, 3> group = {id[0] + i, id[1], id[2]};
          const DebugInvocation *debug =
              debugInvocation && debugInvocation->workgroup ==
                                     std::array<uint32_t, 3>{base[0] + group[0],
                                                             base[1] + group[1],
                                                             base[2] + group[2]}
                  ? &*debugInvocation
                  : nullptr;
          if (std::optional<KernelFault> fault = runner.run(group, debug)) {
            report(linear + i, std::move(*fault));
            break;
          }
          finish(linear + i, 1);
        }
      }
    }
    finishedWorkgroups.fetch_add(finished, std::memory_order_relaxed);
    privateCopies->fold(thread);
  });
  if (llvm::Error cancellation = takeCancellation()) {
    llvm::consumeError(faults.takeError(state));
    return cancellation;
  }
  return faults.takeError(state);
}

void Launcher::cancel(const std::string &message) {
  std::lock_guard<std::mutex> lock(cancelMutex);
  if (!launching)
    return;
  if (!cancelled.exchange(true)) {
    cancelMessage = message;
    FaultTrap::startCancelling();
  }
  for (pthread_t thread : launchThreads)
    FaultTrap::sendCancel(thread);
}
