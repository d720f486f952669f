//===- DispatchState.h - What the runtime keeps per dispatch ----*- C++ -*-===//
//
// spvb_dispatch::runtime points at one of these for the whole dispatch.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_DISPATCHSTATE_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_DISPATCHSTATE_H

#include "checks/FaultLog.h"
#include "checks/RaceDetector.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>

namespace spvb::runtime {

struct DispatchState {
  /// vkCmdDispatchBase's first workgroup: the kernel sees workgroup ids
  /// from here; the runtime's orders and indices count from 0.
  std::array<uint32_t, 3> baseWorkgroup{};
  /// DispatchResources::nameInvocation.
  std::function<std::string(uint64_t)> nameInvocation;
  FaultLog faults;
  /// Used only by kernels compiled with race checks.
  RaceDetector races;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_DISPATCHSTATE_H
