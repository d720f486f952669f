//===- DeviceLimits.h - What a Vulkan device allows a dispatch --*- C++ -*-===//
//
// The CPU runs what no GPU would (a megabyte of shared memory, a workgroup of
// 4096 invocations); a shader tested here must also run there. A profile
// holds the VkPhysicalDeviceLimits a dispatch or a draw meets, and Dispatch
// and Draw check them before they run:
//
//   lavapipe  Mesa's lavapipe, the Vulkan backend's device (the default)
//   min       the minimums the Vulkan specification requires of every device
//   none      no limit
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_DEVICELIMITS_H
#define SPVBRIDGE_BRIDGE_DEVICELIMITS_H

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace spvb {

struct Kernel;

struct DeviceLimits {
  std::string name;
  /// False for `none`: nothing is checked.
  bool enforced = true;
  uint32_t maxComputeSharedMemorySize = 0;
  std::array<uint32_t, 3> maxComputeWorkGroupCount{};
  uint32_t maxComputeWorkGroupInvocations = 0;
  std::array<uint32_t, 3> maxComputeWorkGroupSize{};
  uint32_t maxPushConstantsSize = 0;
  uint32_t maxBoundDescriptorSets = 0;
  uint32_t maxPerStageDescriptorSamplers = 0;
  uint32_t maxPerStageDescriptorUniformBuffers = 0;
  uint32_t maxPerStageDescriptorStorageBuffers = 0;
  uint32_t maxPerStageDescriptorSampledImages = 0;
  uint32_t maxPerStageDescriptorStorageImages = 0;
  uint32_t maxPerStageResources = 0;
  uint32_t maxUniformBufferRange = 0;
  uint32_t maxStorageBufferRange = 0;
  // Draws.
  uint32_t maxVertexInputAttributes = 0;
  uint32_t maxVertexInputAttributeOffset = 0;
  uint32_t maxVertexInputBindingStride = 0;
  uint32_t maxColorAttachments = 0;
  uint32_t maxFramebufferWidth = 0;
  uint32_t maxFramebufferHeight = 0;

  static DeviceLimits lavapipe();
  static DeviceLimits minimum();
  static DeviceLimits none();
  /// The profile called `name` (lavapipe, min, none).
  static std::optional<DeviceLimits> find(llvm::StringRef name);
  /// "lavapipe, min, none".
  static llvm::StringRef getProfileNames();
};

/// The sizes of the buffers bound to one descriptor, for the range limits.
struct BoundBufferSize {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t element = 0;
  uint64_t size = 0;
};

/// Checks `kernel` dispatched as `groups` against `limits`: the first limit
/// exceeded, named with its value, as an error. `boundElementCount` gives
/// each runtime-sized descriptor array's bound element count by (set,
/// binding); `buffers`, the bound buffers' sizes.
llvm::Error
checkDeviceLimits(const Kernel &kernel, std::array<uint32_t, 3> groups,
                  llvm::function_ref<uint32_t(uint32_t set, uint32_t binding)>
                      boundElementCount,
                  llvm::ArrayRef<BoundBufferSize> buffers,
                  const DeviceLimits &limits);

/// Checks a draw's vertex attributes and attachments against `limits`
/// (errors name `vertex`'s source, as checkDeviceLimits's do).
llvm::Error checkDrawLimits(const Kernel &vertex,
                            llvm::ArrayRef<runtime::VertexAttribute> attributes,
                            const runtime::RenderTarget &target,
                            const DeviceLimits &limits);

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_DEVICELIMITS_H
