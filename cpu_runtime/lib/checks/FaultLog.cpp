//===- FaultLog.cpp - The first fault of a dispatch -----------------------===//
#include "FaultLog.h"

#include "Printf.h"
#include "launch/DispatchState.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/Support/FormatVariadic.h"

using namespace spvb::runtime;

uint64_t FaultLog::getOrder(const spvb_dispatch &dispatch,
                            const uint32_t workgroup[3]) {
  const std::array<uint32_t, 3> &base =
      static_cast<const DispatchState *>(dispatch.runtime)->baseWorkgroup;
  return (workgroup[0] - base[0]) +
         uint64_t(dispatch.workgroup_count[0]) *
             ((workgroup[1] - base[1]) +
              uint64_t(dispatch.workgroup_count[1]) * (workgroup[2] - base[2]));
}

void FaultLog::report(uint64_t order, std::string message,
                      ShaderFault::Kind kind) {
  std::lock_guard<std::mutex> lock(mutex);
  if (order >= earliest.load(std::memory_order_relaxed))
    return;
  first = std::move(message);
  firstKind = kind;
  earliest.store(order, std::memory_order_relaxed);
}

llvm::Error FaultLog::takeError() {
  std::lock_guard<std::mutex> lock(mutex);
  if (earliest.load(std::memory_order_relaxed) == UINT64_MAX)
    return llvm::Error::success();
  earliest.store(UINT64_MAX, std::memory_order_relaxed);
  return llvm::make_error<ShaderFault>(firstKind, std::move(first));
}

/// ", workgroup (x, y, z), local invocation (x, y, z)", or the invocation
/// as its graphics stage names it (", the fragment at pixel (3, 4)").
static std::string describeInvocation(const spvb_dispatch &dispatch,
                                      const spvb_invocation &invocation) {
  const auto &state = *static_cast<const DispatchState *>(dispatch.runtime);
  if (state.nameInvocation) {
    uint64_t groupSize = uint64_t(dispatch.workgroup_size[0]) *
                         dispatch.workgroup_size[1] *
                         dispatch.workgroup_size[2];
    return ", " + state.nameInvocation(
                      FaultLog::getOrder(dispatch, invocation.workgroup_id) *
                          groupSize +
                      invocation.local_index);
  }
  return llvm::formatv(", workgroup ({0}, {1}, {2}), local invocation ({3}, "
                       "{4}, {5})",
                       invocation.workgroup_id[0], invocation.workgroup_id[1],
                       invocation.workgroup_id[2], invocation.local_id[0],
                       invocation.local_id[1], invocation.local_id[2]);
}

static std::string describeFault(const spvb_dispatch &dispatch,
                                 const spvb_invocation &invocation,
                                 uint32_t kind, uint64_t detail0,
                                 uint64_t detail1, const char *message) {
  if (kind == SPVB_FAULT_OUT_OF_BOUNDS)
    return llvm::formatv("error: {0} at byte {1} (the buffer has {2} bytes)",
                         message ? message : "out-of-bounds access", detail0,
                         detail1)
               .str() +
           describeInvocation(dispatch, invocation);
  std::string where = llvm::formatv(
      "error: workgroup ({0}, {1}, {2}): ", invocation.workgroup_id[0],
      invocation.workgroup_id[1], invocation.workgroup_id[2]);
  switch (kind) {
  case SPVB_FAULT_BARRIER_DIVERGENCE:
    if (detail0 == 0)
      return where + "invocations waited at different barriers (every "
                     "invocation of a workgroup must reach each "
                     "OpControlBarrier)";
    return where + llvm::formatv("{0} of {1} invocations returned while the "
                                 "others waited at a barrier (every "
                                 "invocation of a workgroup must reach each "
                                 "OpControlBarrier)",
                                 detail0, detail1)
                       .str();
  default:
    return where +
           llvm::formatv("fault {0} ({1}, {2})", kind, detail0, detail1).str();
  }
}

extern "C" void spvb_rt_fault(const spvb_dispatch *dispatch,
                              const spvb_invocation *invocation, uint32_t kind,
                              uint64_t detail0, uint64_t detail1,
                              const char *message) {
  FaultLog &faults = static_cast<DispatchState *>(dispatch->runtime)->faults;
  uint64_t order = FaultLog::getOrder(*dispatch, invocation->workgroup_id);
  if (!faults.isFirst(order))
    return;
  faults.report(
      order,
      describeFault(*dispatch, *invocation, kind, detail0, detail1, message),
      kind == SPVB_FAULT_OUT_OF_BOUNDS ? ShaderFault::Kind::OutOfBounds
                                       : ShaderFault::Kind::Other);
}

extern "C" void spvb_rt_undefined(const spvb_dispatch *dispatch,
                                  const spvb_invocation *invocation,
                                  const char *message, uint32_t argCount,
                                  const uint32_t *argDescs,
                                  const void *const *args) {
  FaultLog &faults = static_cast<DispatchState *>(dispatch->runtime)->faults;
  uint64_t order = FaultLog::getOrder(*dispatch, invocation->workgroup_id);
  if (!faults.isFirst(order))
    return;
  std::string text = "error: " + spvb::runtime::formatShaderPrintf(
                                     message, argCount, argDescs, args);
  text += describeInvocation(*dispatch, *invocation);
  faults.report(order, std::move(text), ShaderFault::Kind::Undefined);
}
