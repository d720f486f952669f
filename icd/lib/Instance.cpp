//===- Instance.cpp - vkCreateInstance and the global commands ------------===//
#include "EntryPoints.h"
#include "Enumerate.h"
#include "Environment.h"
#include "Extensions.h"
#include "Objects.h"
#include "ProcAddr.h"

#include <cstdio>
#include <cstdlib>
#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_EnumerateInstanceVersion(uint32_t *pApiVersion) {
  *pApiVersion = VK_HEADER_VERSION_COMPLETE;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumerateInstanceExtensionProperties(
    const char *pLayerName, uint32_t *pPropertyCount,
    VkExtensionProperties *pProperties) {
  if (pLayerName)
    return VK_ERROR_LAYER_NOT_PRESENT;
  return enumerateExtensions(/*instance=*/true, pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumerateInstanceLayerProperties(
    uint32_t *pPropertyCount, VkLayerProperties *) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                    const VkAllocationCallbacks *, VkInstance *pInstance) {
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i)
    if (!isExtensionSupported(pCreateInfo->ppEnabledExtensionNames[i],
                              /*instance=*/true))
      return VK_ERROR_EXTENSION_NOT_PRESENT;
  llvm::Expected<Environment> environment = readEnvironment();
  if (!environment) {
    std::fprintf(stderr, "%s\n",
                 llvm::toString(environment.takeError()).c_str());
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  auto *instance = new (std::nothrow) Instance();
  if (!instance)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  instance->physicalDevice = std::make_unique<PhysicalDevice>();
  instance->physicalDevice->instance = instance;
  instance->physicalDevice->environment = std::move(*environment);
  *pInstance = toHandle<VkInstance>(instance);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyInstance(VkInstance instance,
                                                const VkAllocationCallbacks *) {
  delete fromHandle<Instance>(instance);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumeratePhysicalDevices(
    VkInstance instance, uint32_t *pPhysicalDeviceCount,
    VkPhysicalDevice *pPhysicalDevices) {
  PhysicalDevice *device = fromHandle<Instance>(instance)->physicalDevice.get();
  return enumerate(pPhysicalDeviceCount, pPhysicalDevices, 1,
                   [&](VkPhysicalDevice &out, uint32_t) {
                     out = toHandle<VkPhysicalDevice>(device);
                   });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumeratePhysicalDeviceGroups(
    VkInstance instance, uint32_t *pPhysicalDeviceGroupCount,
    VkPhysicalDeviceGroupProperties *pGroups) {
  PhysicalDevice *device = fromHandle<Instance>(instance)->physicalDevice.get();
  return enumerate(pPhysicalDeviceGroupCount, pGroups, 1,
                   [&](VkPhysicalDeviceGroupProperties &group, uint32_t) {
                     group.physicalDeviceCount = 1;
                     group.physicalDevices[0] =
                         toHandle<VkPhysicalDevice>(device);
                     group.subsetAllocation = VK_FALSE;
                   });
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
spvb_GetInstanceProcAddr(VkInstance instance, const char *pName) {
  return getInstanceProcAddr(instance, pName);
}

} // extern "C"
