//===- WorkgroupRunner.cpp - One thread's share of a launch ---------------===//
#include "WorkgroupRunner.h"

#include "llvm/Support/Alignment.h"
#include "llvm/Support/FormatVariadic.h"

#include <csignal>
#include <cstring>

using namespace spvb::runtime;

/// Where the region-loop entry's scratch memory starts.
static constexpr llvm::Align kScratchAlignment = llvm::Align::Constant<64>();

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::Error spvb::runtime::prepareDispatch(const KernelEntry &kernel,
                                           const DispatchResources &resources,
                                           std::array<uint32_t, 3> groups,
                                           uint32_t defaultSubgroupSize,
                                           DispatchState &state,
                                           spvb_dispatch &dispatch) {
  const spvb_kernel_info &info = kernel.info;
  if (info.abi_version != SPVB_ABI_VERSION)
    return makeError(llvm::formatv("error: kernel ABI version {0}, runtime "
                                   "expects {1}",
                                   info.abi_version, SPVB_ABI_VERSION));
  if (info.workgroup_entry > SPVB_WORKGROUP_ENTRY_LANES ||
      (info.workgroup_entry != SPVB_WORKGROUP_ENTRY_NONE && !kernel.workgroup))
    return makeError(llvm::formatv("error: the kernel's workgroup entry (kind "
                                   "{0}) is missing or unknown",
                                   info.workgroup_entry));
  uint32_t subgroupSize =
      resources.subgroupSize ? resources.subgroupSize : defaultSubgroupSize;
  if (!isSubgroupSize(subgroupSize))
    return makeError(llvm::formatv("error: subgroup size {0} is not a power "
                                   "of two from 1 to {1}",
                                   subgroupSize, kMaxSubgroupSize));
  if (info.subgroup_size && info.subgroup_size != subgroupSize)
    return makeError(llvm::formatv("error: the kernel was compiled for "
                                   "subgroups of {0} invocations, dispatched "
                                   "with {1}",
                                   info.subgroup_size, subgroupSize));
  if (resources.bindings.size() < info.binding_count)
    return makeError(llvm::formatv("error: the kernel uses {0} bindings, {1} "
                                   "given",
                                   info.binding_count,
                                   resources.bindings.size()));
  dispatch = spvb_dispatch{};
  state.baseWorkgroup = resources.baseWorkgroup;
  state.nameInvocation = resources.nameInvocation;
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
  dispatch.geometry_emit = resources.geometryEmit;
  dispatch.runtime = &state;
  FaultTrap::installHandlers();
  return llvm::Error::success();
}

WorkgroupRunner::WorkgroupRunner(const KernelEntry &kernel,
                                 const spvb_dispatch &dispatch)
    : kernel(kernel), dispatch(dispatch) {
  const spvb_kernel_info &info = kernel.info;
  shared = GuardedBuffer(info.shared_memory_size);
  privateSize = std::max<uint32_t>(info.private_memory_size, 1);
  invocation.shared_memory = shared.data();
  switch (info.workgroup_entry) {
  case SPVB_WORKGROUP_ENTRY_LOOP:
  case SPVB_WORKGROUP_ENTRY_LANES:
    privateStorage = GuardedBuffer(privateSize);
    invocation.private_memory = privateStorage.data();
    break;
  case SPVB_WORKGROUP_ENTRY_REGIONS:
    privateStorage =
        GuardedBuffer(info.workgroup_scratch_size + kScratchAlignment.value());
    invocation.private_memory = reinterpret_cast<uint8_t *>(
        llvm::alignAddr(privateStorage.data(), kScratchAlignment));
    break;
  default: {
    uint64_t invocations = uint64_t(info.workgroup_size[0]) *
                           info.workgroup_size[1] * info.workgroup_size[2];
    privateStorage = GuardedBuffer(privateSize * invocations);
    break;
  }
  }
}

/// A probed stack frame faults at the stack pointer; a call or push just
/// below it.
static bool isNearStackPointer(uintptr_t address, uintptr_t stackPointer) {
  constexpr uintptr_t kBelow = 64 * 1024, kAbove = 4096;
  return stackPointer && address + kBelow >= stackPointer &&
         address <= stackPointer + kAbove;
}

std::optional<KernelFault>
WorkgroupRunner::run(std::array<uint32_t, 3> workgroup,
                     const DebugInvocation *debug) {
  auto &state = *static_cast<DispatchState *>(dispatch.runtime);
  for (int d = 0; d < 3; ++d)
    invocation.workgroup_id[d] = state.baseWorkgroup[d] + workgroup[d];
  const spvb_kernel_info &info = kernel.info;
  if (info.shared_memory_size)
    std::memset(shared.data(), kernel.workgroupFill, info.shared_memory_size);
  std::string error;
  if (debug && kernel.workgroup && !debugPrivateStorage.data()) {
    const uint32_t *size = dispatch.workgroup_size;
    debugPrivateStorage =
        GuardedBuffer(privateSize * size[0] * size[1] * size[2]);
  }
  std::optional<TrappedSignal> signal = trap.run([&] {
    if (debug)
      error = fibers.run(kernel.invocation, dispatch, invocation,
                         kernel.workgroup ? debugPrivateStorage.data()
                                          : privateStorage.data(),
                         privateSize, debug);
    else if (kernel.workgroup)
      kernel.workgroup(&dispatch, &invocation);
    else
      error = fibers.run(kernel.invocation, dispatch, invocation,
                         privateStorage.data(), privateSize);
  });
  if (!error.empty())
    state.faults.report(FaultLog::getOrder(dispatch, invocation.workgroup_id),
                        std::move(error));
  if (!signal)
    return std::nullopt;
  return makeFault(*signal,
                   {invocation.workgroup_id[0], invocation.workgroup_id[1],
                    invocation.workgroup_id[2]});
}

std::optional<KernelFault> WorkgroupRunner::runRow(
    uint32_t count, uint32_t y,
    llvm::function_ref<const DebugInvocation *(uint32_t x)> debugFor) {
  auto &state = *static_cast<DispatchState *>(dispatch.runtime);
  if (!kernel.workgroup || debugFor) {
    for (uint32_t x = 0; x < count; ++x) {
      if (std::optional<KernelFault> fault =
              run({x, y, 0}, debugFor ? debugFor(x) : nullptr))
        return fault;
      state.races.finishWorkgroup(uint64_t(y) * dispatch.workgroup_count[0] +
                                  x);
    }
    return std::nullopt;
  }
  // One trap for the row: arming it per workgroup cost as much as a small
  // fragment shader.
  const spvb_kernel_info &info = kernel.info;
  invocation.workgroup_id[1] = y;
  invocation.workgroup_id[2] = 0;
  std::optional<TrappedSignal> signal = trap.run([&] {
    for (uint32_t x = 0; x < count; ++x) {
      invocation.workgroup_id[0] = x;
      if (info.shared_memory_size)
        std::memset(shared.data(), kernel.workgroupFill,
                    info.shared_memory_size);
      kernel.workgroup(&dispatch, &invocation);
      state.races.finishWorkgroup(uint64_t(y) * dispatch.workgroup_count[0] +
                                  x);
    }
  });
  if (!signal)
    return std::nullopt;
  return makeFault(*signal, {invocation.workgroup_id[0], y, 0});
}

std::optional<KernelFault> WorkgroupRunner::runBatch(
    llvm::function_ref<bool(std::array<uint32_t, 3> &, uint32_t &)> next) {
  auto &state = *static_cast<DispatchState *>(dispatch.runtime);
  const spvb_kernel_info &info = kernel.info;
  std::array<uint32_t, 3> id;
  uint32_t count = 0;
  std::optional<TrappedSignal> signal = trap.run([&] {
    while (next(id, count)) {
      for (int d = 1; d < 3; ++d)
        invocation.workgroup_id[d] = state.baseWorkgroup[d] + id[d];
      for (uint32_t x = id[0]; x < id[0] + count; ++x) {
        invocation.workgroup_id[0] = state.baseWorkgroup[0] + x;
        if (info.shared_memory_size)
          std::memset(shared.data(), kernel.workgroupFill,
                      info.shared_memory_size);
        kernel.workgroup(&dispatch, &invocation);
      }
    }
  });
  if (!signal)
    return std::nullopt;
  return makeFault(*signal,
                   {invocation.workgroup_id[0], invocation.workgroup_id[1],
                    invocation.workgroup_id[2]});
}

KernelFault WorkgroupRunner::makeFault(const TrappedSignal &signal,
                                       std::array<uint32_t, 3> workgroup) {
  const spvb_kernel_info &info = kernel.info;
  fibers.abandon();
  KernelFault fault;
  fault.workgroup = workgroup;
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
  } else if (shared.covers(signal.address)) {
    fault.region = "Workgroup memory";
    fault.regionStart = reinterpret_cast<uintptr_t>(shared.data());
    fault.regionSize = info.shared_memory_size;
  } else if (privateStorage.covers(signal.address)) {
    fault.region = "Private memory";
    fault.regionStart = reinterpret_cast<uintptr_t>(privateStorage.data());
    fault.regionSize = privateStorage.size();
  } else if (isNearStackPointer(signal.address, signal.stackPointer)) {
    fault.kind = KernelFault::Kind::StackOverflow;
  }
  return fault;
}

void FirstFault::report(uint64_t order, KernelFault fault) {
  std::lock_guard<std::mutex> lock(mutex);
  if (order >= earliest.load(std::memory_order_relaxed))
    return;
  first = std::move(fault);
  earliest.store(order, std::memory_order_relaxed);
}

llvm::Error FirstFault::takeError(DispatchState &state) {
  if (state.faults.getEarliest() <= getEarliest())
    return state.faults.takeError();
  return llvm::make_error<KernelFault>(std::move(*first));
}
