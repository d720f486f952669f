//===- VulkanContext.cpp - What runJob and runDraw share ------------------===//
//
// Follows ../shared/tools/vkref step by step, so that spv-run
// --backend=vulkan and vkref do the same thing with the driver; vkref's
// exits become llvm::Errors and every handle is released on every path.
//
//===----------------------------------------------------------------------===//

#include "VulkanContext.h"

#include "VulkanFeatures.h"

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <tuple>

using namespace spvb;
using namespace spvb::vulkan;

namespace {

llvm::StringRef getResultName(VkResult result) {
  switch (result) {
#define SPVB_RESULT(name)                                                      \
  case name:                                                                   \
    return #name;
    SPVB_RESULT(VK_NOT_READY)
    SPVB_RESULT(VK_TIMEOUT)
    SPVB_RESULT(VK_INCOMPLETE)
    SPVB_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    SPVB_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    SPVB_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    SPVB_RESULT(VK_ERROR_DEVICE_LOST)
    SPVB_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    SPVB_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    SPVB_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    SPVB_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    SPVB_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    SPVB_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    SPVB_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    SPVB_RESULT(VK_ERROR_FRAGMENTED_POOL)
    SPVB_RESULT(VK_ERROR_UNKNOWN)
    SPVB_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    SPVB_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    SPVB_RESULT(VK_ERROR_FRAGMENTATION)
    SPVB_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    SPVB_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    SPVB_RESULT(VK_ERROR_INVALID_SHADER_NV)
#undef SPVB_RESULT
  default:
    return "VkResult";
  }
}

const char *const NoDeviceHint =
    "install mesa-vulkan-drivers for lavapipe, or point VK_ICD_FILENAMES at "
    "a driver's ICD file";

struct FormatEntry {
  VkFormat vulkan;
  std::string name;
};

/// The VkFormat of a SPIR-V ImageFormat, named for messages.
std::optional<FormatEntry> findFormat(uint32_t format) {
  VkFormat vulkan = runtime::getVulkanImageFormat(format);
  if (vulkan == VK_FORMAT_UNDEFINED)
    return std::nullopt;
  const runtime::VulkanFormat *known = runtime::getVulkanFormat(vulkan);
  return FormatEntry{vulkan, known ? std::string("VK_FORMAT_") + known->name
                                   : "VkFormat " + std::to_string(vulkan)};
}

bool isTexelBuffer(const ImageBinding &image) {
  return image.kind == ImageBinding::Kind::UniformTexelBuffer ||
         image.kind == ImageBinding::Kind::StorageTexelBuffer;
}

VkDescriptorType getDescriptorType(ImageBinding::Kind kind) {
  switch (kind) {
  case ImageBinding::Kind::StorageImage:
    return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  case ImageBinding::Kind::SampledImage:
    return VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
  case ImageBinding::Kind::CombinedImageSampler:
    return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  case ImageBinding::Kind::UniformTexelBuffer:
    return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  case ImageBinding::Kind::StorageTexelBuffer:
    return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  }
  return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
}

/// The size of mip level \p level of an image of extent \p extent.
VkExtent3D getLevelExtent(const ImageBinding &image, uint32_t level) {
  return {std::max(1u, image.extent[0] >> level),
          std::max(1u, image.extent[1] >> level),
          std::max(1u, image.extent[2] >> level)};
}

/// One VkBufferImageCopy per level: the packed layout puts each level's
/// layers one after another, which is what a copy of all layers reads.
std::vector<VkBufferImageCopy> getLevelCopies(const ImageBinding &image) {
  uint64_t texels = 0;
  for (uint32_t level = 0; level < image.levels; ++level) {
    VkExtent3D size = getLevelExtent(image, level);
    texels += uint64_t(size.width) * size.height * size.depth * image.layers;
  }
  uint64_t texelBytes = texels ? image.initial.size() / texels : 0;
  std::vector<VkBufferImageCopy> copies;
  VkDeviceSize offset = 0;
  for (uint32_t level = 0; level < image.levels; ++level) {
    VkExtent3D size = getLevelExtent(image, level);
    VkBufferImageCopy copy{};
    copy.bufferOffset = offset;
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, image.layers};
    copy.imageExtent = size;
    copies.push_back(copy);
    offset += uint64_t(size.width) * size.height * size.depth * image.layers *
              texelBytes;
  }
  return copies;
}

/// Appends \p feature to the pNext chain that starts at \p chain.
void appendToChain(void *chain, void *feature) {
  auto *node = static_cast<VkBaseOutStructure *>(chain);
  while (node->pNext)
    node = node->pNext;
  node->pNext = static_cast<VkBaseOutStructure *>(feature);
}

/// Bytes the driver reads for a specialization constant: VkBool32 for bool,
/// else the SPIR-V type's size.
uint32_t getSpecConstantSize(llvm::StringRef type) {
  if (type == "bool")
    return sizeof(VkBool32);
  if (type.ends_with("8"))
    return 1;
  if (type.ends_with("16"))
    return 2;
  if (type.ends_with("64"))
    return 8;
  return 4;
}

} // namespace

llvm::Error spvb::vulkan::makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error spvb::vulkan::check(VkResult result, llvm::StringRef call) {
  if (result == VK_SUCCESS)
    return llvm::Error::success();
  return makeError(llvm::formatv("error: vulkan: {0} failed: {1} ({2})", call,
                                 getResultName(result),
                                 static_cast<int>(result)));
}

void spvb::vulkan::recordMemoryBarrier(VkCommandBuffer commands,
                                       VkPipelineStageFlags srcStage,
                                       VkAccessFlags srcAccess,
                                       VkPipelineStageFlags dstStage,
                                       VkAccessFlags dstAccess) {
  auto barrier = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  vkCmdPipelineBarrier(commands, srcStage, dstStage, 0, 1, &barrier, 0, nullptr,
                       0, nullptr);
}

double spvb::vulkan::millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

Specialization::Specialization(llvm::ArrayRef<SpecConstantValue> values) {
  for (const SpecConstantValue &value : values) {
    uint32_t size = getSpecConstantSize(value.type);
    entries.push_back({value.id, static_cast<uint32_t>(data.size()), size});
    // The words are little-endian with the low word first, so the value's
    // bytes are the first `size` bytes.
    for (uint32_t i = 0; i < size; ++i)
      data.push_back(static_cast<uint8_t>(
          i / 4 < value.words.size() ? value.words[i / 4] >> (8 * (i % 4))
                                     : 0));
  }
  info = {static_cast<uint32_t>(entries.size()), entries.data(), data.size(),
          data.data()};
}

Context::~Context() {
  if (device) {
    vkDeviceWaitIdle(device);
    if (fence)
      vkDestroyFence(device, fence, nullptr);
    if (commandPool)
      vkDestroyCommandPool(device, commandPool, nullptr);
    if (pipeline)
      vkDestroyPipeline(device, pipeline, nullptr);
    for (VkShaderModule module : shaderModules)
      vkDestroyShaderModule(device, module, nullptr);
    if (descriptorPool)
      vkDestroyDescriptorPool(device, descriptorPool, nullptr);
    if (pipelineLayout)
      vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
    for (VkDescriptorSetLayout layout : setLayouts)
      if (layout)
        vkDestroyDescriptorSetLayout(device, layout, nullptr);
    for (Buffer &buffer : buffers)
      destroyBuffer(buffer);
    for (VkSampler sampler : samplers)
      if (sampler)
        vkDestroySampler(device, sampler, nullptr);
    for (Image &image : images) {
      if (image.sampler)
        vkDestroySampler(device, image.sampler, nullptr);
      if (image.view)
        vkDestroyImageView(device, image.view, nullptr);
      destroyBoundImage(image.image, image.memory);
      if (image.bufferView)
        vkDestroyBufferView(device, image.bufferView, nullptr);
      destroyBuffer(image.buffer);
    }
    vkDestroyDevice(device, nullptr);
  }
  if (instance)
    vkDestroyInstance(instance, nullptr);
}

llvm::Error Context::createInstance() {
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  auto enumerateVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceVersion"));
  if (enumerateVersion)
    enumerateVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_1)
    return makeError("error: --backend=vulkan: the Vulkan loader supports "
                     "only Vulkan 1.0 (1.1 is needed)");
  apiVersion = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);
  auto application =
      makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.pApplicationName = "spv-run";
  application.apiVersion = apiVersion;
  auto info =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &application;
  // Where the loader offers VK_EXT_debug_utils, the buffers carry names
  // (nameObject), which a driver may show in its messages.
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  const char *debugUtils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  hasDebugUtils = llvm::any_of(extensions, [&](const VkExtensionProperties &e) {
    return llvm::StringRef(e.extensionName) == debugUtils;
  });
  if (hasDebugUtils) {
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &debugUtils;
  }
  VkResult result = vkCreateInstance(&info, nullptr, &instance);
  // The loader answers so when it finds no driver at all.
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return makeError(llvm::Twine("error: --backend=vulkan: no Vulkan device "
                                 "(vkCreateInstance found no driver; ") +
                     NoDeviceHint + ")");
  return check(result, "vkCreateInstance");
}

llvm::Error Context::pickDevice(std::optional<uint32_t> deviceIndex,
                                VkQueueFlagBits queueFlag,
                                llvm::StringRef queueName) {
  uint32_t count = 0;
  if (llvm::Error error =
          check(vkEnumeratePhysicalDevices(instance, &count, nullptr),
                "vkEnumeratePhysicalDevices"))
    return error;
  if (count == 0)
    return makeError(
        llvm::Twine("error: --backend=vulkan: no Vulkan device (") +
        NoDeviceHint + ")");
  std::vector<VkPhysicalDevice> devices(count);
  if (llvm::Error error =
          check(vkEnumeratePhysicalDevices(instance, &count, devices.data()),
                "vkEnumeratePhysicalDevices"))
    return error;
  if (deviceIndex) {
    if (*deviceIndex >= count)
      return makeError(llvm::formatv(
          "error: --device '{0}': out of range ({1} Vulkan device{2})",
          *deviceIndex, count, count == 1 ? "" : "s"));
    physicalDevice = devices[*deviceIndex];
  } else {
    // Prefer a CPU device (lavapipe), as vkref does.
    for (VkPhysicalDevice candidate : devices) {
      vkGetPhysicalDeviceProperties(candidate, &properties);
      if (properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        physicalDevice = candidate;
        break;
      }
    }
    if (!physicalDevice) {
      physicalDevice = devices[0];
      vkGetPhysicalDeviceProperties(physicalDevice, &properties);
      llvm::errs() << "warning: --backend=vulkan: no CPU Vulkan device; using "
                   << properties.deviceName << "\n";
    }
  }
  vkGetPhysicalDeviceProperties(physicalDevice, &properties);
  if (properties.apiVersion < VK_API_VERSION_1_1)
    return makeError(llvm::formatv("error: --backend=vulkan: the Vulkan device "
                                   "'{0}' supports only Vulkan 1.0 (1.1 is "
                                   "needed)",
                                   properties.deviceName));
  deviceVersion = std::min(properties.apiVersion, apiVersion);

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount,
                                           nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount,
                                           families.data());
  for (uint32_t i = 0; i < familyCount; ++i)
    if (families[i].queueFlags & queueFlag) {
      queueFamily = i;
      return llvm::Error::success();
    }
  return makeError(llvm::formatv("error: --backend=vulkan: the Vulkan device "
                                 "'{0}' has no {1} queue",
                                 properties.deviceName, queueName));
}

llvm::Error Context::checkBindingLimits(const Bindings &bindings) {
  const VkPhysicalDeviceLimits &limits = properties.limits;
  if (bindings.pushConstants.size() > limits.maxPushConstantsSize)
    return makeError(llvm::formatv("error: --push: {0} bytes exceed the "
                                   "Vulkan device's limit of {1}",
                                   bindings.pushConstants.size(),
                                   limits.maxPushConstantsSize));
  for (const BufferBinding &buffer : bindings.buffers) {
    uint32_t limit = buffer.uniform ? limits.maxUniformBufferRange
                                    : limits.maxStorageBufferRange;
    if (buffer.initial.size() > limit)
      return makeError(llvm::formatv(
          "error: --buffer {0}:{1}{2}: {3} bytes exceed the Vulkan device's "
          "limit of {4} for {5} buffers",
          buffer.set, buffer.binding,
          buffer.arraySize == 1
              ? std::string()
              : llvm::formatv("[{0}]", buffer.arrayElement).str(),
          buffer.initial.size(), limit,
          buffer.uniform ? "uniform" : "storage"));
  }
  // Descriptors per stage (the layout bindings' descriptorCount): more
  // than the device has is invalid usage, which drivers may crash on.
  uint64_t storage = 0, uniform = 0;
  for (const BufferBinding &buffer : bindings.buffers)
    if (buffer.arrayElement == 0)
      (buffer.uniform ? uniform : storage) += buffer.arraySize;
  for (auto [count, limit, kind, name] :
       {std::make_tuple(storage, limits.maxPerStageDescriptorStorageBuffers,
                        "storage", "maxPerStageDescriptorStorageBuffers"),
        std::make_tuple(uniform, limits.maxPerStageDescriptorUniformBuffers,
                        "uniform", "maxPerStageDescriptorUniformBuffers")})
    if (count > limit)
      return makeError(llvm::formatv(
          "error: --buffer: {0} {1} buffer descriptors exceed the Vulkan "
          "device's limit of {2} ({3})",
          count, kind, limit, name));
  return llvm::Error::success();
}

uint32_t Context::getSubgroupSize() const {
  auto subgroup = makeStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto properties2 = makeStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  properties2.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physicalDevice, &properties2);
  return subgroup.subgroupSize;
}

llvm::Error Context::createDevice(const DeviceRequest &request) {
  // Every supported core feature, so shaders using Int64, Float64, 8/16-bit
  // storage and the like run; robustness only on request.
  auto features13 = makeStruct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  auto features12 = makeStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto features11 = makeStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  auto features = makeStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  // The 1.1 struct is only valid in the chain from Vulkan 1.2 on.
  if (deviceVersion >= VK_API_VERSION_1_2) {
    appendToChain(&features, &features11);
    appendToChain(&features, &features12);
  }
  if (deviceVersion >= VK_API_VERSION_1_3)
    appendToChain(&features, &features13);
  vkGetPhysicalDeviceFeatures2(physicalDevice, &features);

  uint32_t extensionCount = 0;
  if (llvm::Error error =
          check(vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr,
                                                     &extensionCount, nullptr),
                "vkEnumerateDeviceExtensionProperties"))
    return error;
  std::vector<VkExtensionProperties> extensions(extensionCount);
  if (llvm::Error error = check(
          vkEnumerateDeviceExtensionProperties(
              physicalDevice, nullptr, &extensionCount, extensions.data()),
          "vkEnumerateDeviceExtensionProperties"))
    return error;
  auto hasExtension = [&](llvm::StringRef name) {
    return llvm::any_of(extensions, [&](const VkExtensionProperties &e) {
      return name == e.extensionName;
    });
  };

  // Extension features: queried in their own chain, then appended to the
  // enable chain as the device reports them.
  auto atomicFloat = makeStruct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  auto atomicFloat2 = makeStruct<VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT);
  auto clock = makeStruct<VkPhysicalDeviceShaderClockFeaturesKHR>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR);
  auto robustness2 = makeStruct<VkPhysicalDeviceRobustness2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  auto extensionFeatures = makeStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  std::vector<const char *> enabled;
  auto addExtension = [&](const char *name, void *feature) {
    if (!hasExtension(name))
      return false;
    enabled.push_back(name);
    if (feature)
      appendToChain(&extensionFeatures, feature);
    return true;
  };
  addExtension(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME, nullptr);
  addExtension(VK_KHR_SHADER_CLOCK_EXTENSION_NAME, &clock);
  // atomic_float2 requires atomic_float.
  if (addExtension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME, &atomicFloat))
    addExtension(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME, &atomicFloat2);
  bool hasRobustness2 =
      request.robust &&
      addExtension(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME, &robustness2);
  vkGetPhysicalDeviceFeatures2(physicalDevice, &extensionFeatures);

  bool stagePointSize = false;
  for (const SpirvBinary *module : request.modules)
    stagePointSize |= writesStagePointSize(module->words);
  features.features.shaderTessellationAndGeometryPointSize &= stagePointSize;
  for (const SpirvBinary *module : request.modules)
    if (std::optional<std::string> missing =
            findMissingFeature(module->words, {features.features, features11,
                                               features12, features13}))
      return makeError(llvm::formatv("error: vulkan: the shader's {0}, which "
                                     "the Vulkan device '{1}' does not report",
                                     *missing, properties.deviceName));
  if (request.robust) {
    if (!features.features.robustBufferAccess)
      return makeError(llvm::formatv("error: --robust: the Vulkan device "
                                     "'{0}' has no robustBufferAccess",
                                     properties.deviceName));
    if (!hasRobustness2 || !robustness2.robustBufferAccess2)
      return makeError(llvm::formatv(
          "error: --robust: the Vulkan device '{0}' has no robustBufferAccess2 "
          "(VK_EXT_robustness2)",
          properties.deviceName));
    // --robust promises robustBufferAccess2 for buffers only; image
    // accesses out of bounds stay as the driver does them.
    robustness2.robustImageAccess2 = VK_FALSE;
    robustness2.nullDescriptor = VK_FALSE;
  } else {
    features.features.robustBufferAccess = VK_FALSE;
  }
  features13.robustImageAccess = VK_FALSE;
  deviceAddresses = request.deviceAddresses;
  if (deviceAddresses &&
      (deviceVersion < VK_API_VERSION_1_2 || !features12.bufferDeviceAddress))
    return makeError(llvm::formatv("error: --{0}: the Vulkan device '{1}' has "
                                   "no bufferDeviceAddress (Vulkan 1.2)",
                                   request.addressOption,
                                   properties.deviceName));
  if (extensionFeatures.pNext)
    appendToChain(&features, extensionFeatures.pNext);

  float priority = 1.0f;
  auto queueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto info =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &features;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = static_cast<uint32_t>(enabled.size());
  info.ppEnabledExtensionNames = enabled.data();
  if (llvm::Error error =
          check(vkCreateDevice(physicalDevice, &info, nullptr, &device),
                "vkCreateDevice"))
    return error;
  vkGetDeviceQueue(device, queueFamily, 0, &queue);
  if (hasDebugUtils)
    setObjectName = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance, "vkSetDebugUtilsObjectNameEXT"));
  return llvm::Error::success();
}

void Context::nameObject(VkObjectType type, uint64_t handle,
                         const std::string &name) {
  if (!setObjectName)
    return;
  auto info = makeStruct<VkDebugUtilsObjectNameInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT);
  info.objectType = type;
  info.objectHandle = handle;
  info.pObjectName = name.c_str();
  setObjectName(device, &info);
}

void Context::destroyBuffer(Buffer &buffer) {
  if (buffer.mapped)
    vkUnmapMemory(device, buffer.memory);
  if (buffer.buffer)
    vkDestroyBuffer(device, buffer.buffer, nullptr);
  if (buffer.memory)
    vkFreeMemory(device, buffer.memory, nullptr);
}

llvm::Error Context::createBoundImage(const VkImageCreateInfo &info,
                                      VkImage &image, VkDeviceMemory &memory) {
  if (llvm::Error error =
          check(vkCreateImage(device, &info, nullptr, &image), "vkCreateImage"))
    return error;
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(device, image, &requirements);
  if (llvm::Error error = allocateMemory(requirements, 0, memory))
    return error;
  return check(vkBindImageMemory(device, image, memory, 0),
               "vkBindImageMemory");
}

void Context::destroyBoundImage(VkImage image, VkDeviceMemory memory) {
  if (image)
    vkDestroyImage(device, image, nullptr);
  if (memory)
    vkFreeMemory(device, memory, nullptr);
}

llvm::Error Context::allocateMemory(const VkMemoryRequirements &requirements,
                                    VkMemoryPropertyFlags wanted,
                                    VkDeviceMemory &memory) {
  VkPhysicalDeviceMemoryProperties types;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &types);
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < types.memoryTypeCount && type == UINT32_MAX; ++i)
    if ((requirements.memoryTypeBits & (1u << i)) &&
        (types.memoryTypes[i].propertyFlags & wanted) == wanted)
      type = i;
  if (type == UINT32_MAX)
    return makeError(llvm::formatv(
        "error: --backend=vulkan: the Vulkan "
        "device '{0}' has no {1} memory",
        properties.deviceName, wanted ? "host-visible coherent" : "suitable"));
  auto allocation =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = type;
  auto flags = makeStruct<VkMemoryAllocateFlagsInfo>(
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  if (deviceAddresses)
    allocation.pNext = &flags;
  return check(vkAllocateMemory(device, &allocation, nullptr, &memory),
               "vkAllocateMemory");
}

llvm::Error Context::createHostBuffer(VkDeviceSize size,
                                      VkBufferUsageFlags usage,
                                      Buffer &buffer) {
  auto info =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  // Descriptor ranges are multiples of 4 bytes, as in vkref.
  info.size = (size + 3) & ~VkDeviceSize(3);
  info.usage = usage;
  if (deviceAddresses)
    info.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  if (llvm::Error error =
          check(vkCreateBuffer(device, &info, nullptr, &buffer.buffer),
                "vkCreateBuffer"))
    return error;
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, buffer.buffer, &requirements);
  if (llvm::Error error =
          allocateMemory(requirements,
                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                             VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                         buffer.memory))
    return error;
  if (llvm::Error error =
          check(vkBindBufferMemory(device, buffer.buffer, buffer.memory, 0),
                "vkBindBufferMemory"))
    return error;
  if (llvm::Error error = check(vkMapMemory(device, buffer.memory, 0,
                                            VK_WHOLE_SIZE, 0, &buffer.mapped),
                                "vkMapMemory"))
    return error;
  std::memset(buffer.mapped, 0, info.size);
  return llvm::Error::success();
}

llvm::Error Context::createBuffers(const Bindings &bindings) {
  bufferBindings = bindings.buffers;
  for (const BufferBinding &binding : bindings.buffers) {
    if (llvm::Error error = createHostBuffer(
            binding.initial.size(),
            binding.uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                            : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            buffers.emplace_back()))
      return error;
    nameObject(
        VK_OBJECT_TYPE_BUFFER,
        reinterpret_cast<uint64_t>(buffers.back().buffer),
        llvm::formatv("spv-run buffer {0}:{1}{2}", binding.set, binding.binding,
                      binding.arraySize != 1
                          ? llvm::formatv("[{0}]", binding.arrayElement).str()
                          : std::string())
            .str());
    initialBuffers.emplace_back(binding.initial.begin(), binding.initial.end());
  }
  pushConstants.assign(bindings.pushConstants.begin(),
                       bindings.pushConstants.end());
  return llvm::Error::success();
}

/// Whether the device can use \p image's format as the job does.
static llvm::Error checkFormat(VkPhysicalDevice physicalDevice,
                               const VkPhysicalDeviceProperties &properties,
                               const ImageBinding &image,
                               const FormatEntry &format) {
  VkFormatProperties support;
  vkGetPhysicalDeviceFormatProperties(physicalDevice, format.vulkan, &support);
  auto require = [&](VkFormatFeatureFlags have, VkFormatFeatureFlags needed,
                     llvm::StringRef use) -> llvm::Error {
    if ((have & needed) == needed)
      return llvm::Error::success();
    return makeError(llvm::formatv("error: --image {0}:{1}: the Vulkan device "
                                   "'{2}' cannot use {3} ({4}) as {5}",
                                   image.set, image.binding,
                                   properties.deviceName, image.formatName,
                                   format.name.c_str(), use));
  };
  switch (image.kind) {
  case ImageBinding::Kind::UniformTexelBuffer:
    return require(support.bufferFeatures,
                   VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT,
                   "a uniform texel buffer");
  case ImageBinding::Kind::StorageTexelBuffer:
    return require(support.bufferFeatures,
                   VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT,
                   "a storage texel buffer");
  case ImageBinding::Kind::StorageImage:
    if (llvm::Error error =
            require(support.optimalTilingFeatures,
                    VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, "a storage image"))
      return error;
    break;
  case ImageBinding::Kind::SampledImage:
  case ImageBinding::Kind::CombinedImageSampler: {
    if (llvm::Error error =
            require(support.optimalTilingFeatures,
                    VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, "a sampled image"))
      return error;
    const std::optional<spvb_sampler> &sampler = image.sampler;
    if (sampler && (sampler->mag_filter == VK_FILTER_LINEAR ||
                    sampler->min_filter == VK_FILTER_LINEAR ||
                    sampler->mipmap_mode == VK_SAMPLER_MIPMAP_MODE_LINEAR))
      if (llvm::Error error =
              require(support.optimalTilingFeatures,
                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT,
                      "a linearly filtered sampled image"))
        return error;
    break;
  }
  }
  // The texels go in and out through copies.
  return require(support.optimalTilingFeatures,
                 VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                     VK_FORMAT_FEATURE_TRANSFER_DST_BIT,
                 "a transfer source and destination");
}

llvm::Error Context::createImages(const Bindings &bindings) {
  imageBindings = bindings.images;
  for (const ImageBinding &binding : bindings.images) {
    Image &image = images.emplace_back();
    std::optional<FormatEntry> format = findFormat(binding.format);
    if (!format)
      return makeError(llvm::formatv("error: --image {0}:{1}: the Vulkan "
                                     "backend has no VkFormat for {2}",
                                     binding.set, binding.binding,
                                     binding.formatName));
    if (llvm::Error error =
            checkFormat(physicalDevice, properties, binding, *format))
      return error;

    if (isTexelBuffer(binding)) {
      bool storage = binding.kind == ImageBinding::Kind::StorageTexelBuffer;
      uint64_t texels = binding.extent[0];
      if (texels > properties.limits.maxTexelBufferElements)
        return makeError(llvm::formatv(
            "error: --image {0}:{1}: {2} texels exceed the Vulkan device's "
            "limit of {3} for texel buffers",
            binding.set, binding.binding, texels,
            properties.limits.maxTexelBufferElements));
      if (llvm::Error error = createHostBuffer(
              binding.initial.size(),
              storage ? VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT
                      : VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT,
              image.buffer))
        return error;
      auto info = makeStruct<VkBufferViewCreateInfo>(
          VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
      info.buffer = image.buffer.buffer;
      info.format = format->vulkan;
      info.range = binding.initial.size();
      if (llvm::Error error = check(
              vkCreateBufferView(device, &info, nullptr, &image.bufferView),
              "vkCreateBufferView"))
        return error;
      continue;
    }

    bool cube = binding.dim == spv::DimCube;
    bool storage = binding.kind == ImageBinding::Kind::StorageImage;
    auto info =
        makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
    info.flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0;
    info.imageType = binding.dim == spv::Dim1D   ? VK_IMAGE_TYPE_1D
                     : binding.dim == spv::Dim3D ? VK_IMAGE_TYPE_3D
                                                 : VK_IMAGE_TYPE_2D;
    info.format = format->vulkan;
    info.extent = getLevelExtent(binding, 0);
    info.mipLevels = binding.levels;
    info.arrayLayers = binding.layers;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage =
        (storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT) |
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (llvm::Error error = createBoundImage(info, image.image, image.memory))
      return error;

    auto view = makeStruct<VkImageViewCreateInfo>(
        VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    view.image = image.image;
    switch (binding.dim) {
    case spv::Dim1D:
      view.viewType =
          binding.arrayed ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D;
      break;
    case spv::Dim3D:
      view.viewType = VK_IMAGE_VIEW_TYPE_3D;
      break;
    case spv::DimCube:
      view.viewType = binding.arrayed ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY
                                      : VK_IMAGE_VIEW_TYPE_CUBE;
      break;
    default:
      view.viewType =
          binding.arrayed ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
      break;
    }
    view.format = format->vulkan;
    // A storage image view has one level (Vulkan requires it; image
    // reads and writes have no LOD), so the shader sees level 0.
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0,
                             storage ? 1 : binding.levels, 0, binding.layers};
    if (llvm::Error error =
            check(vkCreateImageView(device, &view, nullptr, &image.view),
                  "vkCreateImageView"))
      return error;

    if (llvm::Error error = createHostBuffer(
            binding.initial.size(),
            VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
            image.buffer))
      return error;
    std::memcpy(image.buffer.mapped, binding.initial.data(),
                binding.initial.size());

    if (binding.kind != ImageBinding::Kind::CombinedImageSampler)
      continue;
    // Without --sampler: nearest, clamp to edge, every level, as the CPU
    // runtime samples with no sampler.
    spvb_sampler settings{};
    for (uint32_t &mode : settings.address_mode)
      mode = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    settings.max_lod = VK_LOD_CLAMP_NONE;
    if (binding.sampler)
      settings = *binding.sampler;
    if (llvm::Error error = createSampler(settings, image.sampler))
      return error;
  }
  for (const SamplerBinding &binding : bindings.samplers)
    if (llvm::Error error =
            createSampler(binding.settings, samplers.emplace_back()))
      return error;
  return llvm::Error::success();
}

/// A VkSampler with the settings of an spvb_sampler.
llvm::Error Context::createSampler(const spvb_sampler &settings,
                                   VkSampler &result) {
  auto sampler =
      makeStruct<VkSamplerCreateInfo>(VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO);
  sampler.magFilter = static_cast<VkFilter>(settings.mag_filter);
  sampler.minFilter = static_cast<VkFilter>(settings.min_filter);
  sampler.mipmapMode = static_cast<VkSamplerMipmapMode>(settings.mipmap_mode);
  sampler.addressModeU =
      static_cast<VkSamplerAddressMode>(settings.address_mode[0]);
  sampler.addressModeV =
      static_cast<VkSamplerAddressMode>(settings.address_mode[1]);
  sampler.addressModeW =
      static_cast<VkSamplerAddressMode>(settings.address_mode[2]);
  sampler.mipLodBias = settings.mip_lod_bias;
  sampler.minLod = settings.min_lod;
  sampler.maxLod = settings.max_lod;
  sampler.borderColor = static_cast<VkBorderColor>(settings.border_color);
  sampler.unnormalizedCoordinates = settings.unnormalized_coordinates;
  sampler.compareEnable = settings.compare_enable;
  sampler.compareOp = static_cast<VkCompareOp>(settings.compare_op);
  // Vulkan requires both LOD clamps to be 0 with unnormalized coordinates,
  // which sample level 0 anyway.
  if (settings.unnormalized_coordinates)
    sampler.minLod = sampler.maxLod = 0;
  if (llvm::Error error =
          check(vkCreateSampler(device, &sampler, nullptr, &result),
                "vkCreateSampler"))
    return error;
  return llvm::Error::success();
}

llvm::Error Context::createDescriptors(const Bindings &bindings,
                                       VkShaderStageFlags stages) {
  // Every descriptor of the job: buffers, images, then samplers.
  struct Descriptor {
    uint32_t set;
    uint32_t binding;
    uint32_t arrayElement;
    uint32_t arraySize;
    VkDescriptorType type;
    VkDescriptorBufferInfo buffer{};
    VkDescriptorImageInfo image{};
    VkBufferView texelBuffer = VK_NULL_HANDLE;
  };
  std::vector<Descriptor> descriptors;
  for (size_t i = 0; i < bindings.buffers.size(); ++i) {
    const BufferBinding &buffer = bindings.buffers[i];
    Descriptor &descriptor = descriptors.emplace_back(Descriptor{
        buffer.set, buffer.binding, buffer.arrayElement, buffer.arraySize,
        buffer.uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                       : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER});
    descriptor.buffer = {buffers[i].buffer, 0, VK_WHOLE_SIZE};
  }
  for (size_t i = 0; i < bindings.images.size(); ++i) {
    const ImageBinding &image = bindings.images[i];
    Descriptor &descriptor = descriptors.emplace_back(
        Descriptor{image.set, image.binding, image.arrayElement,
                   image.arraySize, getDescriptorType(image.kind)});
    descriptor.image = {images[i].sampler, images[i].view,
                        VK_IMAGE_LAYOUT_GENERAL};
    descriptor.texelBuffer = images[i].bufferView;
  }
  for (size_t i = 0; i < bindings.samplers.size(); ++i) {
    const SamplerBinding &sampler = bindings.samplers[i];
    Descriptor &descriptor = descriptors.emplace_back(
        Descriptor{sampler.set, sampler.binding, sampler.arrayElement,
                   sampler.arraySize, VK_DESCRIPTOR_TYPE_SAMPLER});
    descriptor.image = {samplers[i], VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
  }

  // One layout per set index up to the highest used; unused ones are empty.
  uint32_t setCount = 0;
  for (const Descriptor &descriptor : descriptors)
    setCount = std::max(setCount, descriptor.set + 1);
  if (setCount > properties.limits.maxBoundDescriptorSets)
    return makeError(llvm::formatv("error: --buffer: set {0} exceeds the "
                                   "Vulkan device's limit of {1} descriptor "
                                   "sets",
                                   setCount - 1,
                                   properties.limits.maxBoundDescriptorSets));
  setLayouts.assign(setCount, VK_NULL_HANDLE);
  std::vector<VkDescriptorPoolSize> sizes;
  for (uint32_t set = 0; set < setCount; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const Descriptor &descriptor : descriptors) {
      if (descriptor.set != set)
        continue;
      // The elements of a descriptor array share one layout binding.
      if (llvm::any_of(bindings, [&](const VkDescriptorSetLayoutBinding &b) {
            return b.binding == descriptor.binding;
          }))
        continue;
      bindings.push_back({descriptor.binding, descriptor.type,
                          descriptor.arraySize, stages, nullptr});
      auto size = llvm::find_if(sizes, [&](const VkDescriptorPoolSize &s) {
        return s.type == descriptor.type;
      });
      if (size == sizes.end())
        sizes.push_back({descriptor.type, descriptor.arraySize});
      else
        size->descriptorCount += descriptor.arraySize;
    }
    auto info = makeStruct<VkDescriptorSetLayoutCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    info.bindingCount = static_cast<uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    if (llvm::Error error = check(vkCreateDescriptorSetLayout(
                                      device, &info, nullptr, &setLayouts[set]),
                                  "vkCreateDescriptorSetLayout"))
      return error;
  }

  VkPushConstantRange pushRange{
      stages, 0, static_cast<uint32_t>(bindings.pushConstants.size())};
  auto layoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = setCount;
  layoutInfo.pSetLayouts = setLayouts.data();
  layoutInfo.pushConstantRangeCount = bindings.pushConstants.empty() ? 0 : 1;
  layoutInfo.pPushConstantRanges = &pushRange;
  if (llvm::Error error = check(
          vkCreatePipelineLayout(device, &layoutInfo, nullptr, &pipelineLayout),
          "vkCreatePipelineLayout"))
    return error;
  if (setCount == 0)
    return llvm::Error::success();

  auto poolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = setCount;
  poolInfo.poolSizeCount = static_cast<uint32_t>(sizes.size());
  poolInfo.pPoolSizes = sizes.data();
  if (llvm::Error error = check(
          vkCreateDescriptorPool(device, &poolInfo, nullptr, &descriptorPool),
          "vkCreateDescriptorPool"))
    return error;
  sets.assign(setCount, VK_NULL_HANDLE);
  auto allocation = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocation.descriptorPool = descriptorPool;
  allocation.descriptorSetCount = setCount;
  allocation.pSetLayouts = setLayouts.data();
  if (llvm::Error error =
          check(vkAllocateDescriptorSets(device, &allocation, sets.data()),
                "vkAllocateDescriptorSets"))
    return error;
  std::vector<VkWriteDescriptorSet> writes;
  for (const Descriptor &descriptor : descriptors) {
    VkWriteDescriptorSet &write =
        writes.emplace_back(makeStruct<VkWriteDescriptorSet>(
            VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET));
    write.dstSet = sets[descriptor.set];
    write.dstBinding = descriptor.binding;
    write.dstArrayElement = descriptor.arrayElement;
    write.descriptorCount = 1;
    write.descriptorType = descriptor.type;
    write.pBufferInfo = &descriptor.buffer;
    write.pImageInfo = &descriptor.image;
    write.pTexelBufferView = &descriptor.texelBuffer;
  }
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()),
                         writes.data(), 0, nullptr);
  return llvm::Error::success();
}

llvm::Error Context::submitAndWait(VkCommandBuffer commands) {
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (llvm::Error error =
          check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit"))
    return error;
  if (llvm::Error error =
          check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX),
                "vkWaitForFences"))
    return error;
  return check(vkResetFences(device, 1, &fence), "vkResetFences");
}

llvm::Expected<double> Context::submitTimed(VkCommandBuffer commands) {
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  auto start = Clock::now();
  if (llvm::Error error =
          check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit"))
    return error;
  if (llvm::Error error =
          check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX),
                "vkWaitForFences"))
    return error;
  double milliseconds = millisecondsSince(start);
  if (llvm::Error error =
          check(vkResetFences(device, 1, &fence), "vkResetFences"))
    return error;
  return milliseconds;
}

llvm::Error Context::createShaderModule(const SpirvBinary &spirv,
                                        VkShaderModule &module) {
  auto info = makeStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = spirv.words.size() * sizeof(uint32_t);
  info.pCode = spirv.words.data();
  if (llvm::Error error =
          check(vkCreateShaderModule(device, &info, nullptr, &module),
                "vkCreateShaderModule"))
    return error;
  shaderModules.push_back(module);
  return llvm::Error::success();
}

llvm::Expected<VkPipelineShaderStageCreateInfo> Context::createShaderStage(
    const SpirvBinary &spirv, VkShaderStageFlagBits stage,
    const std::string &entry, const VkSpecializationInfo *specialization) {
  auto info = makeStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  if (llvm::Error error = createShaderModule(spirv, info.module))
    return error;
  info.stage = stage;
  info.pName = entry.c_str();
  info.pSpecializationInfo = specialization;
  return info;
}

llvm::Error Context::createCommandPool() {
  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.queueFamilyIndex = queueFamily;
  if (llvm::Error error =
          check(vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool),
                "vkCreateCommandPool"))
    return error;
  auto fenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  return check(vkCreateFence(device, &fenceInfo, nullptr, &fence),
               "vkCreateFence");
}

llvm::Expected<VkCommandBuffer> Context::beginCommands() {
  auto allocation = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocation.commandPool = commandPool;
  allocation.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocation.commandBufferCount = 1;
  VkCommandBuffer commands;
  if (llvm::Error error =
          check(vkAllocateCommandBuffers(device, &allocation, &commands),
                "vkAllocateCommandBuffers"))
    return error;
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  if (llvm::Error error =
          check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer"))
    return error;
  return commands;
}

void Context::recordBindings(VkCommandBuffer commands,
                             VkPipelineBindPoint bindPoint,
                             VkShaderStageFlags stages) {
  if (!sets.empty())
    vkCmdBindDescriptorSets(commands, bindPoint, pipelineLayout, 0,
                            static_cast<uint32_t>(sets.size()), sets.data(), 0,
                            nullptr);
  if (!pushConstants.empty())
    vkCmdPushConstants(commands, pipelineLayout, stages, 0,
                       static_cast<uint32_t>(pushConstants.size()),
                       pushConstants.data());
}

bool Context::hasImages() const {
  return llvm::any_of(images, [](const Image &i) { return i.image; });
}

/// A barrier over every level and layer of \p image into layout GENERAL.
static VkImageMemoryBarrier makeImageBarrier(VkImage image,
                                             const ImageBinding &binding,
                                             VkImageLayout oldLayout,
                                             VkAccessFlags srcAccess,
                                             VkAccessFlags dstAccess) {
  auto barrier =
      makeStruct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  barrier.srcAccessMask = srcAccess;
  barrier.dstAccessMask = dstAccess;
  barrier.oldLayout = oldLayout;
  barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, binding.levels, 0,
                              binding.layers};
  return barrier;
}

void Context::recordImageUpload(VkCommandBuffer commands,
                                VkPipelineStageFlags stages) {
  std::vector<VkImageMemoryBarrier> before, after;
  for (size_t i = 0; i < images.size(); ++i) {
    if (!images[i].image)
      continue;
    // UNDEFINED: the copy overwrites every texel of the last run.
    before.push_back(makeImageBarrier(
        images[i].image, imageBindings[i], VK_IMAGE_LAYOUT_UNDEFINED,
        VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT));
    after.push_back(makeImageBarrier(
        images[i].image, imageBindings[i], VK_IMAGE_LAYOUT_GENERAL,
        VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT));
  }
  vkCmdPipelineBarrier(commands, stages, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                       nullptr, 0, nullptr,
                       static_cast<uint32_t>(before.size()), before.data());
  for (size_t i = 0; i < images.size(); ++i) {
    if (!images[i].image)
      continue;
    std::vector<VkBufferImageCopy> copies = getLevelCopies(imageBindings[i]);
    vkCmdCopyBufferToImage(commands, images[i].buffer.buffer, images[i].image,
                           VK_IMAGE_LAYOUT_GENERAL,
                           static_cast<uint32_t>(copies.size()), copies.data());
  }
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, stages, 0, 0,
                       nullptr, 0, nullptr, static_cast<uint32_t>(after.size()),
                       after.data());
}

void Context::recordImageDownload(VkCommandBuffer commands,
                                  VkPipelineStageFlags stages) {
  recordMemoryBarrier(commands, stages, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_READ_BIT);
  for (size_t i = 0; i < images.size(); ++i) {
    if (!images[i].image)
      continue;
    std::vector<VkBufferImageCopy> copies = getLevelCopies(imageBindings[i]);
    vkCmdCopyImageToBuffer(commands, images[i].image, VK_IMAGE_LAYOUT_GENERAL,
                           images[i].buffer.buffer,
                           static_cast<uint32_t>(copies.size()), copies.data());
  }
}

llvm::Error Context::restore(VkCommandBuffer upload) {
  for (size_t i = 0; i < initialBuffers.size(); ++i)
    std::memcpy(buffers[i].mapped, initialBuffers[i].data(),
                initialBuffers[i].size());
  for (size_t i = 0; i < imageBindings.size(); ++i)
    if (!images[i].image)
      std::memcpy(images[i].buffer.mapped, imageBindings[i].initial.data(),
                  imageBindings[i].initial.size());
  if (upload)
    return submitAndWait(upload);
  return llvm::Error::success();
}

llvm::Expected<Context::RunTimes>
Context::runRecorded(uint32_t repeat, VkPipelineBindPoint bindPoint,
                     VkShaderStageFlags bindingStages,
                     VkPipelineStageFlags stages,
                     llvm::function_ref<void(VkCommandBuffer)> work,
                     llvm::function_ref<void(VkCommandBuffer)> download,
                     llvm::function_ref<void()> beforeRun) {
  if (llvm::Error error = createCommandPool())
    return error;
  // Recorded once, submitted for the warm-up and every timed run.
  llvm::Expected<VkCommandBuffer> commands = beginCommands();
  if (!commands)
    return commands.takeError();
  vkCmdBindPipeline(*commands, bindPoint, pipeline);
  recordBindings(*commands, bindPoint, bindingStages);
  work(*commands);
  // The host reads the buffers after the fence.
  recordMemoryBarrier(*commands, stages, VK_ACCESS_SHADER_WRITE_BIT,
                      VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (llvm::Error error =
          check(vkEndCommandBuffer(*commands), "vkEndCommandBuffer"))
    return error;

  // Images are restored by a copy from their staging buffers, submitted
  // before each run outside the timing, and read back into the same buffers
  // after the last run.
  VkCommandBuffer upload = VK_NULL_HANDLE, downloads = VK_NULL_HANDLE;
  if (hasImages()) {
    llvm::Expected<VkCommandBuffer> begun = beginCommands();
    if (!begun)
      return begun.takeError();
    upload = *begun;
    recordImageUpload(upload, stages);
    if (llvm::Error error =
            check(vkEndCommandBuffer(upload), "vkEndCommandBuffer"))
      return error;
  }
  if (hasImages() || download) {
    llvm::Expected<VkCommandBuffer> begun = beginCommands();
    if (!begun)
      return begun.takeError();
    downloads = *begun;
    if (hasImages())
      recordImageDownload(downloads, stages);
    if (download)
      download(downloads);
    recordMemoryBarrier(downloads, VK_PIPELINE_STAGE_TRANSFER_BIT,
                        VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    if (llvm::Error error =
            check(vkEndCommandBuffer(downloads), "vkEndCommandBuffer"))
      return error;
  }

  // Every run starts from the initial contents, so the outputs show
  // exactly one run.
  RunTimes times;
  for (uint32_t run = 0; run <= repeat; ++run) {
    if (beforeRun)
      beforeRun();
    if (llvm::Error error = restore(upload))
      return error;
    llvm::Expected<double> milliseconds = submitTimed(*commands);
    if (!milliseconds)
      return milliseconds.takeError();
    if (run == 0)
      times.first = *milliseconds;
    else
      times.others.push_back(*milliseconds);
  }
  if (downloads)
    if (llvm::Error error = submitAndWait(downloads))
      return error;
  return times;
}

std::vector<std::vector<uint8_t>> Context::readBuffers() const {
  std::vector<std::vector<uint8_t>> result;
  for (size_t i = 0; i < bufferBindings.size(); ++i) {
    const auto *bytes = static_cast<const uint8_t *>(buffers[i].mapped);
    result.emplace_back(bytes, bytes + bufferBindings[i].initial.size());
  }
  return result;
}

std::vector<std::vector<uint8_t>> Context::readImages() const {
  std::vector<std::vector<uint8_t>> result;
  for (size_t i = 0; i < imageBindings.size(); ++i) {
    const auto *bytes = static_cast<const uint8_t *>(images[i].buffer.mapped);
    result.emplace_back(bytes, bytes + imageBindings[i].initial.size());
  }
  return result;
}
