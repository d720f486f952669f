//===- Environment.h - The ICD's options from environment variables -*- C++
//-*-===//
//
// As Mesa's drivers take LP_* and MESA_* variables, the ICD takes SPVB_*:
//
//   SPVB_LIMITS=lavapipe|min     the limits reported and enforced
//   SPVB_SUBGROUP_SIZE=N         a power of two from 1 to 64 (32)
//   SPVB_THREADS=N               worker threads (0: all hardware threads)
//   SPVB_TIMEOUT=SECONDS         a dispatch's limit (60; 0 waits forever)
//   SPVB_CHECKS=LIST             bounds, races, undefined, nan, or all
//   SPVB_DEBUG=1                 compile every pipeline for a debugger
//   SPVB_DEBUG_INVOCATION=ID     run that invocation of every dispatch that
//                                has it through a debug build
//   SPVB_DEBUG_PIXEL=X,Y         run the invocations behind that pixel of
//                                every draw through the debug builds
//
// A bad value is an error naming the variable; instance creation fails.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_ENVIRONMENT_H
#define SPVBRIDGE_ICD_LIB_ENVIRONMENT_H

#include "spvbridge/bridge/Compiler.h"
#include "spvbridge/bridge/DeviceLimits.h"

#include "llvm/Support/Error.h"

#include <array>
#include <optional>

namespace spvb::icd {

struct Environment {
  DeviceLimits limits = DeviceLimits::lavapipe();
  uint32_t subgroupSize = 32;
  unsigned threads = 0;
  /// A dispatch running longer is stopped and the device lost, as a GPU
  /// driver's timeout ends a hung submission (amdgpu allows compute jobs
  /// 60 s); 0 waits forever.
  double timeoutSeconds = 60;
  /// The checks and debug build every pipeline is compiled with.
  CompileOptions compileOptions;
  /// SPVB_DEBUG_INVOCATION, as spv-run's --debug-invocation takes it
  /// (runtime/DebugTarget.h); empty: none.
  std::string debugInvocation;
  /// SPVB_DEBUG_PIXEL, as spv-run's --debug-pixel takes it: a pixel of
  /// every draw's framebuffer.
  std::optional<std::array<uint32_t, 2>> debugPixel;

  /// Whether pipelines need their debug builds too.
  bool needsDebugBuilds() const {
    return !debugInvocation.empty() || debugPixel.has_value();
  }
};

llvm::Expected<Environment> readEnvironment();

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_ENVIRONMENT_H
