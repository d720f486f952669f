//===- DeviceLimits.cpp - What a Vulkan device allows a dispatch ----------===//
#include "spvbridge/bridge/DeviceLimits.h"

#include "spvbridge/bridge/Kernel.h"

#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace spvb;

DeviceLimits DeviceLimits::lavapipe() {
  // vulkaninfo on Mesa 22.3.6 lavapipe (Debian 12), the Vulkan backend's
  // device; later Mesa releases keep these.
  DeviceLimits limits;
  limits.name = "lavapipe";
  limits.maxComputeSharedMemorySize = 32768;
  limits.maxComputeWorkGroupCount = {65535, 65535, 65535};
  limits.maxComputeWorkGroupInvocations = 1024;
  limits.maxComputeWorkGroupSize = {1024, 1024, 1024};
  limits.maxPushConstantsSize = 128;
  limits.maxBoundDescriptorSets = 8;
  limits.maxPerStageDescriptorSamplers = 32;
  limits.maxPerStageDescriptorUniformBuffers = 15;
  limits.maxPerStageDescriptorStorageBuffers = 32;
  limits.maxPerStageDescriptorSampledImages = 128;
  limits.maxPerStageDescriptorStorageImages = 64;
  limits.maxPerStageResources = 128;
  limits.maxUniformBufferRange = 65536;
  limits.maxStorageBufferRange = 134217728;
  limits.maxVertexInputAttributes = 32;
  limits.maxVertexInputAttributeOffset = 2047;
  limits.maxVertexInputBindingStride = 2048;
  limits.maxColorAttachments = 8;
  limits.maxFramebufferWidth = 16384;
  limits.maxFramebufferHeight = 16384;
  return limits;
}

DeviceLimits DeviceLimits::minimum() {
  // Vulkan 1.3, "Required Limits": the least every device offers.
  DeviceLimits limits;
  limits.name = "min";
  limits.maxComputeSharedMemorySize = 16384;
  limits.maxComputeWorkGroupCount = {65535, 65535, 65535};
  limits.maxComputeWorkGroupInvocations = 128;
  limits.maxComputeWorkGroupSize = {128, 128, 64};
  limits.maxPushConstantsSize = 128;
  limits.maxBoundDescriptorSets = 4;
  limits.maxPerStageDescriptorSamplers = 16;
  limits.maxPerStageDescriptorUniformBuffers = 12;
  limits.maxPerStageDescriptorStorageBuffers = 4;
  limits.maxPerStageDescriptorSampledImages = 16;
  limits.maxPerStageDescriptorStorageImages = 4;
  limits.maxPerStageResources = 128;
  limits.maxUniformBufferRange = 16384;
  limits.maxStorageBufferRange = 134217728;
  limits.maxVertexInputAttributes = 16;
  limits.maxVertexInputAttributeOffset = 2047;
  limits.maxVertexInputBindingStride = 2048;
  limits.maxColorAttachments = 4;
  limits.maxFramebufferWidth = 4096;
  limits.maxFramebufferHeight = 4096;
  return limits;
}

DeviceLimits DeviceLimits::none() {
  DeviceLimits limits;
  limits.name = "none";
  limits.enforced = false;
  return limits;
}

std::optional<DeviceLimits> DeviceLimits::find(llvm::StringRef name) {
  if (name == "lavapipe")
    return lavapipe();
  if (name == "min")
    return minimum();
  if (name == "none")
    return none();
  return std::nullopt;
}

llvm::StringRef DeviceLimits::getProfileNames() {
  return "lavapipe, min, none";
}

namespace {

/// Builds "the shader's X (N) exceeds limitName = M" errors.
struct LimitCheck {
  const Kernel &kernel;
  const DeviceLimits &limits;

  llvm::Error exceeds(const llvm::Twine &what, uint64_t value,
                      llvm::StringRef limit, uint64_t maximum) const {
    if (value <= maximum)
      return llvm::Error::success();
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: {0}: {1} ({2}) exceeds {3} = {4} of the '{5}' "
                      "device limits, so a Vulkan device would refuse it "
                      "(--limits: {6})",
                      kernel.sourceName, what.str(), value, limit, maximum,
                      limits.name, DeviceLimits::getProfileNames()));
  }
};

} // namespace

/// Which per-stage descriptor limits a resource counts against (Vulkan's
/// VkPhysicalDeviceLimits descriptions).
static void countDescriptor(ResourceKind kind, uint32_t count,
                            std::map<std::string, uint64_t> &counts) {
  switch (kind) {
  case ResourceKind::Sampler:
    counts["maxPerStageDescriptorSamplers"] += count;
    break;
  case ResourceKind::CombinedImageSampler:
    counts["maxPerStageDescriptorSamplers"] += count;
    counts["maxPerStageDescriptorSampledImages"] += count;
    break;
  case ResourceKind::SampledImage:
  case ResourceKind::UniformTexelBuffer:
    counts["maxPerStageDescriptorSampledImages"] += count;
    break;
  case ResourceKind::StorageImage:
  case ResourceKind::StorageTexelBuffer:
    counts["maxPerStageDescriptorStorageImages"] += count;
    break;
  case ResourceKind::UniformBuffer:
    counts["maxPerStageDescriptorUniformBuffers"] += count;
    break;
  case ResourceKind::StorageBuffer:
    counts["maxPerStageDescriptorStorageBuffers"] += count;
    break;
  default:
    return;
  }
  if (kind != ResourceKind::Sampler)
    counts["maxPerStageResources"] += count;
}

llvm::Error spvb::checkDeviceLimits(
    const Kernel &kernel, std::array<uint32_t, 3> groups,
    llvm::function_ref<uint32_t(uint32_t, uint32_t)> boundElementCount,
    llvm::ArrayRef<BoundBufferSize> buffers, const DeviceLimits &limits) {
  if (!limits.enforced)
    return llvm::Error::success();
  LimitCheck check{kernel, limits};
  const spvb_kernel_info &info = kernel.entry.info;
  if (llvm::Error error = check.exceeds(
          "the shader's Workgroup memory in bytes", info.shared_memory_size,
          "maxComputeSharedMemorySize", limits.maxComputeSharedMemorySize))
    return error;
  static const char *const kAxes[] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d)
    if (llvm::Error error = check.exceeds(
            llvm::Twine("the workgroup size in ") + kAxes[d],
            info.workgroup_size[d],
            llvm::formatv("maxComputeWorkGroupSize[{0}]", d).str(),
            limits.maxComputeWorkGroupSize[d]))
      return error;
  uint64_t invocations = uint64_t(info.workgroup_size[0]) *
                         info.workgroup_size[1] * info.workgroup_size[2];
  if (llvm::Error error =
          check.exceeds("the invocations in a workgroup", invocations,
                        "maxComputeWorkGroupInvocations",
                        limits.maxComputeWorkGroupInvocations))
    return error;
  for (int d = 0; d < 3; ++d)
    if (llvm::Error error = check.exceeds(
            llvm::Twine("the workgroup count in ") + kAxes[d], groups[d],
            llvm::formatv("maxComputeWorkGroupCount[{0}]", d).str(),
            limits.maxComputeWorkGroupCount[d]))
      return error;

  const ModuleReflection &reflection = kernel.reflection;
  if (reflection.pushConstants)
    if (llvm::Error error =
            check.exceeds("the push-constant block's size in bytes",
                          reflection.pushConstantSize, "maxPushConstantsSize",
                          limits.maxPushConstantsSize))
      return error;
  std::set<uint32_t> sets;
  std::map<std::string, uint64_t> counts;
  for (const ResourceInfo &resource : reflection.resources) {
    if (resource.kind == ResourceKind::PushConstant)
      continue;
    sets.insert(resource.set);
    countDescriptor(resource.kind,
                    resource.arraySize
                        ? resource.arraySize
                        : boundElementCount(resource.set, resource.binding),
                    counts);
  }
  // Set numbers, not just how many: set N needs N + 1 set layouts.
  if (!sets.empty())
    if (llvm::Error error = check.exceeds(
            "the descriptor sets the shader uses (the highest set + 1)",
            *sets.rbegin() + 1, "maxBoundDescriptorSets",
            limits.maxBoundDescriptorSets))
      return error;
  for (auto [limit, maximum] :
       {std::pair("maxPerStageDescriptorSamplers",
                  limits.maxPerStageDescriptorSamplers),
        std::pair("maxPerStageDescriptorUniformBuffers",
                  limits.maxPerStageDescriptorUniformBuffers),
        std::pair("maxPerStageDescriptorStorageBuffers",
                  limits.maxPerStageDescriptorStorageBuffers),
        std::pair("maxPerStageDescriptorSampledImages",
                  limits.maxPerStageDescriptorSampledImages),
        std::pair("maxPerStageDescriptorStorageImages",
                  limits.maxPerStageDescriptorStorageImages),
        std::pair("maxPerStageResources", limits.maxPerStageResources)})
    if (llvm::Error error =
            check.exceeds("the descriptors the shader uses counted against it",
                          counts[limit], limit, maximum))
      return error;

  for (const BoundBufferSize &buffer : buffers) {
    const ResourceInfo *resource =
        reflection.findResource(buffer.set, buffer.binding);
    if (!resource || (resource->kind != ResourceKind::UniformBuffer &&
                      resource->kind != ResourceKind::StorageBuffer))
      continue;
    bool uniform = resource->kind == ResourceKind::UniformBuffer;
    if (llvm::Error error = check.exceeds(
            llvm::formatv(
                "the range of {0} buffer '{1}' (set {2}, binding "
                "{3}{4}) in bytes",
                uniform ? "uniform" : "storage",
                resource->name.empty() ? resource->blockTypeName
                                       : resource->name,
                buffer.set, buffer.binding,
                resource->arraySize != 1
                    ? llvm::formatv(", element {0}", buffer.element).str()
                    : std::string()),
            buffer.size,
            uniform ? "maxUniformBufferRange" : "maxStorageBufferRange",
            uniform ? limits.maxUniformBufferRange
                    : limits.maxStorageBufferRange))
      return error;
  }
  return llvm::Error::success();
}

llvm::Error spvb::checkDrawLimits(
    const Kernel &vertex, llvm::ArrayRef<runtime::VertexAttribute> attributes,
    const runtime::RenderTarget &target, const DeviceLimits &limits) {
  if (!limits.enforced)
    return llvm::Error::success();
  LimitCheck check{vertex, limits};
  if (llvm::Error error = check.exceeds(
          "the vertex attributes", attributes.size(),
          "maxVertexInputAttributes", limits.maxVertexInputAttributes))
    return error;
  for (const runtime::VertexAttribute &attribute : attributes) {
    // Locations are numbered from 0.
    if (llvm::Error error = check.exceeds("a vertex attribute's Location + 1",
                                          uint64_t(attribute.location) + 1,
                                          "maxVertexInputAttributes",
                                          limits.maxVertexInputAttributes))
      return error;
    if (llvm::Error error = check.exceeds(
            llvm::formatv("the offset of the vertex attribute at Location {0}",
                          attribute.location),
            attribute.offset, "maxVertexInputAttributeOffset",
            limits.maxVertexInputAttributeOffset))
      return error;
    if (llvm::Error error = check.exceeds(
            llvm::formatv("the stride of the vertex attribute at Location {0}",
                          attribute.location),
            attribute.stride, "maxVertexInputBindingStride",
            limits.maxVertexInputBindingStride))
      return error;
  }
  if (llvm::Error error =
          check.exceeds("the colour attachments (the highest Location + 1)",
                        target.colors.size(), "maxColorAttachments",
                        limits.maxColorAttachments))
    return error;
  if (llvm::Error error =
          check.exceeds("the framebuffer width", target.width,
                        "maxFramebufferWidth", limits.maxFramebufferWidth))
    return error;
  return check.exceeds("the framebuffer height", target.height,
                       "maxFramebufferHeight", limits.maxFramebufferHeight);
}
