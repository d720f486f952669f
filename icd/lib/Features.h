//===- Features.h - The features the device reports -------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_FEATURES_H
#define SPVBRIDGE_ICD_LIB_FEATURES_H

#include <vulkan/vulkan.h>

#include <string>

namespace spvb::icd {

/// The first feature \p createInfo enables that the device lacks, named by
/// its structure and member number, or "" when it has them all.
std::string findUnsupportedFeature(VkPhysicalDevice physicalDevice,
                                   const VkDeviceCreateInfo &createInfo);

/// Whether \p createInfo enables robustBufferAccess or robustBufferAccess2:
/// then every pipeline bounds its buffer accesses.
bool enablesRobustAccess(const VkDeviceCreateInfo &createInfo);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_FEATURES_H
