//===- Device.cpp - vkCreateDevice and its queues -------------------------===//
#include "DebugUtils.h"
#include "EntryPoints.h"
#include "Extensions.h"
#include "Features.h"
#include "Objects.h"
#include "ProcAddr.h"
#include "Queue.h"

#include "spvbridge/bridge/KernelCache.h"

#include "llvm/Support/Error.h"

#include <cstdio>
#include <cstdlib>
#include <new>

using namespace spvb;
using namespace spvb::icd;

void Quarantine::retire(DestructibleObject *object) {
  if (!object)
    return;
  object->destroyed = true;
  std::unique_ptr<DestructibleObject> oldest;
  std::lock_guard<std::mutex> lock(mutex);
  objects.emplace_back(object);
  if (objects.size() > kKept) {
    oldest = std::move(objects.front());
    objects.pop_front();
  }
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDevice(
    VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkDevice *pDevice) {
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i)
    if (!isExtensionSupported(pCreateInfo->ppEnabledExtensionNames[i],
                              /*instance=*/false))
      return VK_ERROR_EXTENSION_NOT_PRESENT;
  // Every requested feature must be one we report.
  if (std::string missing =
          findUnsupportedFeature(physicalDevice, *pCreateInfo);
      !missing.empty()) {
    std::fprintf(stderr,
                 "error: vkCreateDevice: the application enables %s, which "
                 "the device does not report\n",
                 missing.c_str());
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const Environment &environment =
      fromHandle<PhysicalDevice>(physicalDevice)->environment;
  // A debug build registers its code with the debugger's JIT interface.
  llvm::Expected<std::unique_ptr<JitCompiler>> compiler =
      JitCompiler::create(environment.compileOptions.debug);
  if (!compiler) {
    std::fprintf(stderr, "%s\n", llvm::toString(compiler.takeError()).c_str());
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  // Pipelines persist in the kernel cache (PipelineCache.cpp), as spv-run
  // uses it: an explicit SPVBRIDGE_KERNEL_CACHE must work, the default
  // place is used when it does, "off" and debug builds use none.
  std::string cacheDirectory = KernelDiskCache::getDefaultDirectory();
  bool explicitCache = std::getenv("SPVBRIDGE_KERNEL_CACHE") != nullptr;
  if (!environment.compileOptions.debug && !cacheDirectory.empty() &&
      cacheDirectory != "off") {
    llvm::Expected<std::unique_ptr<KernelDiskCache>> cache =
        KernelDiskCache::open(
            cacheDirectory,
            explicitCache ? "SPVBRIDGE_KERNEL_CACHE=" + cacheDirectory : "");
    if (cache) {
      (*compiler)->setDiskCache(std::move(*cache));
    } else if (explicitCache) {
      std::fprintf(stderr, "%s\n", llvm::toString(cache.takeError()).c_str());
      return VK_ERROR_INITIALIZATION_FAILED;
    } else {
      llvm::consumeError(cache.takeError());
    }
  }
  auto *device = new (std::nothrow) Device();
  if (!device)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  device->physicalDevice = fromHandle<PhysicalDevice>(physicalDevice);
  device->compiler = std::move(*compiler);
  // SPVB_DEBUG_INVOCATION and SPVB_DEBUG_PIXEL: each pipeline also gets a
  // build for the debugger, which that invocation or pixel runs through.
  if (environment.needsDebugBuilds()) {
    llvm::Expected<std::unique_ptr<JitCompiler>> debugCompiler =
        JitCompiler::create(/*debuggable=*/true);
    if (!debugCompiler) {
      std::fprintf(stderr, "%s\n",
                   llvm::toString(debugCompiler.takeError()).c_str());
      delete device;
      return VK_ERROR_INITIALIZATION_FAILED;
    }
    device->debugCompiler = std::move(*debugCompiler);
  }
  device->compileOptions = environment.compileOptions;
  // Modules are validated for the version the device reports.
  device->compileOptions.source.targetEnv = "vulkan1.3";
  device->compileOptions.robust = enablesRobustAccess(*pCreateInfo);
  device->watchdog = std::make_unique<runtime::Watchdog>();
  device->launcher = std::make_unique<runtime::Launcher>(
      environment.threads, environment.subgroupSize);
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo &info = pCreateInfo->pQueueCreateInfos[i];
    for (uint32_t q = 0; q < info.queueCount; ++q) {
      auto queue = std::make_unique<Queue>();
      queue->device = device;
      queue->family = info.queueFamilyIndex;
      queue->index = q;
      device->queues.push_back(std::move(queue));
    }
  }
  // A shader's debugPrintfEXT lines go to stderr and the messengers.
  Instance *instance = device->physicalDevice->instance;
  runtime::setPrintfHandler([instance](const std::string &line) {
    reportShaderPrintf(instance, line);
  });
  startQueueThread(*device);
  *pDevice = toHandle<VkDevice>(device);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyDevice(VkDevice device,
                                              const VkAllocationCallbacks *) {
  if (Device *object = fromHandle<Device>(device)) {
    stopQueueThread(*object);
    runtime::setPrintfHandler({});
    delete object;
  }
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceQueue(VkDevice device,
                                               uint32_t queueFamilyIndex,
                                               uint32_t queueIndex,
                                               VkQueue *pQueue) {
  *pQueue = VK_NULL_HANDLE;
  for (const std::unique_ptr<Queue> &queue : fromHandle<Device>(device)->queues)
    if (queue->family == queueFamilyIndex && queue->index == queueIndex)
      *pQueue = toHandle<VkQueue>(queue.get());
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceQueue2(
    VkDevice device, const VkDeviceQueueInfo2 *pQueueInfo, VkQueue *pQueue) {
  spvb_GetDeviceQueue(device, pQueueInfo->queueFamilyIndex,
                      pQueueInfo->queueIndex, pQueue);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
spvb_GetDeviceProcAddr(VkDevice device, const char *pName) {
  return getDeviceProcAddr(device, pName);
}

} // extern "C"
