//===- VulkanContext.h - What runJob and runDraw share ----------*- C++ -*-===//
//
// Internal to spvb_vulkan: the instance, device and queue, host-visible
// buffers, the job's descriptor resources (buffers, images, texel buffers,
// samplers), descriptor sets and the pipeline layout, shader modules,
// specialization, and the submit/restore/read-back steps of a timed run.
// runJob (VulkanBackend.cpp) adds the compute pipeline, device buffers and
// addresses; runDraw (VulkanDraw.cpp) the render pass, attachments and
// vertex input. Every handle made here is released by ~Context.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_VULKAN_VULKANCONTEXT_H
#define SPVBRIDGE_TOOLS_VULKAN_VULKANCONTEXT_H

#include "spvbridge/vulkan/VulkanBackend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <vulkan/vulkan.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvb::vulkan {

llvm::Error makeError(const llvm::Twine &message);

/// "error: vulkan: vkCreateX failed: VK_ERROR_..." for a failed call.
llvm::Error check(VkResult result, llvm::StringRef call);

/// A zeroed Vulkan struct with its sType set.
template <typename T> T makeStruct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

/// A global memory dependency from `srcStage`'s `srcAccess` to `dstStage`'s
/// `dstAccess`.
void recordMemoryBarrier(VkCommandBuffer commands,
                         VkPipelineStageFlags srcStage, VkAccessFlags srcAccess,
                         VkPipelineStageFlags dstStage,
                         VkAccessFlags dstAccess);

using Clock = std::chrono::steady_clock;
double millisecondsSince(Clock::time_point start);

/// The VkSpecializationInfo of a job's --spec values; it points into this
/// object, which therefore neither copies nor moves.
class Specialization {
public:
  explicit Specialization(llvm::ArrayRef<SpecConstantValue> values);
  Specialization(const Specialization &) = delete;
  Specialization &operator=(const Specialization &) = delete;
  /// Null when there are no values.
  const VkSpecializationInfo *get() const {
    return entries.empty() ? nullptr : &info;
  }

private:
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint8_t> data;
  VkSpecializationInfo info{};
};

/// The descriptors and push constants of a job (Job's or DrawJob's).
struct Bindings {
  llvm::ArrayRef<BufferBinding> buffers;
  llvm::ArrayRef<ImageBinding> images;
  llvm::ArrayRef<SamplerBinding> samplers;
  llvm::ArrayRef<uint8_t> pushConstants;
};

/// What createDevice enables and checks.
struct DeviceRequest {
  /// Each module's capabilities must have their features.
  llvm::ArrayRef<const SpirvBinary *> modules;
  bool robust = false;
  /// Buffer device addresses; `addressOption` names the option that asks
  /// for them in the error when the device has none.
  bool deviceAddresses = false;
  llvm::StringRef addressOption;
};

class Context {
public:
  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void *mapped = nullptr;
  };
  /// An image, or a texel buffer (then only `buffer` and `bufferView`).
  struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;
    VkBufferView bufferView = VK_NULL_HANDLE;
    /// The texel buffer itself, or the image's staging buffer: the initial
    /// texels for every restore, and the result at the end.
    Buffer buffer;
  };

  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;
  ~Context();

  /// The device, in this order (the errors of runJob come in it).
  llvm::Error createInstance();
  /// The --device one, or the first CPU device; its first queue family
  /// with `queueFlag` (named `queueName` in the error when there is none).
  llvm::Error pickDevice(std::optional<uint32_t> deviceIndex,
                         VkQueueFlagBits queueFlag, llvm::StringRef queueName);
  /// --push and --buffer sizes and per-stage buffer descriptor counts.
  llvm::Error checkBindingLimits(const Bindings &bindings);
  llvm::Error createDevice(const DeviceRequest &request);
  /// The physical device's VkPhysicalDeviceSubgroupProperties::subgroupSize.
  uint32_t getSubgroupSize() const;

  llvm::Error allocateMemory(const VkMemoryRequirements &requirements,
                             VkMemoryPropertyFlags wanted,
                             VkDeviceMemory &memory);
  /// vkCreateImage, then device memory for it, bound.
  llvm::Error createBoundImage(const VkImageCreateInfo &info, VkImage &image,
                               VkDeviceMemory &memory);
  /// Releases what createBoundImage made (either may be null).
  void destroyBoundImage(VkImage image, VkDeviceMemory memory);
  /// A mapped, zeroed, host-visible coherent buffer of `size` rounded up to
  /// 4 bytes; the caller releases it with destroyBuffer unless it is one
  /// of `buffers` or `images`.
  llvm::Error createHostBuffer(VkDeviceSize size, VkBufferUsageFlags usage,
                               Buffer &buffer);
  void destroyBuffer(Buffer &buffer);

  /// One buffer per Bindings::buffers, and the initial contents every run
  /// starts from (initialBuffers, pushConstants).
  llvm::Error createBuffers(const Bindings &bindings);
  /// One Image per Bindings::images, one sampler per Bindings::samplers.
  llvm::Error createImages(const Bindings &bindings);
  /// Set layouts (empty ones for unused set indices), the pipeline layout
  /// with the push-constant range, the pool and the written sets, every
  /// descriptor and the push constants visible to `stages`.
  llvm::Error createDescriptors(const Bindings &bindings,
                                VkShaderStageFlags stages);
  /// A module owned by the context.
  llvm::Error createShaderModule(const SpirvBinary &spirv,
                                 VkShaderModule &module);
  /// A pipeline stage of `spirv`'s `entry`, whose module the context owns;
  /// dispatches and draws make theirs alike.
  llvm::Expected<VkPipelineShaderStageCreateInfo>
  createShaderStage(const SpirvBinary &spirv, VkShaderStageFlagBits stage,
                    const std::string &entry,
                    const VkSpecializationInfo *specialization);

  /// The first run's and the others' milliseconds (RecordedWork).
  struct RunTimes {
    double first = 0;
    std::vector<double> others;
  };
  /// The one recording and submission path of dispatches and draws: binds
  /// the pipeline and the descriptors at `bindPoint`, records `work` once,
  /// then makes the writes of the shaders of `stages` visible to the host;
  /// submits it `repeat` + 1 times, each run from the initial contents
  /// (`beforeRun`, then restore(), outside the timing); then copies the
  /// images, and what `download` records (may be null), into host memory.
  llvm::Expected<RunTimes>
  runRecorded(uint32_t repeat, VkPipelineBindPoint bindPoint,
              VkShaderStageFlags bindingStages, VkPipelineStageFlags stages,
              llvm::function_ref<void(VkCommandBuffer)> work,
              llvm::function_ref<void(VkCommandBuffer)> download,
              llvm::function_ref<void()> beforeRun);

  /// The command pool and the fence.
  llvm::Error createCommandPool();
  /// A primary command buffer of the pool, begun.
  llvm::Expected<VkCommandBuffer> beginCommands();
  /// Binds the descriptor sets and pushes the push constants.
  void recordBindings(VkCommandBuffer commands, VkPipelineBindPoint bindPoint,
                      VkShaderStageFlags stages);
  /// Whether any Bindings::images is an image (not a texel buffer): those
  /// need the upload and download copies below.
  bool hasImages() const;
  /// Copies every image's initial texels from its staging buffer; the
  /// shaders of `stages` come before (the last run) and after.
  void recordImageUpload(VkCommandBuffer commands, VkPipelineStageFlags stages);
  /// Copies every image into its staging buffer after the shaders of
  /// `stages`; the caller makes the copies visible to the host.
  void recordImageDownload(VkCommandBuffer commands,
                           VkPipelineStageFlags stages);
  llvm::Error submitAndWait(VkCommandBuffer commands);
  /// Submits and waits; the milliseconds between the two.
  llvm::Expected<double> submitTimed(VkCommandBuffer commands);
  /// Restores the buffers and texel buffers by a host copy and the images
  /// by submitting `upload` (null when there are no images).
  llvm::Error restore(VkCommandBuffer upload);
  /// The buffers' and images' bytes (Result::buffers and ::images).
  std::vector<std::vector<uint8_t>> readBuffers() const;
  std::vector<std::vector<uint8_t>> readImages() const;

  uint32_t apiVersion = VK_API_VERSION_1_1;
  uint32_t deviceVersion = VK_API_VERSION_1_1;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  uint32_t queueFamily = 0;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  /// Every buffer gets a device address.
  bool deviceAddresses = false;
  /// The instance has VK_EXT_debug_utils: objects get names.
  bool hasDebugUtils = false;
  PFN_vkSetDebugUtilsObjectNameEXT setObjectName = nullptr;
  /// Names an object for the driver's and the layers' messages (no-op
  /// without VK_EXT_debug_utils).
  void nameObject(VkObjectType type, uint64_t handle, const std::string &name);

  /// The bindings given to createBuffers and createImages.
  llvm::ArrayRef<BufferBinding> bufferBindings;
  llvm::ArrayRef<ImageBinding> imageBindings;
  /// What each run starts from; runJob writes the addresses into them.
  std::vector<std::vector<uint8_t>> initialBuffers;
  std::vector<uint8_t> pushConstants;
  std::vector<Buffer> buffers;
  std::vector<Image> images;
  /// One per Bindings::samplers.
  std::vector<VkSampler> samplers;
  std::vector<VkDescriptorSetLayout> setLayouts;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
  std::vector<VkShaderModule> shaderModules;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

private:
  llvm::Error createSampler(const spvb_sampler &settings, VkSampler &result);
};

} // namespace spvb::vulkan

#endif // SPVBRIDGE_TOOLS_VULKAN_VULKANCONTEXT_H
