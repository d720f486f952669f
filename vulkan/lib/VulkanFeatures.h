//===- VulkanFeatures.h - The device features a shader needs ----*- C++ -*-===//
//
// A SPIR-V capability whose Vulkan feature the device does not report makes
// the pipeline invalid usage (drivers then compile it anyway and compute
// something else: lavapipe reads wrong texels through runtime-sized image
// arrays it does not support). spv-run's Vulkan backend refuses such a
// module with the capability and the missing feature named.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_VULKAN_VULKANFEATURES_H
#define SPVBRIDGE_TOOLS_VULKAN_VULKANFEATURES_H

#include "llvm/ADT/ArrayRef.h"

#include <vulkan/vulkan.h>

#include <optional>
#include <string>

namespace spvb::vulkan {

/// The features the device reports (the 1.1 to 1.3 structs zeroed when
/// the device is older).
struct DeviceFeatures {
  const VkPhysicalDeviceFeatures &core;
  const VkPhysicalDeviceVulkan11Features &v11;
  const VkPhysicalDeviceVulkan12Features &v12;
  const VkPhysicalDeviceVulkan13Features &v13;
};

/// "capability RuntimeDescriptorArray needs runtimeDescriptorArray" for the
/// first OpCapability of \p words the device cannot serve, or none.
std::optional<std::string> findMissingFeature(llvm::ArrayRef<uint32_t> words,
                                              const DeviceFeatures &features);

/// Whether a tessellation or geometry shader of the module writes a
/// PointSize builtin (as far as a store or an access chain through its
/// member shows): shaderTessellationAndGeometryPointSize is enabled only
/// then, since without it such a shader must not write it, and with it one
/// drawing points must (VUID-VkGraphicsPipelineCreateInfo-Geometry-07725).
bool writesStagePointSize(llvm::ArrayRef<uint32_t> words);

} // namespace spvb::vulkan

#endif // SPVBRIDGE_TOOLS_VULKAN_VULKANFEATURES_H
