//===- Launcher.cpp - Run a compiled kernel's workgroups ------------------===//
#include "spvbridge/cpu_runtime/Launcher.h"

#include "DispatchState.h"
#include "WorkgroupFibers.h"

#include "llvm/Support/Alignment.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Threading.h"

#include <atomic>
#include <cstring>

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
  std::vector<uint8_t> shared;
  std::vector<uint8_t> privateStorage;
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
};

} // namespace

llvm::Error Launcher::launch(const KernelEntry &kernel,
                             const DispatchResources &resources,
                             std::array<uint32_t, 3> groups) {
  const spvb_kernel_info &info = kernel.info;
  if (info.abi_version != SPVB_ABI_VERSION)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: kernel ABI version {0}, runtime expects {1}",
                      info.abi_version, SPVB_ABI_VERSION));
  if (info.workgroup_entry > SPVB_WORKGROUP_ENTRY_REGIONS ||
      (info.workgroup_entry != SPVB_WORKGROUP_ENTRY_NONE && !kernel.workgroup))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: the kernel's workgroup entry (kind {0}) is "
                      "missing or unknown",
                      info.workgroup_entry));
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
  DispatchState state;
  dispatch.runtime = &state;

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

  auto work = [&]() {
    Worker worker;
    worker.shared.resize(std::max<uint32_t>(info.shared_memory_size, 1));
    uint64_t privateSize = std::max<uint32_t>(info.private_memory_size, 1);
    spvb_invocation invocation{};
    invocation.shared_memory = worker.shared.data();
    invocation.runtime = nullptr;
    switch (info.workgroup_entry) {
    case SPVB_WORKGROUP_ENTRY_LOOP:
      worker.privateStorage.resize(privateSize);
      invocation.private_memory = worker.privateStorage.data();
      break;
    case SPVB_WORKGROUP_ENTRY_REGIONS:
      worker.privateStorage.resize(info.workgroup_scratch_size +
                                   kScratchAlignment.value());
      invocation.private_memory = reinterpret_cast<uint8_t *>(
          llvm::alignAddr(worker.privateStorage.data(), kScratchAlignment));
      break;
    default:
      worker.privateStorage.resize(privateSize * invocations);
      break;
    }
    for (;;) {
      uint64_t begin = queue.next.fetch_add(queue.chunk);
      if (begin >= queue.total)
        return;
      uint64_t end = std::min(begin + queue.chunk, queue.total);
      for (uint64_t next = begin; next < end; ++next) {
        uint64_t linear = reverseOrder ? queue.total - 1 - next : next;
        invocation.workgroup_id[0] = linear % groups[0];
        invocation.workgroup_id[1] = (linear / groups[0]) % groups[1];
        invocation.workgroup_id[2] = linear / (uint64_t(groups[0]) * groups[1]);
        if (info.shared_memory_size)
          std::memset(worker.shared.data(), kernel.workgroupFill,
                      info.shared_memory_size);
        if (kernel.workgroup) {
          kernel.workgroup(&dispatch, &invocation);
        } else {
          std::string error =
              worker.fibers.run(kernel.invocation, dispatch, invocation,
                                worker.privateStorage, privateSize);
          if (!error.empty())
            state.faults.report(std::move(error));
        }
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
  return state.faults.takeError();
}
