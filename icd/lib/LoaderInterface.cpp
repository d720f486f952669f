//===- LoaderInterface.cpp - What the Khronos loader calls ----------------===//
//
// The three exported symbols of a version-5+ ICD (vulkan/vk_icd.h); every
// other entry point the loader finds through them, in the generated table.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "ProcAddr.h"

#include <vulkan/vk_icd.h>

using namespace spvb::icd;

/// Interface version 5 lets the loader pass the application's API version
/// through and call vk_icdGetPhysicalDeviceProcAddr; newer ones add nothing
/// a CPU device needs (no surfaces, no sorting of adapters).
static constexpr uint32_t kLoaderInterfaceVersion = 5;

extern "C" {

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t *pSupportedVersion) {
  if (*pSupportedVersion < 2)
    return VK_ERROR_INCOMPATIBLE_DRIVER;
  if (*pSupportedVersion > kLoaderInterfaceVersion)
    *pSupportedVersion = kLoaderInterfaceVersion;
  return VK_SUCCESS;
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char *pName) {
  return getInstanceProcAddr(instance, pName);
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char *pName) {
  return getPhysicalDeviceProcAddr(instance, pName);
}

} // extern "C"
