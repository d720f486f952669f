//===- ProcAddr.h - Entry points by name ------------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_PROCADDR_H
#define SPVBRIDGE_ICD_LIB_PROCADDR_H

#include <vulkan/vulkan.h>

namespace spvb::icd {

/// vkGetInstanceProcAddr: global commands with a null instance, any
/// implemented command with one; null for the rest.
PFN_vkVoidFunction getInstanceProcAddr(VkInstance instance, const char *name);
/// The physical-device-level commands only.
PFN_vkVoidFunction getPhysicalDeviceProcAddr(VkInstance instance,
                                             const char *name);
/// vkGetDeviceProcAddr: device-level commands only.
PFN_vkVoidFunction getDeviceProcAddr(VkDevice device, const char *name);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_PROCADDR_H
