//===- PhysicalDevice.cpp - What the device reports -----------------------===//
//
// Only what the ICD implements is reported: the API version, features,
// extensions and format features rise as commands land. Limits come from the
// bridge's profile (SPVB_LIMITS, as spv-run --limits) where it has them and
// otherwise are lavapipe's, the device the profile models.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Enumerate.h"
#include "Extensions.h"
#include "Objects.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/xxhash.h"

#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace spvb;
using namespace spvb::icd;

/// Rises to 1.3 as the 1.2 and 1.3 commands land.
static constexpr uint32_t kApiVersion =
    VK_MAKE_API_VERSION(0, 1, 1, VK_HEADER_VERSION);

/// The UUID of this device and driver build: the pipeline cache's key.
static void getDeviceUuid(const PhysicalDevice &device,
                          uint8_t uuid[VK_UUID_SIZE]) {
  // Pipeline cache data is valid for one cache format, LLVM and limit
  // profile.
  std::string key = "spvbridge pipeline cache 1, LLVM " LLVM_VERSION_STRING
                    ", limits " +
                    device.environment.limits.name;
  uint64_t hash = llvm::xxh3_64bits(key);
  std::memcpy(uuid, "spvbridge", 8);
  std::memcpy(uuid + 8, &hash, sizeof(hash));
}

/// Three quarters of the host's memory, as lavapipe reports.
static VkDeviceSize getHeapSize() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  uint64_t bytes = pages > 0 && pageSize > 0
                       ? uint64_t(pages) * uint64_t(pageSize)
                       : uint64_t(1) << 30;
  return bytes / 4 * 3;
}

static VkPhysicalDeviceLimits getLimits(const DeviceLimits &profile) {
  VkPhysicalDeviceLimits limits = {};
  limits.maxImageDimension1D = 16384;
  limits.maxImageDimension2D = 16384;
  limits.maxImageDimension3D = 4096;
  limits.maxImageDimensionCube = 16384;
  limits.maxImageArrayLayers = 2048;
  limits.maxTexelBufferElements = 134217728;
  limits.maxUniformBufferRange = profile.maxUniformBufferRange;
  limits.maxStorageBufferRange = profile.maxStorageBufferRange;
  limits.maxPushConstantsSize = profile.maxPushConstantsSize;
  limits.maxMemoryAllocationCount = UINT32_MAX;
  limits.maxSamplerAllocationCount = 32768;
  limits.bufferImageGranularity = 64;
  limits.maxBoundDescriptorSets = profile.maxBoundDescriptorSets;
  limits.maxPerStageDescriptorSamplers = profile.maxPerStageDescriptorSamplers;
  limits.maxPerStageDescriptorUniformBuffers =
      profile.maxPerStageDescriptorUniformBuffers;
  limits.maxPerStageDescriptorStorageBuffers =
      profile.maxPerStageDescriptorStorageBuffers;
  limits.maxPerStageDescriptorSampledImages =
      profile.maxPerStageDescriptorSampledImages;
  limits.maxPerStageDescriptorStorageImages =
      profile.maxPerStageDescriptorStorageImages;
  limits.maxPerStageDescriptorInputAttachments = 8;
  limits.maxPerStageResources = profile.maxPerStageResources;
  limits.maxDescriptorSetSamplers = 32768;
  limits.maxDescriptorSetUniformBuffers = 256;
  limits.maxDescriptorSetUniformBuffersDynamic = 256;
  limits.maxDescriptorSetStorageBuffers = 256;
  limits.maxDescriptorSetStorageBuffersDynamic = 256;
  limits.maxDescriptorSetSampledImages = 256;
  limits.maxDescriptorSetStorageImages = 256;
  limits.maxDescriptorSetInputAttachments = 256;
  limits.maxVertexInputAttributes = profile.maxVertexInputAttributes;
  limits.maxVertexInputBindings = 32;
  limits.maxVertexInputAttributeOffset = profile.maxVertexInputAttributeOffset;
  limits.maxVertexInputBindingStride = profile.maxVertexInputBindingStride;
  limits.maxVertexOutputComponents = 128;
  limits.maxFragmentInputComponents = 128;
  limits.maxFragmentOutputAttachments = 8;
  limits.maxFragmentCombinedOutputResources = 104;
  limits.maxComputeSharedMemorySize = profile.maxComputeSharedMemorySize;
  for (int i = 0; i < 3; ++i) {
    limits.maxComputeWorkGroupCount[i] = profile.maxComputeWorkGroupCount[i];
    limits.maxComputeWorkGroupSize[i] = profile.maxComputeWorkGroupSize[i];
  }
  limits.maxComputeWorkGroupInvocations =
      profile.maxComputeWorkGroupInvocations;
  limits.subPixelPrecisionBits = 8;
  limits.subTexelPrecisionBits = 8;
  limits.mipmapPrecisionBits = 4;
  limits.maxDrawIndexedIndexValue = UINT32_MAX;
  limits.maxDrawIndirectCount = UINT32_MAX;
  limits.maxSamplerLodBias = 16;
  limits.maxSamplerAnisotropy = 1;
  limits.maxViewports = 1;
  limits.maxViewportDimensions[0] = profile.maxFramebufferWidth;
  limits.maxViewportDimensions[1] = profile.maxFramebufferHeight;
  limits.viewportBoundsRange[0] = -32768;
  limits.viewportBoundsRange[1] = 32768;
  limits.minMemoryMapAlignment = 64;
  limits.minTexelBufferOffsetAlignment = 16;
  limits.minUniformBufferOffsetAlignment = 16;
  limits.minStorageBufferOffsetAlignment = 16;
  limits.minTexelOffset = -32;
  limits.maxTexelOffset = 31;
  limits.minTexelGatherOffset = -32;
  limits.maxTexelGatherOffset = 31;
  limits.minInterpolationOffset = -2;
  limits.maxInterpolationOffset = 2;
  limits.subPixelInterpolationOffsetBits = 8;
  limits.maxFramebufferWidth = profile.maxFramebufferWidth;
  limits.maxFramebufferHeight = profile.maxFramebufferHeight;
  limits.maxFramebufferLayers = 2048;
  VkSampleCountFlags samples = VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  limits.framebufferColorSampleCounts = samples;
  limits.framebufferDepthSampleCounts = samples;
  limits.framebufferStencilSampleCounts = samples;
  limits.framebufferNoAttachmentsSampleCounts = samples;
  limits.maxColorAttachments = profile.maxColorAttachments;
  limits.sampledImageColorSampleCounts = samples;
  limits.sampledImageIntegerSampleCounts = samples;
  limits.sampledImageDepthSampleCounts = samples;
  limits.sampledImageStencilSampleCounts = samples;
  limits.storageImageSampleCounts = VK_SAMPLE_COUNT_1_BIT;
  limits.maxSampleMaskWords = 1;
  // Timestamps count nanoseconds of the steady clock.
  limits.timestampComputeAndGraphics = VK_TRUE;
  limits.timestampPeriod = 1.0f;
  limits.maxClipDistances = 8;
  limits.maxCullDistances = 8;
  limits.maxCombinedClipAndCullDistances = 8;
  limits.discreteQueuePriorities = 2;
  limits.pointSizeRange[0] = 1.0f;
  limits.pointSizeRange[1] = 1.0f;
  limits.lineWidthRange[0] = 1.0f;
  limits.lineWidthRange[1] = 1.0f;
  limits.pointSizeGranularity = 0.0f;
  limits.lineWidthGranularity = 0.0f;
  limits.strictLines = VK_FALSE;
  limits.standardSampleLocations = VK_TRUE;
  limits.optimalBufferCopyOffsetAlignment = 16;
  limits.optimalBufferCopyRowPitchAlignment = 16;
  limits.nonCoherentAtomSize = 64;
  return limits;
}

extern "C" {

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceProperties(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties *pProperties) {
  const PhysicalDevice *device = fromHandle<PhysicalDevice>(physicalDevice);
  std::memset(pProperties, 0, sizeof(*pProperties));
  pProperties->apiVersion = kApiVersion;
  pProperties->driverVersion = VK_MAKE_VERSION(0, 1, 0);
  pProperties->deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
  std::snprintf(pProperties->deviceName, sizeof(pProperties->deviceName),
                "spvbridge (LLVM %d, %s limits)", LLVM_VERSION_MAJOR,
                device->environment.limits.name.c_str());
  getDeviceUuid(*device, pProperties->pipelineCacheUUID);
  pProperties->limits = getLimits(device->environment.limits);
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceProperties2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2 *pProperties) {
  const PhysicalDevice *device = fromHandle<PhysicalDevice>(physicalDevice);
  spvb_GetPhysicalDeviceProperties(physicalDevice, &pProperties->properties);
  for (auto *next = static_cast<VkBaseOutStructure *>(pProperties->pNext); next;
       next = next->pNext) {
    switch (next->sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: {
      auto *subgroup =
          reinterpret_cast<VkPhysicalDeviceSubgroupProperties *>(next);
      subgroup->subgroupSize = device->environment.subgroupSize;
      subgroup->supportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
      subgroup->supportedOperations =
          VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
          VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
          VK_SUBGROUP_FEATURE_SHUFFLE_BIT |
          VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
          VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;
      subgroup->quadOperationsInAllStages = VK_FALSE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES: {
      auto *id = reinterpret_cast<VkPhysicalDeviceIDProperties *>(next);
      getDeviceUuid(*device, id->deviceUUID);
      getDeviceUuid(*device, id->driverUUID);
      std::memset(id->deviceLUID, 0, sizeof(id->deviceLUID));
      id->deviceNodeMask = 0;
      id->deviceLUIDValid = VK_FALSE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES: {
      auto *maintenance3 =
          reinterpret_cast<VkPhysicalDeviceMaintenance3Properties *>(next);
      maintenance3->maxPerSetDescriptors = 1024;
      maintenance3->maxMemoryAllocationSize = getHeapSize();
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES: {
      auto *multiview =
          reinterpret_cast<VkPhysicalDeviceMultiviewProperties *>(next);
      multiview->maxMultiviewViewCount = 0;
      multiview->maxMultiviewInstanceIndex = 0;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES:
      reinterpret_cast<VkPhysicalDevicePointClippingProperties *>(next)
          ->pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES:
      reinterpret_cast<VkPhysicalDeviceProtectedMemoryProperties *>(next)
          ->protectedNoFault = VK_FALSE;
      break;
    default:
      break;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFeatures(
    VkPhysicalDevice, VkPhysicalDeviceFeatures *pFeatures) {
  std::memset(pFeatures, 0, sizeof(*pFeatures));
  // What the compiler and runtime do today (spv-run runs these).
  pFeatures->robustBufferAccess = VK_TRUE;
  pFeatures->shaderFloat64 = VK_TRUE;
  pFeatures->shaderInt64 = VK_TRUE;
  pFeatures->shaderInt16 = VK_TRUE;
  pFeatures->shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
  pFeatures->shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFeatures2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2 *pFeatures) {
  spvb_GetPhysicalDeviceFeatures(physicalDevice, &pFeatures->features);
  for (auto *next = static_cast<VkBaseOutStructure *>(pFeatures->pNext); next;
       next = next->pNext) {
    switch (next->sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES: {
      auto *storage16 =
          reinterpret_cast<VkPhysicalDevice16BitStorageFeatures *>(next);
      storage16->storageBuffer16BitAccess = VK_TRUE;
      storage16->uniformAndStorageBuffer16BitAccess = VK_TRUE;
      storage16->storagePushConstant16 = VK_TRUE;
      storage16->storageInputOutput16 = VK_FALSE;
      break;
    }
    // Not reported yet.
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES: {
      auto *multiview =
          reinterpret_cast<VkPhysicalDeviceMultiviewFeatures *>(next);
      multiview->multiview = VK_FALSE;
      multiview->multiviewGeometryShader = VK_FALSE;
      multiview->multiviewTessellationShader = VK_FALSE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES: {
      auto *pointers =
          reinterpret_cast<VkPhysicalDeviceVariablePointersFeatures *>(next);
      pointers->variablePointersStorageBuffer = VK_FALSE;
      pointers->variablePointers = VK_FALSE;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
      reinterpret_cast<VkPhysicalDeviceProtectedMemoryFeatures *>(next)
          ->protectedMemory = VK_FALSE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
      reinterpret_cast<VkPhysicalDeviceSamplerYcbcrConversionFeatures *>(next)
          ->samplerYcbcrConversion = VK_FALSE;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
      reinterpret_cast<VkPhysicalDeviceShaderDrawParametersFeatures *>(next)
          ->shaderDrawParameters = VK_FALSE;
      break;
    default:
      break;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *pProperties) {
  std::memset(pProperties, 0, sizeof(*pProperties));
  // One heap, host memory: every type flag a unified-memory device has.
  pProperties->memoryHeapCount = 1;
  pProperties->memoryHeaps[0].size = getHeapSize();
  pProperties->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
  pProperties->memoryTypeCount = 1;
  pProperties->memoryTypes[0].heapIndex = 0;
  pProperties->memoryTypes[0].propertyFlags =
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
      VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceMemoryProperties2(
    VkPhysicalDevice physicalDevice,
    VkPhysicalDeviceMemoryProperties2 *pProperties) {
  spvb_GetPhysicalDeviceMemoryProperties(physicalDevice,
                                         &pProperties->memoryProperties);
}

/// One family, compute and transfer; graphics joins it with draws.
static VkQueueFamilyProperties getQueueFamily() {
  VkQueueFamilyProperties family = {};
  family.queueFlags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  family.queueCount = 1;
  family.timestampValidBits = 64;
  family.minImageTransferGranularity = {1, 1, 1};
  return family;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceQueueFamilyProperties(
    VkPhysicalDevice, uint32_t *pQueueFamilyPropertyCount,
    VkQueueFamilyProperties *pQueueFamilyProperties) {
  enumerate(pQueueFamilyPropertyCount, pQueueFamilyProperties, 1,
            [](VkQueueFamilyProperties &family, uint32_t) {
              family = getQueueFamily();
            });
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceQueueFamilyProperties2(
    VkPhysicalDevice, uint32_t *pQueueFamilyPropertyCount,
    VkQueueFamilyProperties2 *pQueueFamilyProperties) {
  enumerate(pQueueFamilyPropertyCount, pQueueFamilyProperties, 1,
            [](VkQueueFamilyProperties2 &family, uint32_t) {
              family.queueFamilyProperties = getQueueFamily();
            });
}

/// No format features until buffer views and images are implemented.
VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFormatProperties(
    VkPhysicalDevice, VkFormat, VkFormatProperties *pFormatProperties) {
  std::memset(pFormatProperties, 0, sizeof(*pFormatProperties));
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFormatProperties2(
    VkPhysicalDevice physicalDevice, VkFormat format,
    VkFormatProperties2 *pFormatProperties) {
  spvb_GetPhysicalDeviceFormatProperties(physicalDevice, format,
                                         &pFormatProperties->formatProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice, VkFormat, VkImageType, VkImageTiling, VkImageUsageFlags,
    VkImageCreateFlags, VkImageFormatProperties *pImageFormatProperties) {
  std::memset(pImageFormatProperties, 0, sizeof(*pImageFormatProperties));
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceImageFormatInfo2 *,
    VkImageFormatProperties2 *pImageFormatProperties) {
  std::memset(&pImageFormatProperties->imageFormatProperties, 0,
              sizeof(pImageFormatProperties->imageFormatProperties));
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice, VkFormat, VkImageType, VkSampleCountFlagBits,
    VkImageUsageFlags, VkImageTiling, uint32_t *pPropertyCount,
    VkSparseImageFormatProperties *) {
  *pPropertyCount = 0;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2 *,
    uint32_t *pPropertyCount, VkSparseImageFormatProperties2 *) {
  *pPropertyCount = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumerateDeviceExtensionProperties(
    VkPhysicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
    VkExtensionProperties *pProperties) {
  if (pLayerName)
    return VK_ERROR_LAYER_NOT_PRESENT;
  return enumerateExtensions(/*instance=*/false, pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumerateDeviceLayerProperties(
    VkPhysicalDevice, uint32_t *pPropertyCount, VkLayerProperties *) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

} // extern "C"
