//===- VkFFTCheck.cpp - VkFFT's transforms against FFTW -------------------===//
//
// A Vulkan application nobody here wrote, VkFFT (Debian's libvkfft-dev: it
// generates GLSL at run time, compiles it with glslang and creates a
// pipeline per kernel), runs forward transforms on whatever device the
// loader gives (VK_ICD_FILENAMES): 1D, 2D and 3D, complex-to-complex and
// real-to-complex, fp32 and fp64, power-of-two sizes and others (3*5*7,
// 11*13, the prime 13), batched. (Not primes above 13: for them VkFFT
// 1.2.26 takes Bluestein's algorithm and binds a null buffer, which the
// validation layer reports and docs/icd.md describes.) Each
// result is compared with FFTW's in double precision by the relative L2 error
// ||vkfft - fftw|| / ||fftw||, and the median time of five more transforms
// (submission to fence) is printed. Exits 1 if any transform is off by more
// than the limit (1e-5 in fp32, 1e-12 in fp64: VkFFT's own precision tests
// report errors around 1e-7 and 1e-15).
//
//   VkFFTCheck [--quick]
//
//===----------------------------------------------------------------------===//
#include "VkFFTPlan.h"

#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

/// A Vulkan info struct with its sType and everything else zero.
template <typename T> T makeStruct(VkStructureType type) {
  T value = {};
  value.sType = type;
  return value;
}

struct Case {
  unsigned dims;
  uint64_t size[3];
  uint64_t batch;
  bool doublePrecision;
  bool realInput;
};

struct Device {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  uint32_t memoryType = 0;
  VkPhysicalDeviceProperties properties;
};

[[noreturn]] void fail(const char *what, VkResult result) {
  std::fprintf(stderr, "error: %s failed: %d\n", what, result);
  std::exit(1);
}

void check(VkResult result, const char *what) {
  if (result != VK_SUCCESS)
    fail(what, result);
}

Device createDevice() {
  Device d;
  auto application =
      makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.pApplicationName = "VkFFTCheck";
  application.apiVersion = VK_API_VERSION_1_1;
  auto instanceInfo =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &application;
  check(vkCreateInstance(&instanceInfo, nullptr, &d.instance),
        "vkCreateInstance");
  uint32_t count = 1;
  VkResult result =
      vkEnumeratePhysicalDevices(d.instance, &count, &d.physicalDevice);
  if ((result != VK_SUCCESS && result != VK_INCOMPLETE) || count == 0)
    fail("vkEnumeratePhysicalDevices", result);
  vkGetPhysicalDeviceProperties(d.physicalDevice, &d.properties);

  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(d.physicalDevice, &supported);
  VkPhysicalDeviceFeatures features = {};
  features.shaderFloat64 = supported.shaderFloat64;
  float priority = 1.0f;
  auto queueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = 0;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  auto deviceInfo =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.pEnabledFeatures = &features;
  check(vkCreateDevice(d.physicalDevice, &deviceInfo, nullptr, &d.device),
        "vkCreateDevice");
  vkGetDeviceQueue(d.device, 0, 0, &d.queue);
  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  check(vkCreateCommandPool(d.device, &poolInfo, nullptr, &d.pool),
        "vkCreateCommandPool");
  auto fenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  check(vkCreateFence(d.device, &fenceInfo, nullptr, &d.fence),
        "vkCreateFence");
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(d.physicalDevice, &memory);
  VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
    if ((memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
      d.memoryType = i;
      break;
    }
  return d;
}

std::string describe(const Case &c) {
  std::string text = c.realInput ? "R2C " : "C2C ";
  text += std::to_string(c.dims) + "D ";
  for (unsigned i = 0; i < c.dims; ++i)
    text += (i ? "x" : "") + std::to_string(c.size[i]);
  text += c.doublePrecision ? " fp64" : " fp32";
  if (c.batch > 1)
    text += " batch " + std::to_string(c.batch);
  return text;
}

/// Runs case \p c; returns whether its error is within the limit.
bool runCase(Device &d, const Case &c) {
  uint64_t x = c.size[0], y = c.dims > 1 ? c.size[1] : 1,
           z = c.dims > 2 ? c.size[2] : 1;
  uint64_t outX = c.realInput ? x / 2 + 1 : x;
  // VkFFT's in-place layout: complex rows of outX elements (a real input
  // row is padded to 2 * outX reals).
  uint64_t complexCount = outX * y * z * c.batch;
  size_t scalar = c.doublePrecision ? sizeof(double) : sizeof(float);
  uint64_t bufferSize = complexCount * 2 * scalar;

  // Input: reproducible values in [-1, 1].
  std::mt19937_64 random(12345);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  uint64_t rowReals = c.realInput ? x : 2 * x;
  std::vector<double> input(rowReals * y * z * c.batch);
  for (double &value : input)
    value = c.doublePrecision ? uniform(random)
                              : static_cast<float>(uniform(random));

  auto bufferInfo =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = bufferSize;
  bufferInfo.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                     VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer buffer;
  check(vkCreateBuffer(d.device, &bufferInfo, nullptr, &buffer),
        "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(d.device, buffer, &requirements);
  auto allocateInfo =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocateInfo.allocationSize = requirements.size;
  allocateInfo.memoryTypeIndex = d.memoryType;
  VkDeviceMemory memory;
  check(vkAllocateMemory(d.device, &allocateInfo, nullptr, &memory),
        "vkAllocateMemory");
  check(vkBindBufferMemory(d.device, buffer, memory, 0), "vkBindBufferMemory");
  void *mapped;
  check(vkMapMemory(d.device, memory, 0, bufferSize, 0, &mapped),
        "vkMapMemory");

  auto upload = [&] {
    auto *bytes = static_cast<uint8_t *>(mapped);
    uint64_t rows = y * z * c.batch;
    for (uint64_t row = 0; row < rows; ++row)
      for (uint64_t i = 0; i < rowReals; ++i) {
        double value = input[row * rowReals + i];
        uint8_t *at = bytes + (row * 2 * outX + i) * scalar;
        if (c.doublePrecision)
          std::memcpy(at, &value, sizeof(double));
        else {
          float single = static_cast<float>(value);
          std::memcpy(at, &single, sizeof(float));
        }
      }
  };

  VkFFTPlanRequest request = {};
  request.physicalDevice = &d.physicalDevice;
  request.device = &d.device;
  request.queue = &d.queue;
  request.commandPool = &d.pool;
  request.fence = &d.fence;
  request.buffer = &buffer;
  request.bufferSize = &bufferSize;
  request.dims = c.dims;
  request.size[0] = x;
  request.size[1] = y;
  request.size[2] = z;
  request.batch = c.batch;
  request.doublePrecision = c.doublePrecision;
  request.realInput = c.realInput;
  int planned = 0;
  void *plan = createVkFFTPlan(&request, &planned);
  if (!plan) {
    std::printf("%s: initializeVkFFT failed: %d\n", describe(c).c_str(),
                planned);
    return false;
  }

  auto commandInfo = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  commandInfo.commandPool = d.pool;
  commandInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  commandInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(d.device, &commandInfo, &commands),
        "vkAllocateCommandBuffers");
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  if (appendVkFFTForward(plan, &commands) != 0) {
    std::printf("%s: VkFFTAppend failed\n", describe(c).c_str());
    return false;
  }
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

  // VkFFT may leave the fence signalled from its own uploads at planning.
  check(vkResetFences(d.device, 1, &d.fence), "vkResetFences");
  // One checked transform (its result read back), then timed ones.
  auto transform = [&] {
    auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands;
    auto start = std::chrono::steady_clock::now();
    check(vkQueueSubmit(d.queue, 1, &submit, d.fence), "vkQueueSubmit");
    check(vkWaitForFences(d.device, 1, &d.fence, VK_TRUE, UINT64_MAX),
          "vkWaitForFences");
    check(vkResetFences(d.device, 1, &d.fence), "vkResetFences");
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now() - start)
        .count();
  };
  upload();
  transform();
  std::vector<std::complex<double>> result(complexCount);
  for (uint64_t i = 0; i < complexCount; ++i) {
    if (c.doublePrecision)
      result[i] = {static_cast<double *>(mapped)[2 * i],
                   static_cast<double *>(mapped)[2 * i + 1]};
    else
      result[i] = {static_cast<float *>(mapped)[2 * i],
                   static_cast<float *>(mapped)[2 * i + 1]};
  }
  std::vector<double> times;
  for (int round = 0; round < 5; ++round)
    times.push_back(transform());
  std::sort(times.begin(), times.end());

  // FFTW in double, out of place, on the same input.
  int n[3];
  for (unsigned i = 0; i < c.dims; ++i)
    n[i] = static_cast<int>(c.size[c.dims - 1 - i]); // row-major: x last
  uint64_t perBatchIn = rowReals * y * z, perBatchOut = outX * y * z;
  std::vector<std::complex<double>> reference(complexCount);
  if (c.realInput) {
    std::vector<double> real(input);
    fftw_plan plan = fftw_plan_many_dft_r2c(
        c.dims, n, c.batch, real.data(), nullptr, 1, perBatchIn,
        reinterpret_cast<fftw_complex *>(reference.data()), nullptr, 1,
        perBatchOut, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  } else {
    std::vector<std::complex<double>> complexInput(perBatchOut * c.batch);
    for (size_t k = 0; k < complexInput.size(); ++k)
      complexInput[k] = {input[2 * k], input[2 * k + 1]};
    fftw_plan plan = fftw_plan_many_dft(
        c.dims, n, c.batch,
        reinterpret_cast<fftw_complex *>(complexInput.data()), nullptr, 1,
        perBatchOut, reinterpret_cast<fftw_complex *>(reference.data()),
        nullptr, 1, perBatchOut, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(plan);
    fftw_destroy_plan(plan);
  }
  double errorSquared = 0, normSquared = 0;
  for (uint64_t i = 0; i < complexCount; ++i) {
    errorSquared += std::norm(result[i] - reference[i]);
    normSquared += std::norm(reference[i]);
  }
  double error = std::sqrt(errorSquared / normSquared);
  double limit = c.doublePrecision ? 1e-12 : 1e-5;
  bool ok = error <= limit;
  std::printf("%-28s relative L2 error %.2e (limit %.0e) %s, %.3f ms\n",
              describe(c).c_str(), error, limit, ok ? "ok" : "FAILED",
              times[times.size() / 2]);

  destroyVkFFTPlan(plan);
  vkFreeCommandBuffers(d.device, d.pool, 1, &commands);
  vkUnmapMemory(d.device, memory);
  vkDestroyBuffer(d.device, buffer, nullptr);
  vkFreeMemory(d.device, memory, nullptr);
  return ok;
}

} // namespace

int main(int argc, char **argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  Device d = createDevice();
  std::printf("device: %s\n", d.properties.deviceName);
  std::vector<Case> cases = {
      {1, {1024, 1, 1}, 1, false, false}, {1, {105, 1, 1}, 3, false, false},
      {1, {143, 1, 1}, 2, false, false},  {1, {4096, 1, 1}, 1, false, true},
      {2, {64, 64, 1}, 1, false, false},  {2, {105, 60, 1}, 1, false, true},
      {3, {32, 16, 8}, 2, false, false},  {1, {1024, 1, 1}, 1, true, false},
      {2, {64, 48, 1}, 1, true, true},    {3, {16, 16, 16}, 1, true, false},
      {1, {13, 1, 1}, 4, true, false},
  };
  if (quick)
    cases.resize(3);
  unsigned failed = 0;
  for (const Case &c : cases)
    failed += !runCase(d, c);
  vkDestroyFence(d.device, d.fence, nullptr);
  vkDestroyCommandPool(d.device, d.pool, nullptr);
  vkDestroyDevice(d.device, nullptr);
  vkDestroyInstance(d.instance, nullptr);
  std::printf("%zu transforms, %u failed\n", cases.size(), failed);
  return failed ? 1 : 0;
}
