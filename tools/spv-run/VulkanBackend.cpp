//===- VulkanBackend.cpp - Run one compute job through Vulkan -------------===//
//
// Follows ../shared/tools/vkref step by step, so that spv-run
// --backend=vulkan and vkref do the same thing with the driver; vkref's
// exits become llvm::Errors and every handle is released on every path.
//
//===----------------------------------------------------------------------===//

#include "VulkanBackend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <chrono>
#include <cstring>

using namespace spvb;
using namespace spvb::vulkan;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

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

/// "error: vulkan: vkCreateX failed: VK_ERROR_..." for a failed call.
llvm::Error check(VkResult result, llvm::StringRef call) {
  if (result == VK_SUCCESS)
    return llvm::Error::success();
  return makeError(llvm::formatv("error: vulkan: {0} failed: {1} ({2})", call,
                                 getResultName(result),
                                 static_cast<int>(result)));
}

const char *const NoDeviceHint =
    "install mesa-vulkan-drivers for lavapipe, or point VK_ICD_FILENAMES at "
    "a driver's ICD file";

/// A zeroed Vulkan struct with its sType set.
template <typename T> T makeStruct(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
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

/// Every Vulkan object of one run; the destructor releases what was made.
class Session {
public:
  Session() = default;
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;
  ~Session();

  llvm::Expected<Result> run(const Job &job);

private:
  llvm::Error createInstance();
  llvm::Error pickDevice(const Job &job);
  llvm::Error checkLimits(const Job &job);
  llvm::Error createDevice(const Job &job);
  llvm::Error createBuffers(const Job &job);
  llvm::Error createDescriptors(const Job &job);
  llvm::Error createPipeline(const Job &job, Result &result);
  llvm::Error dispatch(const Job &job, Result &result);

  struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void *mapped = nullptr;
  };

  uint32_t apiVersion = VK_API_VERSION_1_1;
  uint32_t deviceVersion = VK_API_VERSION_1_1;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  uint32_t queueFamily = 0;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::vector<Buffer> buffers;
  std::vector<VkDescriptorSetLayout> setLayouts;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  std::vector<VkDescriptorSet> sets;
  VkShaderModule shaderModule = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
};

Session::~Session() {
  if (device) {
    vkDeviceWaitIdle(device);
    if (fence)
      vkDestroyFence(device, fence, nullptr);
    if (commandPool)
      vkDestroyCommandPool(device, commandPool, nullptr);
    if (pipeline)
      vkDestroyPipeline(device, pipeline, nullptr);
    if (shaderModule)
      vkDestroyShaderModule(device, shaderModule, nullptr);
    if (descriptorPool)
      vkDestroyDescriptorPool(device, descriptorPool, nullptr);
    if (pipelineLayout)
      vkDestroyPipelineLayout(device, pipelineLayout, nullptr);
    for (VkDescriptorSetLayout layout : setLayouts)
      if (layout)
        vkDestroyDescriptorSetLayout(device, layout, nullptr);
    for (Buffer &buffer : buffers) {
      if (buffer.mapped)
        vkUnmapMemory(device, buffer.memory);
      if (buffer.buffer)
        vkDestroyBuffer(device, buffer.buffer, nullptr);
      if (buffer.memory)
        vkFreeMemory(device, buffer.memory, nullptr);
    }
    vkDestroyDevice(device, nullptr);
  }
  if (instance)
    vkDestroyInstance(instance, nullptr);
}

llvm::Error Session::createInstance() {
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
  VkResult result = vkCreateInstance(&info, nullptr, &instance);
  // The loader answers so when it finds no driver at all.
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
    return makeError(llvm::Twine("error: --backend=vulkan: no Vulkan device "
                                 "(vkCreateInstance found no driver; ") +
                     NoDeviceHint + ")");
  return check(result, "vkCreateInstance");
}

llvm::Error Session::pickDevice(const Job &job) {
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
  if (job.deviceIndex) {
    if (*job.deviceIndex >= count)
      return makeError(llvm::formatv(
          "error: --device '{0}': out of range ({1} Vulkan device{2})",
          *job.deviceIndex, count, count == 1 ? "" : "s"));
    physicalDevice = devices[*job.deviceIndex];
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
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      queueFamily = i;
      return llvm::Error::success();
    }
  return makeError(llvm::formatv("error: --backend=vulkan: the Vulkan device "
                                 "'{0}' has no compute queue",
                                 properties.deviceName));
}

llvm::Error Session::checkLimits(const Job &job) {
  const VkPhysicalDeviceLimits &limits = properties.limits;
  for (int d = 0; d < 3; ++d)
    if (job.groups[d] > limits.maxComputeWorkGroupCount[d])
      return makeError(llvm::formatv(
          "error: --groups: {0} groups in dimension {1} exceed the Vulkan "
          "device's limit of {2}",
          job.groups[d], "XYZ"[d], limits.maxComputeWorkGroupCount[d]));
  if (job.pushConstants.size() > limits.maxPushConstantsSize)
    return makeError(llvm::formatv("error: --push: {0} bytes exceed the "
                                   "Vulkan device's limit of {1}",
                                   job.pushConstants.size(),
                                   limits.maxPushConstantsSize));
  for (const BufferBinding &buffer : job.buffers) {
    uint32_t limit = buffer.uniform ? limits.maxUniformBufferRange
                                    : limits.maxStorageBufferRange;
    if (buffer.initial.size() > limit)
      return makeError(llvm::formatv(
          "error: --buffer {0}:{1}: {2} bytes exceed the Vulkan device's "
          "limit of {3} for {4} buffers",
          buffer.set, buffer.binding, buffer.initial.size(), limit,
          buffer.uniform ? "uniform" : "storage"));
  }
  return llvm::Error::success();
}

llvm::Error Session::createDevice(const Job &job) {
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
      job.robust &&
      addExtension(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME, &robustness2);
  vkGetPhysicalDeviceFeatures2(physicalDevice, &extensionFeatures);

  if (job.robust) {
    if (!features.features.robustBufferAccess)
      return makeError(llvm::formatv("error: --robust: the Vulkan device "
                                     "'{0}' has no robustBufferAccess",
                                     properties.deviceName));
    if (!hasRobustness2 || !robustness2.robustBufferAccess2)
      return makeError(llvm::formatv(
          "error: --robust: the Vulkan device '{0}' has no robustBufferAccess2 "
          "(VK_EXT_robustness2)",
          properties.deviceName));
    // Images are not part of a job yet; only buffers get the guarantee.
    robustness2.robustImageAccess2 = VK_FALSE;
    robustness2.nullDescriptor = VK_FALSE;
  } else {
    features.features.robustBufferAccess = VK_FALSE;
  }
  features13.robustImageAccess = VK_FALSE;
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
  return llvm::Error::success();
}

llvm::Error Session::createBuffers(const Job &job) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memory);
  const VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (const BufferBinding &binding : job.buffers) {
    Buffer &buffer = buffers.emplace_back();
    auto info =
        makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    // Descriptor ranges are multiples of 4 bytes, as in vkref.
    info.size = (binding.initial.size() + 3) & ~VkDeviceSize(3);
    info.usage = binding.uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (llvm::Error error =
            check(vkCreateBuffer(device, &info, nullptr, &buffer.buffer),
                  "vkCreateBuffer"))
      return error;
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer.buffer, &requirements);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < memory.memoryTypeCount && type == UINT32_MAX; ++i)
      if ((requirements.memoryTypeBits & (1u << i)) &&
          (memory.memoryTypes[i].propertyFlags & wanted) == wanted)
        type = i;
    if (type == UINT32_MAX)
      return makeError(llvm::formatv("error: --backend=vulkan: the Vulkan "
                                     "device '{0}' has no host-visible "
                                     "coherent memory",
                                     properties.deviceName));
    auto allocation = makeStruct<VkMemoryAllocateInfo>(
        VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    allocation.allocationSize = requirements.size;
    allocation.memoryTypeIndex = type;
    if (llvm::Error error = check(
            vkAllocateMemory(device, &allocation, nullptr, &buffer.memory),
            "vkAllocateMemory"))
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
  }
  return llvm::Error::success();
}

llvm::Error Session::createDescriptors(const Job &job) {
  // One layout per set index up to the highest used; unused ones are empty.
  uint32_t setCount = 0;
  for (const BufferBinding &buffer : job.buffers)
    setCount = std::max(setCount, buffer.set + 1);
  if (setCount > properties.limits.maxBoundDescriptorSets)
    return makeError(llvm::formatv("error: --buffer: set {0} exceeds the "
                                   "Vulkan device's limit of {1} descriptor "
                                   "sets",
                                   setCount - 1,
                                   properties.limits.maxBoundDescriptorSets));
  auto descriptorType = [](const BufferBinding &buffer) {
    return buffer.uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER
                          : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  };
  setLayouts.assign(setCount, VK_NULL_HANDLE);
  uint32_t storageCount = 0, uniformCount = 0;
  for (uint32_t set = 0; set < setCount; ++set) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const BufferBinding &buffer : job.buffers) {
      if (buffer.set != set)
        continue;
      bindings.push_back({buffer.binding, descriptorType(buffer), 1,
                          VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      ++(buffer.uniform ? uniformCount : storageCount);
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
      VK_SHADER_STAGE_COMPUTE_BIT, 0,
      static_cast<uint32_t>(job.pushConstants.size())};
  auto layoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = setCount;
  layoutInfo.pSetLayouts = setLayouts.data();
  layoutInfo.pushConstantRangeCount = job.pushConstants.empty() ? 0 : 1;
  layoutInfo.pPushConstantRanges = &pushRange;
  if (llvm::Error error = check(
          vkCreatePipelineLayout(device, &layoutInfo, nullptr, &pipelineLayout),
          "vkCreatePipelineLayout"))
    return error;
  if (setCount == 0)
    return llvm::Error::success();

  std::vector<VkDescriptorPoolSize> sizes;
  if (storageCount)
    sizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, storageCount});
  if (uniformCount)
    sizes.push_back({VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, uniformCount});
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
  std::vector<VkDescriptorBufferInfo> bufferInfos(job.buffers.size());
  std::vector<VkWriteDescriptorSet> writes(job.buffers.size());
  for (size_t i = 0; i < job.buffers.size(); ++i) {
    bufferInfos[i] = {buffers[i].buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet &write = writes[i];
    write = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = sets[job.buffers[i].set];
    write.dstBinding = job.buffers[i].binding;
    write.descriptorCount = 1;
    write.descriptorType = descriptorType(job.buffers[i]);
    write.pBufferInfo = &bufferInfos[i];
  }
  vkUpdateDescriptorSets(device, static_cast<uint32_t>(writes.size()),
                         writes.data(), 0, nullptr);
  return llvm::Error::success();
}

llvm::Error Session::createPipeline(const Job &job, Result &result) {
  std::vector<VkSpecializationMapEntry> entries;
  std::vector<uint8_t> data;
  for (const SpecConstantValue &value : job.specializations) {
    uint32_t size = getSpecConstantSize(value.type);
    entries.push_back({value.id, static_cast<uint32_t>(data.size()), size});
    // The words are little-endian with the low word first, so the value's
    // bytes are the first `size` bytes.
    for (uint32_t i = 0; i < size; ++i)
      data.push_back(static_cast<uint8_t>(
          i / 4 < value.words.size() ? value.words[i / 4] >> (8 * (i % 4))
                                     : 0));
  }
  VkSpecializationInfo specialization{static_cast<uint32_t>(entries.size()),
                                      entries.data(), data.size(), data.data()};

  auto start = Clock::now();
  auto moduleInfo = makeStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = job.spirv->words.size() * sizeof(uint32_t);
  moduleInfo.pCode = job.spirv->words.data();
  if (llvm::Error error = check(
          vkCreateShaderModule(device, &moduleInfo, nullptr, &shaderModule),
          "vkCreateShaderModule"))
    return error;
  auto info = makeStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage = makeStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = shaderModule;
  info.stage.pName = job.entryPoint.c_str();
  info.stage.pSpecializationInfo = entries.empty() ? nullptr : &specialization;
  info.layout = pipelineLayout;
  if (llvm::Error error =
          check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info,
                                         nullptr, &pipeline),
                "vkCreateComputePipelines"))
    return error;
  result.compileMilliseconds = millisecondsSince(start);
  return llvm::Error::success();
}

llvm::Error Session::dispatch(const Job &job, Result &result) {
  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.queueFamilyIndex = queueFamily;
  if (llvm::Error error =
          check(vkCreateCommandPool(device, &poolInfo, nullptr, &commandPool),
                "vkCreateCommandPool"))
    return error;
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

  // Recorded once, submitted for the warm-up and every timed run.
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  if (llvm::Error error =
          check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer"))
    return error;
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (!sets.empty())
    vkCmdBindDescriptorSets(
        commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0,
        static_cast<uint32_t>(sets.size()), sets.data(), 0, nullptr);
  if (!job.pushConstants.empty())
    vkCmdPushConstants(commands, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       static_cast<uint32_t>(job.pushConstants.size()),
                       job.pushConstants.data());
  vkCmdDispatch(commands, job.groups[0], job.groups[1], job.groups[2]);
  // The host reads the buffers after the fence.
  auto barrier = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr,
                       0, nullptr);
  if (llvm::Error error =
          check(vkEndCommandBuffer(commands), "vkEndCommandBuffer"))
    return error;
  auto fenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  if (llvm::Error error = check(
          vkCreateFence(device, &fenceInfo, nullptr, &fence), "vkCreateFence"))
    return error;

  // Every run starts from the initial contents, restored outside the timing,
  // so the outputs show exactly one dispatch.
  for (uint32_t run = 0; run <= job.repeat; ++run) {
    for (size_t i = 0; i < job.buffers.size(); ++i)
      std::memcpy(buffers[i].mapped, job.buffers[i].initial.data(),
                  job.buffers[i].initial.size());
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
    if (run == 0)
      result.firstDispatchMilliseconds = milliseconds;
    else
      result.dispatchMilliseconds.push_back(milliseconds);
  }
  for (size_t i = 0; i < job.buffers.size(); ++i) {
    const auto *bytes = static_cast<const uint8_t *>(buffers[i].mapped);
    result.buffers.emplace_back(bytes, bytes + job.buffers[i].initial.size());
  }
  return llvm::Error::success();
}

llvm::Expected<Result> Session::run(const Job &job) {
  Result result;
  if (llvm::Error error = createInstance())
    return error;
  if (llvm::Error error = pickDevice(job))
    return error;
  if (llvm::Error error = checkLimits(job))
    return error;
  if (llvm::Error error = createDevice(job))
    return error;
  result.deviceName = properties.deviceName;
  auto subgroup = makeStruct<VkPhysicalDeviceSubgroupProperties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto properties2 = makeStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  properties2.pNext = &subgroup;
  vkGetPhysicalDeviceProperties2(physicalDevice, &properties2);
  result.subgroupSize = subgroup.subgroupSize;
  if (llvm::Error error = createBuffers(job))
    return error;
  if (llvm::Error error = createDescriptors(job))
    return error;
  if (llvm::Error error = createPipeline(job, result))
    return error;
  if (llvm::Error error = dispatch(job, result))
    return error;
  return result;
}

} // namespace

llvm::Expected<Result> spvb::vulkan::runJob(const Job &job) {
  Session session;
  return session.run(job);
}
