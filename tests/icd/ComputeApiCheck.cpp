//===- ComputeApiCheck.cpp - Vulkan 1.2/1.3 compute API paths, checked ---===//
//
// One device, made with every feature the cases below need that the driver
// supports, runs one named case after another and prints `PASS <case>`,
// `FAIL <case>: <what differed>` or `SKIP <case>: <feature> not supported`.
// Every expected value comes from a reference loop here or a constant
// worked out by hand in a comment, never from a driver. Cases:
//
//   timeline-host-signal   a submit waits on a timeline value the host
//                          signals later; the host waits for its signal
//   submit2-sync2          vkQueueSubmit2 with timeline semaphores and
//                          vkCmdPipelineBarrier2 between dependent dispatches
//   events                 vkCmdWaitEvents2 on an event the host sets after
//                          submitting; vkCmdSetEvent2/vkCmdResetEvent2
//   timestamps             vkCmdWriteTimestamp2 around a dispatch, results
//                          with availability, host query reset
//   pipeline-statistics    compute shader invocations of two dispatches
//   secondary              one secondary command buffer executed twice
//   dispatch-base          vkCmdDispatchBase: workgroup ids from the base,
//                          NumWorkgroups the count
//   push-descriptors       two sets pushed with vkCmdPushDescriptorSetKHR
//   descriptor-indexing    a runtime array of storage buffers, partially
//                          bound, with a variable count, indexed non-uniformly
//   inline-uniform-block   an inline uniform block written in two pieces
//                          and copied to another set
//   buffer-device-address  a shader reading an address from push constants
//   subgroup-size-control  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo
//   robust-access          robustBufferAccess (and robustBufferAccess2)
//   private-data           vkSetPrivateData/vkGetPrivateData
//   float16-int8           8/16-bit storage, int8 and float16 arithmetic
//   float-atomics          atomicAdd on a float (VK_EXT_shader_atomic_float)
//   int64-atomics          atomicAdd on uint64_t
//   debug-printf           debugPrintfEXT lines to a VK_EXT_debug_utils
//                          messenger (spvbridge; lavapipe prints them only
//                          through the validation layer's debug printf)
//
//   ComputeApiCheck SPV_DIR [CASE...]
//
// SPV_DIR holds Inputs/api/*.comp compiled to NAME.spv. The exit code is 0
// if no case failed, 1 if one did and 2 if the device could not be set up.
//
//===----------------------------------------------------------------------===//
#include "VulkanTestSupport.h"

#include <vulkan/vulkan.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

using namespace vktest;

std::string format(const char *fmt, va_list args) {
  char text[512];
  std::vsnprintf(text, sizeof(text), fmt, args);
  return text;
}

// A wait that never ends is a failure of the case that was running: the
// watchdog prints it and ends the process, since a device with work pending
// cannot be torn down. Only a hang depends on this timeout, never a verdict.
std::atomic<const char *> RunningCase{nullptr};
std::atomic<int64_t> CaseDeadline{0};
constexpr int WatchdogSeconds = 60;
constexpr uint64_t WaitNanoseconds = 30ull * 1000 * 1000 * 1000;

int64_t nowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void watchdog() {
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const char *running = RunningCase.load();
    if (running && nowSeconds() > CaseDeadline.load()) {
      std::printf("FAIL %s: not finished after %d s (hang)\n", running,
                  WatchdogSeconds);
      std::fflush(stdout);
      std::_Exit(1);
    }
  }
}

/// What one case found: its first failures, or why it was skipped.
class Verdict {
public:
  /// Records a failure unless \p ok; returns \p ok.
  bool expect(bool ok, const char *fmt, ...) {
    if (ok)
      return true;
    va_list args;
    va_start(args, fmt);
    if (Failures.size() < 4)
      Failures.push_back(format(fmt, args));
    else
      ++Dropped;
    va_end(args);
    return false;
  }
  /// Records a failure if \p result is not \p expected.
  bool expectResult(VkResult result, VkResult expected, const char *call) {
    return expect(result == expected, "%s returned %d, expected %d", call,
                  result, expected);
  }
  void skip(const char *feature) { Skipped = feature; }
  bool failed() const { return !Failures.empty(); }

  void print(const char *name) const {
    if (!Failures.empty()) {
      std::string text;
      for (const std::string &failure : Failures)
        text += (text.empty() ? "" : "; ") + failure;
      if (Dropped)
        text += "; and " + std::to_string(Dropped) + " more";
      std::printf("FAIL %s: %s\n", name, text.c_str());
    } else if (!Skipped.empty()) {
      std::printf("SKIP %s: %s not supported\n", name, Skipped.c_str());
    } else {
      std::printf("PASS %s\n", name);
    }
    std::fflush(stdout);
  }

private:
  std::vector<std::string> Failures;
  unsigned Dropped = 0;
  std::string Skipped;
};

/// Compares \p got with a reference, element by element, and reports the first
/// mismatch and how many there were.
template <typename T>
void expectArray(Verdict &verdict, const char *what, const T *got,
                 const std::vector<T> &expected) {
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < expected.size(); ++i)
    if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0 && !mismatches++)
      first = i;
  if (!mismatches)
    return;
  std::string expectedText, gotText;
  if constexpr (std::is_floating_point_v<T>) {
    expectedText = std::to_string(expected[first]);
    gotText = std::to_string(got[first]);
  } else {
    expectedText = std::to_string(uint64_t(expected[first]));
    gotText = std::to_string(uint64_t(got[first]));
  }
  verdict.expect(false, "%s[%zu]: expected %s, got %s (%zu of %zu differ)",
                 what, first, expectedText.c_str(), gotText.c_str(), mismatches,
                 expected.size());
}

/// The features the device was made with, by what the cases need.
struct Enabled {
  bool timeline = false, sync2 = false, hostQueryReset = false;
  bool pipelineStatistics = false, bufferDeviceAddress = false;
  bool subgroupSizeControl = false, robustBufferAccess = false;
  bool robustBufferAccess2 = false, privateData = false;
  bool float16Int8 = false, floatAtomics = false, int64Atomics = false;
  bool pushDescriptor = false, inlineUniformBlock = false;
  bool descriptorIndexing = false;
};

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void *mapped = nullptr;
  VkDeviceSize size = 0;
  template <typename T> T *as() const { return static_cast<T *>(mapped); }
};

/// A compute pipeline, its layouts and a pool for its descriptor sets.
struct Program {
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  uint32_t bindings = 0;
};

/// A storage-buffer binding: a buffer and the range the descriptor covers.
struct Binding {
  const Buffer *buffer;
  VkDeviceSize offset = 0;
  VkDeviceSize range = VK_WHOLE_SIZE;
};

/// What a program may need beyond storage buffers and push constants.
struct ProgramOptions {
  const VkSpecializationInfo *specialization = nullptr;
  /// The shader stage's pNext chain.
  const void *stageNext = nullptr;
  VkDescriptorSetLayoutCreateFlags setFlags = 0;
  /// The set layout's pNext chain.
  const void *setLayoutNext = nullptr;
  /// Binding 0 of another type (the caller then makes its own sets).
  const VkDescriptorSetLayoutBinding *first = nullptr;
  VkPipelineCreateFlags pipelineFlags = 0;
};

class Context {
public:
  std::string SpvDir;
  VkInstance Instance = VK_NULL_HANDLE;
  VkPhysicalDevice Physical = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;
  VkQueue Queue = VK_NULL_HANDLE;
  uint32_t QueueFamily = 0;
  uint32_t TimestampValidBits = 0;
  VkPhysicalDeviceProperties Properties = {};
  VkPhysicalDeviceVulkan13Properties Properties13 = {};
  VkPhysicalDeviceMemoryProperties Memory = {};
  Enabled Has;
  VkCommandPool CommandPool = VK_NULL_HANDLE;
  /// A VK_EXT_debug_utils messenger, where the instance has the extension,
  /// and the debug-printf messages it received.
  VkDebugUtilsMessengerEXT Messenger = VK_NULL_HANDLE;
  std::mutex PrintfMutex;
  std::vector<std::string> PrintfMessages;

  void setUp();
  void tearDown();

  /// Everything a case made, destroyed in reverse order when it ends.
  std::vector<std::function<void()>> Cleanup;
  void atEnd(std::function<void()> destroy) {
    Cleanup.push_back(std::move(destroy));
  }
  /// Destroys what the case made once the queue is idle; false if the
  /// device was lost, which leaves it all (work may still be pending).
  bool cleanUp() {
    if (vkQueueWaitIdle(Queue) != VK_SUCCESS)
      return false;
    while (!Cleanup.empty()) {
      Cleanup.back()();
      Cleanup.pop_back();
    }
    return true;
  }

  Buffer makeBuffer(VkDeviceSize size, VkBufferUsageFlags extraUsage = 0,
                    bool deviceAddress = false);
  /// A pipeline that fails to compile is a failure of the case (recorded
  /// in \p verdict), and leaves Program::pipeline null.
  Program makeProgram(Verdict &verdict, const char *shader, uint32_t bindings,
                      uint32_t pushSize, const ProgramOptions &options = {});
  VkDescriptorSet makeSet(const Program &program,
                          const std::vector<Binding> &bindings);
  VkCommandBuffer
  beginCommands(VkCommandBufferLevel level = VK_COMMAND_BUFFER_LEVEL_PRIMARY);
  /// Binds \p program and \p set, pushes \p push and dispatches \p groups.
  void dispatch(VkCommandBuffer commands, const Program &program,
                VkDescriptorSet set, const void *push, uint32_t pushSize,
                uint32_t groups);
  VkSemaphore makeTimeline(uint64_t initial);
  VkEvent makeEvent();
  /// Submits \p commands with a fence and waits for it; false if either
  /// failed (recorded in \p verdict).
  bool submitAndWait(Verdict &verdict, VkCommandBuffer commands);

private:
  uint32_t hostMemoryType(uint32_t typeBits) const;
};

uint32_t Context::hostMemoryType(uint32_t typeBits) const {
  VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < Memory.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) &&
        (Memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      return i;
  setupFailure("finding host-visible coherent memory",
               VK_ERROR_FEATURE_NOT_PRESENT);
}

VKAPI_ATTR VkBool32 VKAPI_CALL collectPrintf(
    VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *userData) {
  auto *ctx = static_cast<Context *>(userData);
  if (data->pMessageIdName &&
      std::strcmp(data->pMessageIdName, "UNASSIGNED-DEBUG-PRINTF") == 0) {
    std::lock_guard<std::mutex> lock(ctx->PrintfMutex);
    ctx->PrintfMessages.push_back(data->pMessage);
  }
  return VK_FALSE;
}

void Context::setUp() {
  auto application =
      makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.pApplicationName = "ComputeApiCheck";
  application.apiVersion = VK_API_VERSION_1_3;
  auto instanceInfo =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &application;
  uint32_t instanceExtensionCount = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &instanceExtensionCount,
                                         nullptr);
  std::vector<VkExtensionProperties> instanceExtensions(instanceExtensionCount);
  vkEnumerateInstanceExtensionProperties(nullptr, &instanceExtensionCount,
                                         instanceExtensions.data());
  const char *debugUtils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  bool hasDebugUtils = false;
  for (const VkExtensionProperties &extension : instanceExtensions)
    hasDebugUtils |= std::strcmp(extension.extensionName, debugUtils) == 0;
  if (hasDebugUtils) {
    instanceInfo.enabledExtensionCount = 1;
    instanceInfo.ppEnabledExtensionNames = &debugUtils;
  }
  check(vkCreateInstance(&instanceInfo, nullptr, &Instance), "instance");
  if (hasDebugUtils) {
    auto messengerInfo = makeStruct<VkDebugUtilsMessengerCreateInfoEXT>(
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    messengerInfo.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT;
    messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    messengerInfo.pfnUserCallback = collectPrintf;
    messengerInfo.pUserData = this;
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(Instance, "vkCreateDebugUtilsMessengerEXT"));
    check(create(Instance, &messengerInfo, nullptr, &Messenger), "messenger");
  }
  uint32_t count = 1;
  VkResult enumerated = vkEnumeratePhysicalDevices(Instance, &count, &Physical);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || !count)
    setupFailure("finding a physical device", enumerated);

  Properties13 = makeStruct<VkPhysicalDeviceVulkan13Properties>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES);
  auto properties2 = makeStruct<VkPhysicalDeviceProperties2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  properties2.pNext = &Properties13;
  vkGetPhysicalDeviceProperties2(Physical, &properties2);
  Properties = properties2.properties;
  if (Properties.apiVersion < VK_API_VERSION_1_3) {
    std::fprintf(stderr, "setup: %s is Vulkan %u.%u, not 1.3\n",
                 Properties.deviceName,
                 VK_API_VERSION_MAJOR(Properties.apiVersion),
                 VK_API_VERSION_MINOR(Properties.apiVersion));
    std::exit(2);
  }
  vkGetPhysicalDeviceMemoryProperties(Physical, &Memory);

  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(Physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> familyProperties(families);
  vkGetPhysicalDeviceQueueFamilyProperties(Physical, &families,
                                           familyProperties.data());
  QueueFamily = families;
  for (uint32_t i = 0; i < families && QueueFamily == families; ++i)
    if (familyProperties[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      QueueFamily = i;
  if (QueueFamily == families)
    setupFailure("finding a compute queue", VK_ERROR_FEATURE_NOT_PRESENT);
  TimestampValidBits = familyProperties[QueueFamily].timestampValidBits;

  // The extensions beyond 1.3 the cases use, if the device has them.
  uint32_t extensionCount = 0;
  vkEnumerateDeviceExtensionProperties(Physical, nullptr, &extensionCount,
                                       nullptr);
  std::vector<VkExtensionProperties> extensions(extensionCount);
  vkEnumerateDeviceExtensionProperties(Physical, nullptr, &extensionCount,
                                       extensions.data());
  auto hasExtension = [&](const char *name) {
    for (const VkExtensionProperties &extension : extensions)
      if (!std::strcmp(extension.extensionName, name))
        return true;
    return false;
  };
  bool hasRobustness2 = hasExtension(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
  bool hasAtomicFloat = hasExtension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);

  // What the device supports...
  auto atomicFloat = makeStruct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  auto robustness2 = makeStruct<VkPhysicalDeviceRobustness2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  auto vulkan13 = makeStruct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  auto vulkan12 = makeStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto vulkan11 = makeStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  auto features = makeStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  features.pNext = &vulkan11;
  vulkan11.pNext = &vulkan12;
  vulkan12.pNext = &vulkan13;
  void **tail = &vulkan13.pNext;
  if (hasRobustness2) {
    *tail = &robustness2;
    tail = &robustness2.pNext;
  }
  if (hasAtomicFloat) {
    *tail = &atomicFloat;
    tail = &atomicFloat.pNext;
  }
  vkGetPhysicalDeviceFeatures2(Physical, &features);

  // ...and, of that, only what the cases need.
  auto wantAtomicFloat =
      makeStruct<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  auto wantRobustness2 = makeStruct<VkPhysicalDeviceRobustness2FeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT);
  auto want13 = makeStruct<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  auto want12 = makeStruct<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto want11 = makeStruct<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  auto want = makeStruct<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  want.pNext = &want11;
  want11.pNext = &want12;
  want12.pNext = &want13;
  std::vector<const char *> enabledExtensions;
  tail = &want13.pNext;

  const VkPhysicalDeviceFeatures &core = features.features;
  want.features.robustBufferAccess = core.robustBufferAccess;
  want.features.pipelineStatisticsQuery = core.pipelineStatisticsQuery;
  want.features.shaderInt64 = core.shaderInt64;
  want12.timelineSemaphore = vulkan12.timelineSemaphore;
  want12.hostQueryReset = vulkan12.hostQueryReset;
  want12.bufferDeviceAddress = vulkan12.bufferDeviceAddress;
  want12.shaderFloat16 = vulkan12.shaderFloat16;
  want12.shaderInt8 = vulkan12.shaderInt8;
  want12.storageBuffer8BitAccess = vulkan12.storageBuffer8BitAccess;
  want11.storageBuffer16BitAccess = vulkan11.storageBuffer16BitAccess;
  want12.shaderBufferInt64Atomics =
      core.shaderInt64 ? vulkan12.shaderBufferInt64Atomics : VK_FALSE;
  want13.synchronization2 = vulkan13.synchronization2;
  want13.subgroupSizeControl = vulkan13.subgroupSizeControl;
  want13.privateData = vulkan13.privateData;
  want13.inlineUniformBlock = vulkan13.inlineUniformBlock;
  Has.descriptorIndexing =
      vulkan12.runtimeDescriptorArray &&
      vulkan12.shaderStorageBufferArrayNonUniformIndexing &&
      vulkan12.descriptorBindingPartiallyBound &&
      vulkan12.descriptorBindingVariableDescriptorCount;
  want12.runtimeDescriptorArray = Has.descriptorIndexing;
  want12.shaderStorageBufferArrayNonUniformIndexing = Has.descriptorIndexing;
  want12.descriptorBindingPartiallyBound = Has.descriptorIndexing;
  want12.descriptorBindingVariableDescriptorCount = Has.descriptorIndexing;
  // glslang's SPIR-V 1.6 gives every shader its workgroup size as
  // LocalSizeId, which needs maintenance4.
  want13.maintenance4 = vulkan13.maintenance4;
  Has.timeline = vulkan12.timelineSemaphore;
  Has.sync2 = vulkan13.synchronization2 && vulkan12.timelineSemaphore;
  Has.hostQueryReset = vulkan12.hostQueryReset;
  Has.pipelineStatistics = core.pipelineStatisticsQuery;
  Has.bufferDeviceAddress = vulkan12.bufferDeviceAddress;
  Has.subgroupSizeControl =
      vulkan13.subgroupSizeControl &&
      (Properties13.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  Has.robustBufferAccess = core.robustBufferAccess;
  Has.privateData = vulkan13.privateData;
  Has.inlineUniformBlock = vulkan13.inlineUniformBlock;
  Has.float16Int8 = vulkan12.shaderFloat16 && vulkan12.shaderInt8 &&
                    vulkan12.storageBuffer8BitAccess &&
                    vulkan11.storageBuffer16BitAccess;
  Has.int64Atomics = want12.shaderBufferInt64Atomics;
  // robustBufferAccess2 needs robustBufferAccess enabled with it.
  if (hasRobustness2 && robustness2.robustBufferAccess2 &&
      core.robustBufferAccess) {
    wantRobustness2.robustBufferAccess2 = VK_TRUE;
    Has.robustBufferAccess2 = true;
    enabledExtensions.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    *tail = &wantRobustness2;
    tail = &wantRobustness2.pNext;
  }
  if (hasAtomicFloat && atomicFloat.shaderBufferFloat32AtomicAdd) {
    wantAtomicFloat.shaderBufferFloat32AtomicAdd = VK_TRUE;
    Has.floatAtomics = true;
    enabledExtensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    *tail = &wantAtomicFloat;
    tail = &wantAtomicFloat.pNext;
  }
  if (hasExtension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
    Has.pushDescriptor = true;
    enabledExtensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  }

  float priority = 1;
  auto queueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = QueueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto deviceInfo =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  deviceInfo.pNext = &want;
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = uint32_t(enabledExtensions.size());
  deviceInfo.ppEnabledExtensionNames = enabledExtensions.data();
  check(vkCreateDevice(Physical, &deviceInfo, nullptr, &Device), "device");
  vkGetDeviceQueue(Device, QueueFamily, 0, &Queue);

  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.queueFamilyIndex = QueueFamily;
  check(vkCreateCommandPool(Device, &poolInfo, nullptr, &CommandPool),
        "command pool");
}

void Context::tearDown() {
  vkDestroyCommandPool(Device, CommandPool, nullptr);
  vkDestroyDevice(Device, nullptr);
  if (Messenger)
    reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(Instance, "vkDestroyDebugUtilsMessengerEXT"))(
        Instance, Messenger, nullptr);
  vkDestroyInstance(Instance, nullptr);
}

Buffer Context::makeBuffer(VkDeviceSize size, VkBufferUsageFlags extraUsage,
                           bool deviceAddress) {
  Buffer result;
  result.size = size;
  auto bufferInfo =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = size;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT | extraUsage;
  check(vkCreateBuffer(Device, &bufferInfo, nullptr, &result.buffer), "buffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(Device, result.buffer, &requirements);
  auto flags = makeStruct<VkMemoryAllocateFlagsInfo>(
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  auto allocateInfo =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocateInfo.pNext = deviceAddress ? &flags : nullptr;
  allocateInfo.allocationSize = requirements.size;
  allocateInfo.memoryTypeIndex = hostMemoryType(requirements.memoryTypeBits);
  check(vkAllocateMemory(Device, &allocateInfo, nullptr, &result.memory),
        "memory");
  check(vkBindBufferMemory(Device, result.buffer, result.memory, 0), "bind");
  check(vkMapMemory(Device, result.memory, 0, VK_WHOLE_SIZE, 0, &result.mapped),
        "map");
  std::memset(result.mapped, 0, size_t(size));
  VkDevice device = Device;
  atEnd([device, result] {
    vkDestroyBuffer(device, result.buffer, nullptr);
    vkFreeMemory(device, result.memory, nullptr);
  });
  return result;
}

Program Context::makeProgram(Verdict &verdict, const char *shader,
                             uint32_t bindings, uint32_t pushSize,
                             const ProgramOptions &options) {
  Program program;
  program.bindings = bindings;
  std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
  for (uint32_t i = 0; i < bindings; ++i)
    layoutBindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                              VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  if (options.first && bindings)
    layoutBindings[0] = *options.first;
  auto setLayoutInfo = makeStruct<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setLayoutInfo.pNext = options.setLayoutNext;
  setLayoutInfo.flags = options.setFlags;
  setLayoutInfo.bindingCount = bindings;
  setLayoutInfo.pBindings = layoutBindings.data();
  check(vkCreateDescriptorSetLayout(Device, &setLayoutInfo, nullptr,
                                    &program.setLayout),
        "descriptor set layout");
  VkPushConstantRange pushRange = {VK_SHADER_STAGE_COMPUTE_BIT, 0, pushSize};
  auto layoutInfo = makeStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = bindings ? 1 : 0;
  layoutInfo.pSetLayouts = &program.setLayout;
  layoutInfo.pushConstantRangeCount = pushSize ? 1 : 0;
  layoutInfo.pPushConstantRanges = &pushRange;
  check(vkCreatePipelineLayout(Device, &layoutInfo, nullptr, &program.layout),
        "pipeline layout");

  std::string path = SpvDir + "/" + shader + ".spv";
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                          std::istreambuf_iterator<char>());
  if (bytes.empty() || bytes.size() % 4) {
    std::fprintf(stderr, "setup: cannot read SPIR-V from %s\n", path.c_str());
    std::exit(2);
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  auto moduleInfo = makeStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  moduleInfo.codeSize = bytes.size();
  moduleInfo.pCode = words.data();
  VkShaderModule module;
  check(vkCreateShaderModule(Device, &moduleInfo, nullptr, &module),
        "shader module");
  auto pipelineInfo = makeStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  pipelineInfo.flags = options.pipelineFlags;
  pipelineInfo.stage = makeStruct<VkPipelineShaderStageCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  pipelineInfo.stage.pNext = options.stageNext;
  pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipelineInfo.stage.module = module;
  pipelineInfo.stage.pName = "main";
  pipelineInfo.stage.pSpecializationInfo = options.specialization;
  pipelineInfo.layout = program.layout;
  VkResult created = vkCreateComputePipelines(
      Device, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &program.pipeline);
  verdict.expect(created == VK_SUCCESS,
                 "vkCreateComputePipelines for %s.spv returned %d", shader,
                 created);
  if (created != VK_SUCCESS)
    program.pipeline = VK_NULL_HANDLE;
  vkDestroyShaderModule(Device, module, nullptr);

  if (bindings) {
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 4 * bindings};
    auto poolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    poolInfo.maxSets = 4;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    check(vkCreateDescriptorPool(Device, &poolInfo, nullptr, &program.pool),
          "descriptor pool");
  }
  VkDevice device = Device;
  atEnd([device, program] {
    vkDestroyDescriptorPool(device, program.pool, nullptr);
    vkDestroyPipeline(device, program.pipeline, nullptr);
    vkDestroyPipelineLayout(device, program.layout, nullptr);
    vkDestroyDescriptorSetLayout(device, program.setLayout, nullptr);
  });
  return program;
}

VkDescriptorSet Context::makeSet(const Program &program,
                                 const std::vector<Binding> &bindings) {
  auto setInfo = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  setInfo.descriptorPool = program.pool;
  setInfo.descriptorSetCount = 1;
  setInfo.pSetLayouts = &program.setLayout;
  VkDescriptorSet set;
  check(vkAllocateDescriptorSets(Device, &setInfo, &set), "descriptor set");
  std::vector<VkDescriptorBufferInfo> infos;
  for (const Binding &binding : bindings)
    infos.push_back({binding.buffer->buffer, binding.offset, binding.range});
  std::vector<VkWriteDescriptorSet> writes;
  for (uint32_t i = 0; i < infos.size(); ++i) {
    auto write = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = set;
    write.dstBinding = i;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &infos[i];
    writes.push_back(write);
  }
  vkUpdateDescriptorSets(Device, uint32_t(writes.size()), writes.data(), 0,
                         nullptr);
  return set;
}

VkCommandBuffer Context::beginCommands(VkCommandBufferLevel level) {
  auto allocateInfo = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocateInfo.commandPool = CommandPool;
  allocateInfo.level = level;
  allocateInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(Device, &allocateInfo, &commands),
        "command buffer");
  VkDevice device = Device;
  VkCommandPool pool = CommandPool;
  atEnd([device, pool, commands] {
    vkFreeCommandBuffers(device, pool, 1, &commands);
  });
  if (level == VK_COMMAND_BUFFER_LEVEL_PRIMARY) {
    auto begin = makeStruct<VkCommandBufferBeginInfo>(
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(commands, &begin), "begin command buffer");
  }
  return commands;
}

void Context::dispatch(VkCommandBuffer commands, const Program &program,
                       VkDescriptorSet set, const void *push, uint32_t pushSize,
                       uint32_t groups) {
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
  if (set != VK_NULL_HANDLE)
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                            program.layout, 0, 1, &set, 0, nullptr);
  if (pushSize)
    vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       pushSize, push);
  vkCmdDispatch(commands, groups, 1, 1);
}

VkSemaphore Context::makeTimeline(uint64_t initial) {
  auto type = makeStruct<VkSemaphoreTypeCreateInfo>(
      VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type.initialValue = initial;
  auto info = makeStruct<VkSemaphoreCreateInfo>(
      VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  info.pNext = &type;
  VkSemaphore semaphore;
  check(vkCreateSemaphore(Device, &info, nullptr, &semaphore), "semaphore");
  VkDevice device = Device;
  atEnd(
      [device, semaphore] { vkDestroySemaphore(device, semaphore, nullptr); });
  return semaphore;
}

VkEvent Context::makeEvent() {
  auto info =
      makeStruct<VkEventCreateInfo>(VK_STRUCTURE_TYPE_EVENT_CREATE_INFO);
  VkEvent event;
  check(vkCreateEvent(Device, &info, nullptr, &event), "event");
  VkDevice device = Device;
  atEnd([device, event] { vkDestroyEvent(device, event, nullptr); });
  return event;
}

bool Context::submitAndWait(Verdict &verdict, VkCommandBuffer commands) {
  auto fenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence;
  check(vkCreateFence(Device, &fenceInfo, nullptr, &fence), "fence");
  VkDevice device = Device;
  atEnd([device, fence] { vkDestroyFence(device, fence, nullptr); });
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (!verdict.expectResult(vkQueueSubmit(Queue, 1, &submit, fence), VK_SUCCESS,
                            "vkQueueSubmit"))
    return false;
  return verdict.expectResult(
      vkWaitForFences(Device, 1, &fence, VK_TRUE, WaitNanoseconds), VK_SUCCESS,
      "vkWaitForFences");
}

/// Makes shader and transfer writes before it visible to the host.
void barrierToHost(VkCommandBuffer commands) {
  auto barrier = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(
      commands,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

/// Makes compute shader writes visible to later compute shader accesses.
void barrierComputeToCompute(VkCommandBuffer commands) {
  auto barrier = makeStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask =
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0,
                       nullptr, 0, nullptr);
}

// add.comp's push constants.
struct AddPush {
  uint32_t addend;
  uint32_t count;
};

//===----------------------------------------------------------------------===//
// The cases.
//===----------------------------------------------------------------------===//

void timelineHostSignal(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.timeline)
    return verdict.skip("timelineSemaphore");
  // v[i] = i; the dispatch adds 100 once the host has signalled 5.
  constexpr uint32_t N = 64;
  Buffer data = ctx.makeBuffer(N * 4);
  for (uint32_t i = 0; i < N; ++i)
    data.as<uint32_t>()[i] = i;
  Program add = ctx.makeProgram(verdict, "add", 1, sizeof(AddPush));
  if (!add.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(add, {{&data}});
  VkCommandBuffer commands = ctx.beginCommands();
  AddPush push = {100, N};
  ctx.dispatch(commands, add, set, &push, sizeof(push), 1);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");

  VkSemaphore hostSignalled = ctx.makeTimeline(0);
  VkSemaphore deviceSignalled = ctx.makeTimeline(0);
  uint64_t waitValue = 5, signalValue = 7;
  auto timelineInfo = makeStruct<VkTimelineSemaphoreSubmitInfo>(
      VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  timelineInfo.waitSemaphoreValueCount = 1;
  timelineInfo.pWaitSemaphoreValues = &waitValue;
  timelineInfo.signalSemaphoreValueCount = 1;
  timelineInfo.pSignalSemaphoreValues = &signalValue;
  VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.pNext = &timelineInfo;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &hostSignalled;
  submit.pWaitDstStageMask = &waitStage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &deviceSignalled;
  if (!verdict.expectResult(
          vkQueueSubmit(ctx.Queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS,
          "vkQueueSubmit"))
    return;

  // Nothing signalled 5 yet, so the dispatch has not run whatever the time.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  uint64_t counter = ~0ull;
  verdict.expectResult(
      vkGetSemaphoreCounterValue(ctx.Device, deviceSignalled, &counter),
      VK_SUCCESS, "vkGetSemaphoreCounterValue");
  verdict.expect(counter == 0,
                 "before the host signal: signal semaphore is %llu, expected "
                 "0",
                 (unsigned long long)counter);
  std::vector<uint32_t> unchanged(N);
  for (uint32_t i = 0; i < N; ++i)
    unchanged[i] = i;
  expectArray(verdict, "before the host signal: v", data.as<uint32_t>(),
              unchanged);

  auto signal = makeStruct<VkSemaphoreSignalInfo>(
      VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO);
  signal.semaphore = hostSignalled;
  signal.value = waitValue;
  verdict.expectResult(vkSignalSemaphore(ctx.Device, &signal), VK_SUCCESS,
                       "vkSignalSemaphore");
  auto waitInfo =
      makeStruct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  waitInfo.semaphoreCount = 1;
  waitInfo.pSemaphores = &deviceSignalled;
  waitInfo.pValues = &signalValue;
  if (!verdict.expectResult(
          vkWaitSemaphores(ctx.Device, &waitInfo, WaitNanoseconds), VK_SUCCESS,
          "vkWaitSemaphores"))
    return;
  counter = 0;
  vkGetSemaphoreCounterValue(ctx.Device, deviceSignalled, &counter);
  verdict.expect(counter == signalValue,
                 "signal semaphore is %llu after the wait, expected 7",
                 (unsigned long long)counter);
  counter = 0;
  vkGetSemaphoreCounterValue(ctx.Device, hostSignalled, &counter);
  verdict.expect(counter == waitValue,
                 "host-signalled semaphore is %llu, expected 5",
                 (unsigned long long)counter);
  std::vector<uint32_t> expected(N);
  for (uint32_t i = 0; i < N; ++i)
    expected[i] = i + 100;
  expectArray(verdict, "v", data.as<uint32_t>(), expected);
}

void submit2Sync2(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.sync2)
    return verdict.skip("synchronization2 with timelineSemaphore");
  // a[i] = i; b = 3a + 1 and c = 5b + 2 in one submit with a barrier
  // between them; d = 2c in a second submit that waits for the first's
  // timeline signal.
  constexpr uint32_t N = 200;
  Buffer a = ctx.makeBuffer(N * 4), b = ctx.makeBuffer(N * 4),
         c = ctx.makeBuffer(N * 4), d = ctx.makeBuffer(N * 4);
  for (uint32_t i = 0; i < N; ++i)
    a.as<uint32_t>()[i] = i;
  Program affine = ctx.makeProgram(verdict, "affine", 2, 12);
  if (!affine.pipeline)
    return;
  VkDescriptorSet ab = ctx.makeSet(affine, {{&a}, {&b}});
  VkDescriptorSet bc = ctx.makeSet(affine, {{&b}, {&c}});
  VkDescriptorSet cd = ctx.makeSet(affine, {{&c}, {&d}});
  constexpr uint32_t Groups = (N + 63) / 64;

  VkCommandBuffer first = ctx.beginCommands();
  uint32_t push1[] = {3, 1, N};
  ctx.dispatch(first, affine, ab, push1, 12, Groups);
  auto barrier =
      makeStruct<VkMemoryBarrier2>(VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
  barrier.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  barrier.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  barrier.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  barrier.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
  auto dependency =
      makeStruct<VkDependencyInfo>(VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
  dependency.memoryBarrierCount = 1;
  dependency.pMemoryBarriers = &barrier;
  vkCmdPipelineBarrier2(first, &dependency);
  uint32_t push2[] = {5, 2, N};
  ctx.dispatch(first, affine, bc, push2, 12, Groups);
  check(vkEndCommandBuffer(first), "end command buffer");

  VkCommandBuffer second = ctx.beginCommands();
  uint32_t push3[] = {2, 0, N};
  ctx.dispatch(second, affine, cd, push3, 12, Groups);
  auto toHost =
      makeStruct<VkMemoryBarrier2>(VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
  toHost.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  toHost.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  toHost.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  toHost.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  dependency.pMemoryBarriers = &toHost;
  vkCmdPipelineBarrier2(second, &dependency);
  check(vkEndCommandBuffer(second), "end command buffer");

  VkSemaphore timeline = ctx.makeTimeline(0);
  auto firstCommands = makeStruct<VkCommandBufferSubmitInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO);
  firstCommands.commandBuffer = first;
  auto secondCommands = firstCommands;
  secondCommands.commandBuffer = second;
  auto signal1 = makeStruct<VkSemaphoreSubmitInfo>(
      VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO);
  signal1.semaphore = timeline;
  signal1.value = 1;
  signal1.stageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  auto wait1 = signal1;
  auto signal2 = signal1;
  signal2.value = 2;
  signal2.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkSubmitInfo2 submits[2];
  submits[0] = makeStruct<VkSubmitInfo2>(VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
  submits[0].commandBufferInfoCount = 1;
  submits[0].pCommandBufferInfos = &firstCommands;
  submits[0].signalSemaphoreInfoCount = 1;
  submits[0].pSignalSemaphoreInfos = &signal1;
  submits[1] = makeStruct<VkSubmitInfo2>(VK_STRUCTURE_TYPE_SUBMIT_INFO_2);
  submits[1].waitSemaphoreInfoCount = 1;
  submits[1].pWaitSemaphoreInfos = &wait1;
  submits[1].commandBufferInfoCount = 1;
  submits[1].pCommandBufferInfos = &secondCommands;
  submits[1].signalSemaphoreInfoCount = 1;
  submits[1].pSignalSemaphoreInfos = &signal2;
  if (!verdict.expectResult(
          vkQueueSubmit2(ctx.Queue, 2, submits, VK_NULL_HANDLE), VK_SUCCESS,
          "vkQueueSubmit2"))
    return;
  uint64_t two = 2;
  auto waitInfo =
      makeStruct<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  waitInfo.semaphoreCount = 1;
  waitInfo.pSemaphores = &timeline;
  waitInfo.pValues = &two;
  if (!verdict.expectResult(
          vkWaitSemaphores(ctx.Device, &waitInfo, WaitNanoseconds), VK_SUCCESS,
          "vkWaitSemaphores"))
    return;
  std::vector<uint32_t> expectB(N), expectC(N), expectD(N);
  for (uint32_t i = 0; i < N; ++i) {
    expectB[i] = i * 3 + 1;
    expectC[i] = expectB[i] * 5 + 2;
    expectD[i] = expectC[i] * 2;
  }
  expectArray(verdict, "b", b.as<uint32_t>(), expectB);
  expectArray(verdict, "c", c.as<uint32_t>(), expectC);
  expectArray(verdict, "d", d.as<uint32_t>(), expectD);
}

const char *eventStatusName(VkResult status) {
  switch (status) {
  case VK_EVENT_SET:
    return "VK_EVENT_SET";
  case VK_EVENT_RESET:
    return "VK_EVENT_RESET";
  default:
    return "an error";
  }
}

void events(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.sync2)
    return verdict.skip("synchronization2");
  // The device waits for hostEvent, which the host sets after submitting,
  // then adds 5, sets deviceEvent, waits on it, adds 5 again and resets
  // resetEvent, which the host set before submitting. v[i] = i + 10.
  constexpr uint32_t N = 64;
  Buffer data = ctx.makeBuffer(N * 4);
  for (uint32_t i = 0; i < N; ++i)
    data.as<uint32_t>()[i] = i;
  Program add = ctx.makeProgram(verdict, "add", 1, sizeof(AddPush));
  if (!add.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(add, {{&data}});
  VkEvent hostEvent = ctx.makeEvent(), deviceEvent = ctx.makeEvent(),
          resetEvent = ctx.makeEvent();
  verdict.expectResult(vkSetEvent(ctx.Device, resetEvent), VK_SUCCESS,
                       "vkSetEvent");
  verdict.expect(vkGetEventStatus(ctx.Device, hostEvent) == VK_EVENT_RESET,
                 "a new event is not reset");

  VkCommandBuffer commands = ctx.beginCommands();
  // An event the host sets: only host operations come before the wait.
  auto fromHost =
      makeStruct<VkMemoryBarrier2>(VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
  fromHost.srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  fromHost.srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT;
  fromHost.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  fromHost.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                           VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  auto hostDependency =
      makeStruct<VkDependencyInfo>(VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
  hostDependency.memoryBarrierCount = 1;
  hostDependency.pMemoryBarriers = &fromHost;
  vkCmdWaitEvents2(commands, 1, &hostEvent, &hostDependency);
  AddPush push = {5, N};
  ctx.dispatch(commands, add, set, &push, sizeof(push), 1);
  auto computeToCompute =
      makeStruct<VkMemoryBarrier2>(VK_STRUCTURE_TYPE_MEMORY_BARRIER_2);
  computeToCompute.srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  computeToCompute.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  computeToCompute.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
  computeToCompute.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                                   VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
  auto deviceDependency =
      makeStruct<VkDependencyInfo>(VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
  deviceDependency.memoryBarrierCount = 1;
  deviceDependency.pMemoryBarriers = &computeToCompute;
  vkCmdSetEvent2(commands, deviceEvent, &deviceDependency);
  vkCmdWaitEvents2(commands, 1, &deviceEvent, &deviceDependency);
  ctx.dispatch(commands, add, set, &push, sizeof(push), 1);
  vkCmdResetEvent2(commands, resetEvent,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");

  auto fenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence;
  check(vkCreateFence(ctx.Device, &fenceInfo, nullptr, &fence), "fence");
  VkDevice device = ctx.Device;
  ctx.atEnd([device, fence] { vkDestroyFence(device, fence, nullptr); });
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  if (!verdict.expectResult(vkQueueSubmit(ctx.Queue, 1, &submit, fence),
                            VK_SUCCESS, "vkQueueSubmit"))
    return;

  // The host has not set hostEvent, so nothing after the wait has run.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  VkResult status = vkGetEventStatus(ctx.Device, hostEvent);
  verdict.expect(status == VK_EVENT_RESET,
                 "before vkSetEvent: host event is %s, expected VK_EVENT_RESET",
                 eventStatusName(status));
  status = vkGetEventStatus(ctx.Device, deviceEvent);
  verdict.expect(status == VK_EVENT_RESET,
                 "before vkSetEvent: device event is %s, expected "
                 "VK_EVENT_RESET",
                 eventStatusName(status));
  status = vkGetFenceStatus(ctx.Device, fence);
  verdict.expect(status == VK_NOT_READY,
                 "before vkSetEvent: fence status is %d, expected "
                 "VK_NOT_READY",
                 status);
  std::vector<uint32_t> unchanged(N);
  for (uint32_t i = 0; i < N; ++i)
    unchanged[i] = i;
  expectArray(verdict, "before vkSetEvent: v", data.as<uint32_t>(), unchanged);

  verdict.expectResult(vkSetEvent(ctx.Device, hostEvent), VK_SUCCESS,
                       "vkSetEvent");
  if (!verdict.expectResult(
          vkWaitForFences(ctx.Device, 1, &fence, VK_TRUE, WaitNanoseconds),
          VK_SUCCESS, "vkWaitForFences"))
    return;
  status = vkGetEventStatus(ctx.Device, hostEvent);
  verdict.expect(status == VK_EVENT_SET,
                 "host event is %s, expected "
                 "VK_EVENT_SET",
                 eventStatusName(status));
  status = vkGetEventStatus(ctx.Device, deviceEvent);
  verdict.expect(status == VK_EVENT_SET,
                 "after vkCmdSetEvent2: device event is %s, expected "
                 "VK_EVENT_SET",
                 eventStatusName(status));
  status = vkGetEventStatus(ctx.Device, resetEvent);
  verdict.expect(status == VK_EVENT_RESET,
                 "after vkCmdResetEvent2: event is %s, expected "
                 "VK_EVENT_RESET",
                 eventStatusName(status));
  verdict.expectResult(vkResetEvent(ctx.Device, hostEvent), VK_SUCCESS,
                       "vkResetEvent");
  status = vkGetEventStatus(ctx.Device, hostEvent);
  verdict.expect(status == VK_EVENT_RESET,
                 "after vkResetEvent: host event is %s, expected "
                 "VK_EVENT_RESET",
                 eventStatusName(status));
  std::vector<uint32_t> expected(N);
  for (uint32_t i = 0; i < N; ++i)
    expected[i] = i + 10;
  expectArray(verdict, "v", data.as<uint32_t>(), expected);
}

VkQueryPool makeQueryPool(Context &ctx, VkQueryType type, uint32_t count,
                          VkQueryPipelineStatisticFlags statistics = 0) {
  auto info = makeStruct<VkQueryPoolCreateInfo>(
      VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
  info.queryType = type;
  info.queryCount = count;
  info.pipelineStatistics = statistics;
  VkQueryPool pool;
  check(vkCreateQueryPool(ctx.Device, &info, nullptr, &pool), "query pool");
  VkDevice device = ctx.Device;
  ctx.atEnd([device, pool] { vkDestroyQueryPool(device, pool, nullptr); });
  return pool;
}

void timestamps(Context &ctx, Verdict &verdict) {
  if (!ctx.TimestampValidBits ||
      !ctx.Properties.limits.timestampComputeAndGraphics)
    return verdict.skip("timestampValidBits/timestampComputeAndGraphics");
  if (!ctx.Has.hostQueryReset || !ctx.Has.sync2)
    return verdict.skip("hostQueryReset with synchronization2");
  constexpr uint32_t N = 64;
  Buffer data = ctx.makeBuffer(N * 4);
  Program add = ctx.makeProgram(verdict, "add", 1, sizeof(AddPush));
  if (!add.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(add, {{&data}});
  VkQueryPool pool = makeQueryPool(ctx, VK_QUERY_TYPE_TIMESTAMP, 2);
  vkResetQueryPool(ctx.Device, pool, 0, 2);

  VkCommandBuffer commands = ctx.beginCommands();
  vkCmdWriteTimestamp2(commands, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 0);
  AddPush push = {1, N};
  ctx.dispatch(commands, add, set, &push, sizeof(push), 1);
  vkCmdWriteTimestamp2(commands, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 1);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;

  uint64_t times[2] = {0, 0};
  verdict.expectResult(
      vkGetQueryPoolResults(ctx.Device, pool, 0, 2, sizeof(times), times, 8,
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      VK_SUCCESS, "vkGetQueryPoolResults(WAIT)");
  verdict.expect(times[1] >= times[0],
                 "second timestamp %llu is before the first %llu",
                 (unsigned long long)times[1], (unsigned long long)times[0]);
  // Value and availability per query: both available, same values.
  uint64_t withAvailability[4] = {0, 0, 0, 0};
  verdict.expectResult(
      vkGetQueryPoolResults(
          ctx.Device, pool, 0, 2, sizeof(withAvailability), withAvailability,
          16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
      VK_SUCCESS, "vkGetQueryPoolResults(WITH_AVAILABILITY)");
  for (int i = 0; i < 2; ++i) {
    verdict.expect(withAvailability[2 * i + 1] == 1,
                   "query %d availability: expected 1, got %llu", i,
                   (unsigned long long)withAvailability[2 * i + 1]);
    verdict.expect(withAvailability[2 * i] == times[i],
                   "query %d with availability: expected %llu, got %llu", i,
                   (unsigned long long)times[i],
                   (unsigned long long)withAvailability[2 * i]);
  }
  std::vector<uint32_t> expected(N);
  for (uint32_t i = 0; i < N; ++i)
    expected[i] = 1;
  expectArray(verdict, "v", data.as<uint32_t>(), expected);

  // Reset from the host: unavailable, so no WAIT gives VK_NOT_READY and
  // availability 0 (the value is not written).
  vkResetQueryPool(ctx.Device, pool, 0, 2);
  verdict.expectResult(vkGetQueryPoolResults(ctx.Device, pool, 0, 2,
                                             sizeof(times), times, 8,
                                             VK_QUERY_RESULT_64_BIT),
                       VK_NOT_READY, "vkGetQueryPoolResults after reset");
  withAvailability[1] = withAvailability[3] = 7;
  verdict.expectResult(
      vkGetQueryPoolResults(
          ctx.Device, pool, 0, 2, sizeof(withAvailability), withAvailability,
          16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WITH_AVAILABILITY_BIT),
      VK_NOT_READY, "vkGetQueryPoolResults(WITH_AVAILABILITY) after reset");
  verdict.expect(withAvailability[1] == 0 && withAvailability[3] == 0,
                 "availability after reset: expected 0 and 0, got %llu and "
                 "%llu",
                 (unsigned long long)withAvailability[1],
                 (unsigned long long)withAvailability[3]);
}

void pipelineStatistics(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.pipelineStatistics)
    return verdict.skip("pipelineStatisticsQuery");
  // Two dispatches of add.comp (local size 64) without a barrier between
  // them (the adds are atomic): 3 groups, then 2: 3 * 64 + 2 * 64 = 320
  // invocations. v[i] is 2 for i < 128, 1 for i < 192 and 0 beyond.
  constexpr uint32_t N = 256;
  Buffer data = ctx.makeBuffer(N * 4);
  Buffer copied = ctx.makeBuffer(16);
  Program add = ctx.makeProgram(verdict, "add", 1, sizeof(AddPush));
  if (!add.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(add, {{&data}});
  VkQueryPool pool =
      makeQueryPool(ctx, VK_QUERY_TYPE_PIPELINE_STATISTICS, 1,
                    VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT);

  VkCommandBuffer commands = ctx.beginCommands();
  vkCmdResetQueryPool(commands, pool, 0, 1);
  vkCmdBeginQuery(commands, pool, 0, 0);
  AddPush push = {1, N};
  ctx.dispatch(commands, add, set, &push, sizeof(push), 3);
  ctx.dispatch(commands, add, set, &push, sizeof(push), 2);
  vkCmdEndQuery(commands, pool, 0);
  // Value and availability at 0 and 8.
  vkCmdCopyQueryPoolResults(commands, pool, 0, 1, copied.buffer, 0, 16,
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT |
                                VK_QUERY_RESULT_WITH_AVAILABILITY_BIT);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;

  uint64_t invocations = 0;
  verdict.expectResult(
      vkGetQueryPoolResults(ctx.Device, pool, 0, 1, sizeof(invocations),
                            &invocations, 8,
                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
      VK_SUCCESS, "vkGetQueryPoolResults");
  verdict.expect(invocations == 320,
                 "vkGetQueryPoolResults: expected 320 invocations, got %llu",
                 (unsigned long long)invocations);
  uint64_t *copiedResults = copied.as<uint64_t>();
  verdict.expect(copiedResults[0] == 320,
                 "vkCmdCopyQueryPoolResults: expected 320 invocations, got "
                 "%llu",
                 (unsigned long long)copiedResults[0]);
  verdict.expect(copiedResults[1] == 1,
                 "vkCmdCopyQueryPoolResults: expected availability 1, got "
                 "%llu",
                 (unsigned long long)copiedResults[1]);
  // 32-bit results, without availability.
  uint32_t invocations32 = 0;
  verdict.expectResult(
      vkGetQueryPoolResults(ctx.Device, pool, 0, 1, sizeof(invocations32),
                            &invocations32, 4, VK_QUERY_RESULT_WAIT_BIT),
      VK_SUCCESS, "vkGetQueryPoolResults(32-bit)");
  verdict.expect(invocations32 == 320,
                 "32-bit result: expected 320 invocations, got %u",
                 invocations32);
  std::vector<uint32_t> expected(N);
  for (uint32_t i = 0; i < N; ++i)
    expected[i] = (i < 3 * 64) + (i < 2 * 64);
  expectArray(verdict, "v", data.as<uint32_t>(), expected);
}

void secondary(Context &ctx, Verdict &verdict) {
  // A secondary command buffer that adds 3 to v[i], executed twice with a
  // barrier between: v[i] = i + 6.
  constexpr uint32_t N = 100;
  Buffer data = ctx.makeBuffer(N * 4);
  for (uint32_t i = 0; i < N; ++i)
    data.as<uint32_t>()[i] = i;
  Program add = ctx.makeProgram(verdict, "add", 1, sizeof(AddPush));
  if (!add.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(add, {{&data}});

  VkCommandBuffer inner = ctx.beginCommands(VK_COMMAND_BUFFER_LEVEL_SECONDARY);
  auto inheritance = makeStruct<VkCommandBufferInheritanceInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO);
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  // Recorded into the primary twice, which needs simultaneous use.
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  begin.pInheritanceInfo = &inheritance;
  check(vkBeginCommandBuffer(inner, &begin), "begin secondary");
  AddPush push = {3, N};
  ctx.dispatch(inner, add, set, &push, sizeof(push), (N + 63) / 64);
  check(vkEndCommandBuffer(inner), "end secondary");

  VkCommandBuffer outer = ctx.beginCommands();
  vkCmdExecuteCommands(outer, 1, &inner);
  barrierComputeToCompute(outer);
  vkCmdExecuteCommands(outer, 1, &inner);
  barrierToHost(outer);
  check(vkEndCommandBuffer(outer), "end command buffer");
  if (!ctx.submitAndWait(verdict, outer))
    return;
  std::vector<uint32_t> expected(N);
  for (uint32_t i = 0; i < N; ++i)
    expected[i] = i + 6;
  expectArray(verdict, "v", data.as<uint32_t>(), expected);
}

void dispatchBase(Context &ctx, Verdict &verdict) {
  // Workgroups of 4 x 2 from base (2, 1, 0), 3 x 2 x 1 of them, in a grid
  // of 5 x 3 workgroups (20 x 6 invocations): only the invocations of
  // workgroups x in [2, 5), y in [1, 3) write their records
  // (dispatch-base.comp); the others keep the fill.
  constexpr uint32_t Base[3] = {2, 1, 0}, Count[3] = {3, 2, 1};
  constexpr uint32_t Width = 20, Height = 6, Fill = 0xFFFFFFFFu;
  Buffer records = ctx.makeBuffer(Width * Height * 2 * 16);
  uint32_t *words = records.as<uint32_t>();
  std::fill(words, words + Width * Height * 8, Fill);
  ProgramOptions options;
  options.pipelineFlags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
  Program program = ctx.makeProgram(verdict, "dispatch-base", 1, 4, options);
  if (!program.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(program, {{&records}});
  VkCommandBuffer commands = ctx.beginCommands();
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                          program.layout, 0, 1, &set, 0, nullptr);
  uint32_t width = Width;
  vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     4, &width);
  vkCmdDispatchBase(commands, Base[0], Base[1], Base[2], Count[0], Count[1],
                    Count[2]);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  std::vector<uint32_t> expected(Width * Height * 8, Fill);
  for (uint32_t y = 0; y < Height; ++y)
    for (uint32_t x = 0; x < Width; ++x) {
      uint32_t groupX = x / 4, groupY = y / 2;
      if (groupX < Base[0] || groupX >= Base[0] + Count[0] ||
          groupY < Base[1] || groupY >= Base[1] + Count[1])
        continue;
      uint32_t *record = &expected[(y * Width + x) * 8];
      uint32_t values[8] = {groupX,   groupY,   0,        (y % 2) * 4 + x % 4,
                            Count[0], Count[1], Count[2], 1};
      std::copy(values, values + 8, record);
    }
  expectArray(verdict, "records", words, expected);
}

void pushDescriptors(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.pushDescriptor)
    return verdict.skip(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  // add.comp adds 5 to v[i] = i through a pushed descriptor, then 2 to
  // w[i] = 10 i through another pushed in the same command buffer: v[i] =
  // i + 5, w[i] = 10 i + 2.
  constexpr uint32_t N = 70;
  Buffer v = ctx.makeBuffer(N * 4), w = ctx.makeBuffer(N * 4);
  for (uint32_t i = 0; i < N; ++i) {
    v.as<uint32_t>()[i] = i;
    w.as<uint32_t>()[i] = 10 * i;
  }
  ProgramOptions options;
  options.setFlags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  Program add = ctx.makeProgram(verdict, "add", 1, sizeof(AddPush), options);
  if (!add.pipeline)
    return;
  auto pushSet = reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(
      vkGetDeviceProcAddr(ctx.Device, "vkCmdPushDescriptorSetKHR"));
  if (!verdict.expect(pushSet != nullptr,
                      "vkGetDeviceProcAddr(vkCmdPushDescriptorSetKHR) is null"))
    return;
  VkCommandBuffer commands = ctx.beginCommands();
  for (const auto &[buffer, addend] :
       {std::pair<const Buffer *, uint32_t>{&v, 5}, {&w, 2}}) {
    VkDescriptorBufferInfo info = {buffer->buffer, 0, VK_WHOLE_SIZE};
    auto write = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstBinding = 0;
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &info;
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, add.pipeline);
    pushSet(commands, VK_PIPELINE_BIND_POINT_COMPUTE, add.layout, 0, 1, &write);
    AddPush push = {addend, N};
    vkCmdPushConstants(commands, add.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                       sizeof(push), &push);
    vkCmdDispatch(commands, (N + 63) / 64, 1, 1);
  }
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  std::vector<uint32_t> expectedV(N), expectedW(N);
  for (uint32_t i = 0; i < N; ++i) {
    expectedV[i] = i + 5;
    expectedW[i] = 10 * i + 2;
  }
  expectArray(verdict, "v", v.as<uint32_t>(), expectedV);
  expectArray(verdict, "w", w.as<uint32_t>(), expectedW);
}

void descriptorIndexing(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.descriptorIndexing)
    return verdict.skip("descriptorBindingPartiallyBound, "
                        "descriptorBindingVariableDescriptorCount, "
                        "runtimeDescriptorArray or "
                        "shaderStorageBufferArrayNonUniformIndexing");
  // A set whose binding 0 has 6 of at most 8 storage buffers, only elements
  // 1, 3 and 4 written; indexing.comp adds e + 1 to bufs[e].v[x] = 10 e + x
  // for e = 1, 3, 4 (one workgroup row each): 11 e + x + 1.
  constexpr uint32_t N = 100, MaxCount = 8, Count = 6;
  constexpr uint32_t Written[] = {1, 3, 4};
  std::vector<Buffer> buffers;
  for (uint32_t e : Written) {
    buffers.push_back(ctx.makeBuffer(N * 4));
    for (uint32_t x = 0; x < N; ++x)
      buffers.back().as<uint32_t>()[x] = 10 * e + x;
  }
  VkDescriptorSetLayoutBinding array = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                        MaxCount, VK_SHADER_STAGE_COMPUTE_BIT,
                                        nullptr};
  VkDescriptorBindingFlags flags =
      VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
      VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
  auto bindingFlags = makeStruct<VkDescriptorSetLayoutBindingFlagsCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
  bindingFlags.bindingCount = 1;
  bindingFlags.pBindingFlags = &flags;
  ProgramOptions options;
  options.first = &array;
  options.setLayoutNext = &bindingFlags;
  struct {
    uint32_t elements[4];
    uint32_t count;
  } push = {{Written[0], Written[1], Written[2], 0}, N};
  Program program =
      ctx.makeProgram(verdict, "indexing", 1, sizeof(push), options);
  if (!program.pipeline)
    return;
  VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, MaxCount};
  auto poolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.maxSets = 1;
  poolInfo.poolSizeCount = 1;
  poolInfo.pPoolSizes = &size;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(ctx.Device, &poolInfo, nullptr, &pool),
        "descriptor pool");
  VkDevice device = ctx.Device;
  ctx.atEnd([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
  auto variable = makeStruct<
      VkDescriptorSetVariableDescriptorCountAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO);
  variable.descriptorSetCount = 1;
  variable.pDescriptorCounts = &Count;
  auto allocateInfo = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocateInfo.pNext = &variable;
  allocateInfo.descriptorPool = pool;
  allocateInfo.descriptorSetCount = 1;
  allocateInfo.pSetLayouts = &program.setLayout;
  VkDescriptorSet set;
  check(vkAllocateDescriptorSets(ctx.Device, &allocateInfo, &set), "set");
  for (uint32_t i = 0; i < 3; ++i) {
    VkDescriptorBufferInfo info = {buffers[i].buffer, 0, VK_WHOLE_SIZE};
    auto write = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = set;
    write.dstBinding = 0;
    write.dstArrayElement = Written[i];
    write.descriptorCount = 1;
    write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    write.pBufferInfo = &info;
    vkUpdateDescriptorSets(ctx.Device, 1, &write, 0, nullptr);
  }
  VkCommandBuffer commands = ctx.beginCommands();
  vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, program.pipeline);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                          program.layout, 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(commands, program.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                     sizeof(push), &push);
  vkCmdDispatch(commands, (N + 63) / 64, 3, 1);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  for (uint32_t i = 0; i < 3; ++i) {
    std::vector<uint32_t> expected(N);
    for (uint32_t x = 0; x < N; ++x)
      expected[x] = 11 * Written[i] + x + 1;
    std::string what = "bufs[" + std::to_string(Written[i]) + "].v";
    expectArray(verdict, what.c_str(), buffers[i].as<uint32_t>(), expected);
  }
}

void inlineUniformBlock(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.inlineUniformBlock)
    return verdict.skip("inlineUniformBlock");
  // inline.comp: v[i] = v[i] * scale + addend for i < count, its three
  // parameters in a 16-byte inline uniform block written in two pieces
  // (scale and addend, then count) and copied to a second set: from
  // v[i] = i, scale 3, addend 4, count 50 of 64: v[i] = 3 i + 4 below 50,
  // i above.
  constexpr uint32_t N = 64, Count = 50;
  Buffer v = ctx.makeBuffer(N * 4);
  for (uint32_t i = 0; i < N; ++i)
    v.as<uint32_t>()[i] = i;
  VkDescriptorSetLayoutBinding block = {
      0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16,
      VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  ProgramOptions options;
  options.first = &block;
  Program program = ctx.makeProgram(verdict, "inline", 2, 0, options);
  if (!program.pipeline)
    return;
  VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 32},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
  auto inlineInfo = makeStruct<VkDescriptorPoolInlineUniformBlockCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO);
  inlineInfo.maxInlineUniformBlockBindings = 2;
  auto poolInfo = makeStruct<VkDescriptorPoolCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
  poolInfo.pNext = &inlineInfo;
  poolInfo.maxSets = 2;
  poolInfo.poolSizeCount = 2;
  poolInfo.pPoolSizes = sizes;
  VkDescriptorPool pool;
  check(vkCreateDescriptorPool(ctx.Device, &poolInfo, nullptr, &pool),
        "descriptor pool");
  VkDevice device = ctx.Device;
  ctx.atEnd([device, pool] { vkDestroyDescriptorPool(device, pool, nullptr); });
  VkDescriptorSetLayout layouts[] = {program.setLayout, program.setLayout};
  auto allocateInfo = makeStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  allocateInfo.descriptorPool = pool;
  allocateInfo.descriptorSetCount = 2;
  allocateInfo.pSetLayouts = layouts;
  VkDescriptorSet sets[2];
  check(vkAllocateDescriptorSets(ctx.Device, &allocateInfo, sets), "sets");

  const uint32_t scaleAddend[] = {3, 4}, count[] = {Count};
  auto writeBlock = [&](uint32_t offset, const void *data, uint32_t size) {
    auto bytes = makeStruct<VkWriteDescriptorSetInlineUniformBlock>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK);
    bytes.dataSize = size;
    bytes.pData = data;
    auto write = makeStruct<VkWriteDescriptorSet>(
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.pNext = &bytes;
    write.dstSet = sets[0];
    write.dstBinding = 0;
    write.dstArrayElement = offset;
    write.descriptorCount = size;
    write.descriptorType = VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK;
    vkUpdateDescriptorSets(ctx.Device, 1, &write, 0, nullptr);
  };
  writeBlock(0, scaleAddend, sizeof(scaleAddend));
  writeBlock(8, count, sizeof(count));
  auto copy =
      makeStruct<VkCopyDescriptorSet>(VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET);
  copy.srcSet = sets[0];
  copy.dstSet = sets[1];
  copy.descriptorCount = 16;
  VkDescriptorBufferInfo info = {v.buffer, 0, VK_WHOLE_SIZE};
  auto write =
      makeStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
  write.dstSet = sets[1];
  write.dstBinding = 1;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &info;
  vkUpdateDescriptorSets(ctx.Device, 1, &write, 1, &copy);

  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, program, sets[1], nullptr, 0, N / 64);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  std::vector<uint32_t> expected(N);
  for (uint32_t i = 0; i < N; ++i)
    expected[i] = i < Count ? 3 * i + 4 : i;
  expectArray(verdict, "v", v.as<uint32_t>(), expected);
}

void bufferDeviceAddress(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.bufferDeviceAddress)
    return verdict.skip("bufferDeviceAddress");
  // 128 floats f[i] = i - 20.25; the shader gets the address of f[4] and
  // a count of 100, so f[4..103] double and the rest stay.
  constexpr uint32_t N = 128, First = 4, Count = 100;
  Buffer data =
      ctx.makeBuffer(N * 4, VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, true);
  std::vector<float> expected(N);
  for (uint32_t i = 0; i < N; ++i) {
    data.as<float>()[i] = float(i) - 20.25f;
    expected[i] =
        (float(i) - 20.25f) * (i >= First && i < First + Count ? 2 : 1);
  }
  auto addressInfo = makeStruct<VkBufferDeviceAddressInfo>(
      VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  addressInfo.buffer = data.buffer;
  VkDeviceAddress address = vkGetBufferDeviceAddress(ctx.Device, &addressInfo);
  if (!verdict.expect(address != 0, "vkGetBufferDeviceAddress returned 0"))
    return;
  struct {
    VkDeviceAddress data;
    uint32_t count;
    uint32_t padding;
  } push = {address + First * 4, Count, 0};
  Program bda = ctx.makeProgram(verdict, "bda", 0, 16);
  if (!bda.pipeline)
    return;
  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, bda, VK_NULL_HANDLE, &push, 16, (Count + 63) / 64);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  expectArray(verdict, "f", data.as<float>(), expected);
}

void subgroupSizeControl(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.subgroupSizeControl)
    return verdict.skip("subgroupSizeControl for compute");
  std::vector<uint32_t> sizes = {ctx.Properties13.maxSubgroupSize};
  if (ctx.Properties13.minSubgroupSize != ctx.Properties13.maxSubgroupSize)
    sizes.push_back(ctx.Properties13.minSubgroupSize);
  for (uint32_t size : sizes) {
    // A workgroup of 64 if that many subgroups of this size fit in one.
    uint32_t local = std::min<uint32_t>(
        64, size * ctx.Properties13.maxComputeWorkgroupSubgroups);
    VkSpecializationMapEntry entry = {0, 0, 4};
    VkSpecializationInfo specialization = {1, &entry, 4, &local};
    auto required = makeStruct<
        VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
    required.requiredSubgroupSize = size;
    constexpr uint32_t Groups = 2;
    Buffer out = ctx.makeBuffer(Groups * local * 4);
    ProgramOptions options;
    options.specialization = &specialization;
    options.stageNext = &required;
    Program program = ctx.makeProgram(verdict, "subgroup-size", 1, 0, options);
    if (!program.pipeline)
      continue;
    VkDescriptorSet set = ctx.makeSet(program, {{&out}});
    VkCommandBuffer commands = ctx.beginCommands();
    ctx.dispatch(commands, program, set, nullptr, 0, Groups);
    barrierToHost(commands);
    check(vkEndCommandBuffer(commands), "end command buffer");
    if (!ctx.submitAndWait(verdict, commands))
      return;
    std::vector<uint32_t> expected(Groups * local, size);
    std::string what = "gl_SubgroupSize with required size " +
                       std::to_string(size) + ", workgroup " +
                       std::to_string(local) + ": size";
    expectArray(verdict, what.c_str(), out.as<uint32_t>(), expected);
  }
}

void robustAccess(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.robustBufferAccess)
    return verdict.skip("robustBufferAccess");
  // One allocation: a 64-element buffer v at its start, of which the
  // descriptor binds the first 16, then guard bytes no buffer covers.
  // robust.comp's invocation i reads (mode 0) or writes (mode 1) v[i] for
  // i < 32 and v[100000 + i] beyond: in bounds for i < 16 only.
  constexpr uint32_t Elements = 64, Bound = 16, Guard = 1024;
  constexpr uint8_t GuardByte = 0xA5;
  auto bufferInfo =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = Elements * 4;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  Buffer data;
  data.size = bufferInfo.size;
  check(vkCreateBuffer(ctx.Device, &bufferInfo, nullptr, &data.buffer),
        "buffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(ctx.Device, data.buffer, &requirements);
  uint32_t type = 0;
  for (; type < ctx.Memory.memoryTypeCount; ++type)
    if ((requirements.memoryTypeBits & (1u << type)) &&
        (ctx.Memory.memoryTypes[type].propertyFlags &
         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) &&
        (ctx.Memory.memoryTypes[type].propertyFlags &
         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
      break;
  auto allocateInfo =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocateInfo.allocationSize = requirements.size + Guard;
  allocateInfo.memoryTypeIndex = type;
  check(vkAllocateMemory(ctx.Device, &allocateInfo, nullptr, &data.memory),
        "memory");
  VkDevice device = ctx.Device;
  ctx.atEnd([device, data] {
    vkDestroyBuffer(device, data.buffer, nullptr);
    vkFreeMemory(device, data.memory, nullptr);
  });
  check(vkBindBufferMemory(ctx.Device, data.buffer, data.memory, 0), "bind");
  check(vkMapMemory(ctx.Device, data.memory, 0, VK_WHOLE_SIZE, 0, &data.mapped),
        "map");
  uint32_t *v = data.as<uint32_t>();
  for (uint32_t i = 0; i < Elements; ++i)
    v[i] = 1000 + i;
  uint8_t *guard = static_cast<uint8_t *>(data.mapped) + requirements.size;
  std::memset(guard, GuardByte, Guard);

  Buffer result = ctx.makeBuffer(Elements * 4);
  std::memset(result.mapped, 0xEE, Elements * 4);
  Program robust = ctx.makeProgram(verdict, "robust", 2, 4);
  if (!robust.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(robust, {{&data, 0, Bound * 4}, {&result}});

  uint32_t read = 0, write = 1;
  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, robust, set, &read, 4, 1);
  barrierComputeToCompute(commands);
  ctx.dispatch(commands, robust, set, &write, 4, 1);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;

  // In bounds: read 1000 + i, then wrote 0xC0DE0000 + i.
  std::vector<uint32_t> readBound(Bound), wroteBound(Bound);
  for (uint32_t i = 0; i < Bound; ++i) {
    readBound[i] = 1000 + i;
    wroteBound[i] = 0xC0DE0000u + i;
  }
  expectArray(verdict, "in-bounds read r", result.as<uint32_t>(), readBound);
  expectArray(verdict, "in-bounds write v", v, wroteBound);
  // Writes out of bounds may change the buffer's memory (robustBufferAccess)
  // but never memory outside it.
  size_t changed = 0;
  for (uint32_t i = 0; i < Guard; ++i)
    changed += guard[i] != GuardByte;
  verdict.expect(!changed,
                 "%zu guard bytes after the buffer changed, expected none",
                 changed);
  if (!ctx.Has.robustBufferAccess2)
    return;
  // robustBufferAccess2: out-of-bounds reads give exactly 0 and writes are
  // discarded, so v past the bound range keeps 1000 + i.
  std::vector<uint32_t> readOutside(Elements - Bound, 0), keptOutside;
  for (uint32_t i = Bound; i < Elements; ++i)
    keptOutside.push_back(1000 + i);
  expectArray(verdict, "robustBufferAccess2: out-of-bounds read r[16..]",
              result.as<uint32_t>() + Bound, readOutside);
  expectArray(verdict, "robustBufferAccess2: v[16..] past the bound range",
              v + Bound, keptOutside);
}

void privateData(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.privateData)
    return verdict.skip("privateData");
  auto slotInfo = makeStruct<VkPrivateDataSlotCreateInfo>(
      VK_STRUCTURE_TYPE_PRIVATE_DATA_SLOT_CREATE_INFO);
  VkPrivateDataSlot slot, other;
  check(vkCreatePrivateDataSlot(ctx.Device, &slotInfo, nullptr, &slot),
        "private data slot");
  check(vkCreatePrivateDataSlot(ctx.Device, &slotInfo, nullptr, &other),
        "private data slot");
  VkDevice device = ctx.Device;
  ctx.atEnd([device, slot, other] {
    vkDestroyPrivateDataSlot(device, slot, nullptr);
    vkDestroyPrivateDataSlot(device, other, nullptr);
  });
  Buffer tagged = ctx.makeBuffer(16), untagged = ctx.makeBuffer(16);
  constexpr uint64_t Tag = 0x0123456789ABCDEFull, OtherTag = 42;
  verdict.expectResult(vkSetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER,
                                        uint64_t(tagged.buffer), slot, Tag),
                       VK_SUCCESS, "vkSetPrivateData");
  verdict.expectResult(vkSetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER,
                                        uint64_t(tagged.buffer), other,
                                        OtherTag),
                       VK_SUCCESS, "vkSetPrivateData");
  uint64_t got = ~0ull;
  vkGetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER, uint64_t(tagged.buffer),
                   slot, &got);
  verdict.expect(got == Tag, "tagged buffer: expected 0x%llx, got 0x%llx",
                 (unsigned long long)Tag, (unsigned long long)got);
  got = ~0ull;
  vkGetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER, uint64_t(tagged.buffer),
                   other, &got);
  verdict.expect(got == OtherTag,
                 "tagged buffer, second slot: expected %llu, got %llu",
                 (unsigned long long)OtherTag, (unsigned long long)got);
  got = ~0ull;
  vkGetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER, uint64_t(untagged.buffer),
                   slot, &got);
  verdict.expect(got == 0, "untagged buffer: expected 0, got 0x%llx",
                 (unsigned long long)got);
  // Setting again replaces the value.
  verdict.expectResult(vkSetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER,
                                        uint64_t(tagged.buffer), slot, 7),
                       VK_SUCCESS, "vkSetPrivateData");
  got = ~0ull;
  vkGetPrivateData(ctx.Device, VK_OBJECT_TYPE_BUFFER, uint64_t(tagged.buffer),
                   slot, &got);
  verdict.expect(got == 7, "tagged buffer set again: expected 7, got %llu",
                 (unsigned long long)got);
}

/// The binary16 encoding of \p value, which must be a normal half exactly.
uint16_t toHalf(float value) {
  if (value == 0)
    return std::signbit(value) ? 0x8000 : 0;
  int exponent;
  float mantissa = std::frexp(std::fabs(value), &exponent); // [0.5, 1)
  // value = 1.m * 2^(exponent - 1), 10 bits of m.
  uint32_t bits = uint32_t(std::ldexp(mantissa, 11)) & 0x3FF;
  return uint16_t((value < 0 ? 0x8000 : 0) | ((exponent - 1 + 15) << 10) |
                  bits);
}

void float16Int8(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.float16Int8)
    return verdict.skip("shaderFloat16/shaderInt8/storageBuffer8BitAccess/"
                        "storageBuffer16BitAccess");
  // b[i] = (37 i + 11) mod 256 and h[i] = (i - 32) / 8 (exact halves of at
  // most 6 significant bits). bOut = 3 b + 7 modulo 256; hOut = 2 h + 0.5,
  // a multiple of 1/4 within [-7.5, 8.25] and so exact in half; fOut = h * b,
  // at most 14 significant bits and so exact in float.
  constexpr uint32_t N = 64;
  Buffer bytes = ctx.makeBuffer(N), halves = ctx.makeBuffer(N * 2),
         bytesOut = ctx.makeBuffer(N), halvesOut = ctx.makeBuffer(N * 2),
         floatsOut = ctx.makeBuffer(N * 4);
  std::vector<uint8_t> expectBytes(N);
  std::vector<uint16_t> expectHalves(N);
  std::vector<float> expectFloats(N);
  for (uint32_t i = 0; i < N; ++i) {
    uint8_t b = uint8_t((37 * i + 11) % 256);
    float h = (float(i) - 32) / 8;
    bytes.as<uint8_t>()[i] = b;
    halves.as<uint16_t>()[i] = toHalf(h);
    expectBytes[i] = uint8_t((3 * b + 7) % 256);
    expectHalves[i] = toHalf(2 * h + 0.5f);
    expectFloats[i] = h * float(b);
  }
  Program program = ctx.makeProgram(verdict, "float16-int8", 5, 0);
  if (!program.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(
      program, {{&bytes}, {&halves}, {&bytesOut}, {&halvesOut}, {&floatsOut}});
  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, program, set, nullptr, 0, 1);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  expectArray(verdict, "uint8_t bOut", bytesOut.as<uint8_t>(), expectBytes);
  expectArray(verdict, "float16_t bits hOut", halvesOut.as<uint16_t>(),
              expectHalves);
  expectArray(verdict, "float fOut", floatsOut.as<float>(), expectFloats);
}

void floatAtomics(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.floatAtomics)
    return verdict.skip(
        "VK_EXT_shader_atomic_float shaderBufferFloat32AtomicAdd");
  // 4 groups of 64 add 0.5 each: 256 * 0.5 = 128, every partial sum a
  // multiple of 0.5 below 2^24 and so exact in any order.
  Buffer sum = ctx.makeBuffer(4);
  Program program = ctx.makeProgram(verdict, "float-atomic", 1, 0);
  if (!program.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(program, {{&sum}});
  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, program, set, nullptr, 0, 4);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  float got = sum.as<float>()[0];
  verdict.expect(got == 128.0f, "sum: expected 128, got %g", got);
}

void int64Atomics(Context &ctx, Verdict &verdict) {
  if (!ctx.Has.int64Atomics)
    return verdict.skip("shaderInt64/shaderBufferInt64Atomics");
  // 16 groups of 64: invocation i adds 2^32 + i to a (which starts just
  // below a carry out of the low word) and 0xFFFFFFFF to b.
  constexpr uint32_t Invocations = 1024;
  Buffer sums = ctx.makeBuffer(16);
  uint64_t *ab = sums.as<uint64_t>();
  ab[0] = 0xFFFFFF00ull;
  ab[1] = 5;
  uint64_t expectA = ab[0], expectB = ab[1];
  for (uint64_t i = 0; i < Invocations; ++i) {
    expectA += (uint64_t(1) << 32) + i;
    expectB += 0xFFFFFFFFull;
  }
  Program program = ctx.makeProgram(verdict, "int64-atomic", 1, 0);
  if (!program.pipeline)
    return;
  VkDescriptorSet set = ctx.makeSet(program, {{&sums}});
  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, program, set, nullptr, 0, Invocations / 64);
  barrierToHost(commands);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  verdict.expect(ab[0] == expectA, "a: expected 0x%llx, got 0x%llx",
                 (unsigned long long)expectA, (unsigned long long)ab[0]);
  verdict.expect(ab[1] == expectB, "b: expected 0x%llx, got 0x%llx",
                 (unsigned long long)expectB, (unsigned long long)ab[1]);
}

void debugPrintf(Context &ctx, Verdict &verdict) {
  if (!ctx.Messenger ||
      std::strncmp(ctx.Properties.deviceName, "spvbridge", 9) != 0)
    return verdict.skip("debugPrintfEXT to a messenger");
  // printf.comp: invocation i of 3 prints "i=<i> twice=<2 i>".
  Program program = ctx.makeProgram(verdict, "printf", 0, 0);
  if (!program.pipeline)
    return;
  {
    std::lock_guard<std::mutex> lock(ctx.PrintfMutex);
    ctx.PrintfMessages.clear();
  }
  VkCommandBuffer commands = ctx.beginCommands();
  ctx.dispatch(commands, program, VK_NULL_HANDLE, nullptr, 0, 1);
  check(vkEndCommandBuffer(commands), "end command buffer");
  if (!ctx.submitAndWait(verdict, commands))
    return;
  std::vector<std::string> got;
  {
    std::lock_guard<std::mutex> lock(ctx.PrintfMutex);
    got = ctx.PrintfMessages;
  }
  std::sort(got.begin(), got.end());
  std::vector<std::string> expected = {"i=0 twice=0", "i=1 twice=2",
                                       "i=2 twice=4"};
  std::string joined;
  for (const std::string &message : got)
    joined += "'" + message + "' ";
  verdict.expect(got == expected,
                 "messages: %s(expected 'i=0 twice=0', "
                 "'i=1 twice=2', 'i=2 twice=4')",
                 joined.c_str());
}

struct Case {
  const char *name;
  void (*run)(Context &, Verdict &);
};

const Case Cases[] = {
    {"timeline-host-signal", timelineHostSignal},
    {"submit2-sync2", submit2Sync2},
    {"events", events},
    {"timestamps", timestamps},
    {"pipeline-statistics", pipelineStatistics},
    {"secondary", secondary},
    {"dispatch-base", dispatchBase},
    {"push-descriptors", pushDescriptors},
    {"descriptor-indexing", descriptorIndexing},
    {"inline-uniform-block", inlineUniformBlock},
    {"buffer-device-address", bufferDeviceAddress},
    {"subgroup-size-control", subgroupSizeControl},
    {"robust-access", robustAccess},
    {"private-data", privateData},
    {"float16-int8", float16Int8},
    {"float-atomics", floatAtomics},
    {"int64-atomics", int64Atomics},
    {"debug-printf", debugPrintf},
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ComputeApiCheck SPV_DIR [CASE...]\n");
    return 2;
  }
  std::vector<const Case *> selected;
  for (int i = 2; i < argc; ++i) {
    const Case *found = nullptr;
    for (const Case &c : Cases)
      if (argv[i] == std::string(c.name))
        found = &c;
    if (!found) {
      std::fprintf(stderr, "unknown case '%s'\n", argv[i]);
      return 2;
    }
    selected.push_back(found);
  }
  if (selected.empty())
    for (const Case &c : Cases)
      selected.push_back(&c);

  Context ctx;
  ctx.SpvDir = argv[1];
  ctx.setUp();
  std::printf("device: %s\n", ctx.Properties.deviceName);
  std::fflush(stdout);
  std::thread(watchdog).detach();
  bool failed = false;
  const char *lostIn = nullptr;
  for (const Case *c : selected) {
    Verdict verdict;
    if (lostIn) {
      // A lost device stays lost: the cases after it cannot run.
      verdict.expect(false, "not run, the device was lost in %s", lostIn);
    } else {
      CaseDeadline = nowSeconds() + WatchdogSeconds;
      RunningCase = c->name;
      c->run(ctx, verdict);
      if (!ctx.cleanUp()) {
        lostIn = c->name;
        verdict.expect(false, "vkQueueWaitIdle after the case: device lost");
      }
      RunningCase = nullptr;
    }
    verdict.print(c->name);
    failed |= verdict.failed();
  }
  if (!lostIn)
    ctx.tearDown();
  return failed ? 1 : 0;
}
