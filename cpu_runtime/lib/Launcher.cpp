//===- Launcher.cpp - Run a compiled kernel's workgroups ------------------===//
#include "spvbridge/cpu_runtime/Launcher.h"

#include "DispatchState.h"
#include "FaultTrap.h"
#include "WorkgroupFibers.h"

#include "spvbridge/cpu_runtime/GuardedBuffer.h"

#include "llvm/Support/Alignment.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <mutex>
#include <optional>

using namespace spvb::runtime;

Launcher::Launcher(unsigned threads, uint32_t subgroupSize)
    : threadCount(threads
                      ? threads
                      : llvm::hardware_concurrency().compute_thread_count()),
      subgroupSize(subgroupSize) {
  if (threadCount > 1)
    pool = std::make_unique<llvm::StdThreadPool>(
        llvm::hardware_concurrency(threadCount));
}

Launcher::~Launcher() = default;

namespace {

/// Per-thread state: this thread's Workgroup and Private storage (or the
/// workgroup entry's scratch memory).
struct Worker {
  GuardedBuffer shared;
  GuardedBuffer privateStorage;
  WorkgroupFibers fibers;
};

/// Where the region-loop entry's scratch memory starts.
constexpr llvm::Align kScratchAlignment = llvm::Align::Constant<64>();

/// Workgroup ids in dispatch order (x fastest), handed out in chunks.
struct WorkQueue {
  std::array<uint32_t, 3> groups;
  uint64_t total;
  std::atomic<uint64_t> next{0};
  uint64_t chunk;
  /// Set by the first worker that faults: the others take no more work.
  std::atomic<bool> stopped{false};
};

/// The first hardware fault of a launch.
class FirstFault {
public:
  void report(KernelFault fault) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!first)
      first = std::move(fault);
  }
  llvm::Error takeError() {
    if (!first)
      return llvm::Error::success();
    return llvm::make_error<KernelFault>(std::move(*first));
  }

private:
  std::mutex mutex;
  std::optional<KernelFault> first;
};

} // namespace

char KernelFault::ID = 0;

/// A probed stack frame faults at the stack pointer; a call or push just
/// below it.
static bool isNearStackPointer(uintptr_t address, uintptr_t stackPointer) {
  constexpr uintptr_t kBelow = 64 * 1024, kAbove = 4096;
  return stackPointer && address + kBelow >= stackPointer &&
         address <= stackPointer + kAbove;
}

static KernelFault classifyFault(const TrappedSignal &signal,
                                 const Worker &worker,
                                 const spvb_invocation &group,
                                 const spvb_kernel_info &info) {
  KernelFault fault;
  for (int d = 0; d < 3; ++d)
    fault.workgroup[d] = group.workgroup_id[d];
  fault.address = signal.address;
  fault.access = signal.access == TrappedSignal::Access::Write
                     ? KernelFault::Access::Write
                 : signal.access == TrappedSignal::Access::Read
                     ? KernelFault::Access::Read
                     : KernelFault::Access::Unknown;
  if (signal.signal == SIGFPE) {
    fault.kind = KernelFault::Kind::Arithmetic;
  } else if (signal.signal == SIGILL) {
    fault.kind = KernelFault::Kind::IllegalInstruction;
  } else if (signal.code == SI_KERNEL) {
    fault.kind = KernelFault::Kind::BadAddress;
  } else if (worker.shared.covers(signal.address)) {
    fault.region = "Workgroup memory";
    fault.regionStart = reinterpret_cast<uintptr_t>(worker.shared.data());
    fault.regionSize = info.shared_memory_size;
  } else if (worker.privateStorage.covers(signal.address)) {
    fault.region = "Private memory";
    fault.regionStart =
        reinterpret_cast<uintptr_t>(worker.privateStorage.data());
    fault.regionSize = worker.privateStorage.size();
  } else if (isNearStackPointer(signal.address, signal.stackPointer)) {
    fault.kind = KernelFault::Kind::StackOverflow;
  }
  return fault;
}

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
                       "in workgroup ({1}, {2}, {3}); rerun with "
                       "--check-bounds to find the instruction",
                       place, workgroup[0], workgroup[1], workgroup[2]);
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
           where + "; rerun with --check-bounds to find the instruction";
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
  const spvb_kernel_info &info = kernel.info;
  if (info.abi_version != SPVB_ABI_VERSION)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: kernel ABI version {0}, runtime expects {1}",
                      info.abi_version, SPVB_ABI_VERSION));
  if (info.workgroup_entry > SPVB_WORKGROUP_ENTRY_LANES ||
      (info.workgroup_entry != SPVB_WORKGROUP_ENTRY_NONE && !kernel.workgroup))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: the kernel's workgroup entry (kind {0}) is "
                      "missing or unknown",
                      info.workgroup_entry));
  uint32_t subgroupSize =
      resources.subgroupSize ? resources.subgroupSize : this->subgroupSize;
  if (subgroupSize == 0 || subgroupSize > 64 ||
      (subgroupSize & (subgroupSize - 1)) != 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: subgroup size {0} is not a power of two from 1 "
                      "to 64",
                      subgroupSize));
  if (resources.bindings.size() < info.binding_count)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: the kernel uses {0} bindings, {1} given",
                      info.binding_count, resources.bindings.size()));

  spvb_dispatch dispatch{};
  for (int d = 0; d < 3; ++d) {
    dispatch.workgroup_count[d] = groups[d];
    dispatch.workgroup_size[d] = info.workgroup_size[d];
  }
  dispatch.subgroup_size = subgroupSize;
  dispatch.binding_count = resources.bindings.size();
  dispatch.bindings = resources.bindings.data();
  dispatch.push_constants = resources.pushConstants.data();
  dispatch.push_constant_size = resources.pushConstants.size();
  dispatch.stage_inputs = resources.stageInputs;
  dispatch.stage_outputs = resources.stageOutputs;
  DispatchState state;
  dispatch.runtime = &state;
  FirstFault faults;

  WorkQueue queue;
  queue.groups = groups;
  queue.total = uint64_t(groups[0]) * groups[1] * groups[2];
  finishedWorkgroups.store(0, std::memory_order_relaxed);
  if (queue.total == 0)
    return llvm::Error::success();
  // Enough chunks per thread to balance, few enough to keep overhead low.
  queue.chunk =
      std::max<uint64_t>(1, queue.total / (uint64_t(threadCount) * 8));

  uint32_t invocations =
      info.workgroup_size[0] * info.workgroup_size[1] * info.workgroup_size[2];

  FaultTrap::installHandlers();
  auto work = [&]() {
    Worker worker;
    worker.shared = GuardedBuffer(info.shared_memory_size);
    uint64_t privateSize = std::max<uint32_t>(info.private_memory_size, 1);
    spvb_invocation invocation{};
    invocation.shared_memory = worker.shared.data();
    invocation.runtime = nullptr;
    switch (info.workgroup_entry) {
    case SPVB_WORKGROUP_ENTRY_LOOP:
    case SPVB_WORKGROUP_ENTRY_LANES:
      worker.privateStorage = GuardedBuffer(privateSize);
      invocation.private_memory = worker.privateStorage.data();
      break;
    case SPVB_WORKGROUP_ENTRY_REGIONS:
      worker.privateStorage = GuardedBuffer(info.workgroup_scratch_size +
                                            kScratchAlignment.value());
      invocation.private_memory = reinterpret_cast<uint8_t *>(
          llvm::alignAddr(worker.privateStorage.data(), kScratchAlignment));
      break;
    default:
      worker.privateStorage = GuardedBuffer(privateSize * invocations);
      break;
    }
    FaultTrap trap;
    for (;;) {
      uint64_t begin = queue.next.fetch_add(queue.chunk);
      if (begin >= queue.total)
        return;
      uint64_t end = std::min(begin + queue.chunk, queue.total);
      for (uint64_t next = begin; next < end; ++next) {
        if (queue.stopped.load(std::memory_order_relaxed))
          return;
        uint64_t linear = reverseOrder ? queue.total - 1 - next : next;
        invocation.workgroup_id[0] = linear % groups[0];
        invocation.workgroup_id[1] = (linear / groups[0]) % groups[1];
        invocation.workgroup_id[2] = linear / (uint64_t(groups[0]) * groups[1]);
        if (info.shared_memory_size)
          std::memset(worker.shared.data(), kernel.workgroupFill,
                      info.shared_memory_size);
        std::string error;
        std::optional<TrappedSignal> signal = trap.run([&] {
          if (kernel.workgroup)
            kernel.workgroup(&dispatch, &invocation);
          else
            error =
                worker.fibers.run(kernel.invocation, dispatch, invocation,
                                  worker.privateStorage.data(), privateSize);
        });
        if (signal) {
          worker.fibers.abandon();
          faults.report(classifyFault(*signal, worker, invocation, info));
          queue.stopped.store(true, std::memory_order_relaxed);
          return;
        }
        if (!error.empty())
          state.faults.report(std::move(error));
        state.races.finishWorkgroup(linear);
        finishedWorkgroups.fetch_add(1, std::memory_order_relaxed);
      }
    }
  };

  if (!pool) {
    work();
  } else {
    llvm::ThreadPoolTaskGroup tasks(*pool);
    for (unsigned i = 0; i < threadCount; ++i)
      tasks.async(work);
    tasks.wait();
  }
  // A fault the generated code found itself says more than the signal
  // that may have followed it.
  if (llvm::Error error = state.faults.takeError()) {
    llvm::consumeError(faults.takeError());
    return error;
  }
  return faults.takeError();
}
