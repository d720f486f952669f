//===- PhysicalDevice.cpp - What the device reports -----------------------===//
//
// Only what the ICD implements is reported: the API version, features,
// extensions and format features rise as commands land. Limits come from the
// bridge's profile (SPVB_LIMITS, as spv-run --limits) where it has them and
// otherwise are lavapipe's, the device the profile models.
//
//===----------------------------------------------------------------------===//
#include "Descriptors.h"
#include "EntryPoints.h"
#include "Enumerate.h"
#include "Extensions.h"
#include "Memory.h"
#include "Objects.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace spvb;
using namespace spvb::icd;

/// Vulkan 1.3 for compute: the graphics commands and features come with
/// the graphics queue (Features.cpp).
static constexpr uint32_t kApiVersion =
    VK_MAKE_API_VERSION(0, 1, 3, VK_HEADER_VERSION);

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
  // Tessellation and geometry: what Vulkan requires of a device with the
  // features, which the runtime's stage records hold (kMaxPatchVertices).
  limits.maxTessellationGenerationLevel = 64;
  limits.maxTessellationPatchSize = 32;
  limits.maxTessellationControlPerVertexInputComponents = 64;
  limits.maxTessellationControlPerVertexOutputComponents = 64;
  limits.maxTessellationControlPerPatchOutputComponents = 120;
  limits.maxTessellationControlTotalOutputComponents = 2048;
  limits.maxTessellationEvaluationInputComponents = 64;
  limits.maxTessellationEvaluationOutputComponents = 64;
  limits.maxGeometryShaderInvocations = 32;
  limits.maxGeometryInputComponents = 64;
  limits.maxGeometryOutputComponents = 64;
  limits.maxGeometryOutputVertices = 256;
  limits.maxGeometryTotalOutputComponents = 1024;
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
  // The runtime rasterizes one sample or four at the standard locations.
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

static constexpr VkSubgroupFeatureFlags kSubgroupOperations =
    VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
    VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
    VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
    VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;

static VkPhysicalDeviceVulkan11Properties
getVulkan11Properties(const PhysicalDevice &device) {
  VkPhysicalDeviceVulkan11Properties properties = {};
  getDeviceUuid(device, properties.deviceUUID);
  getDeviceUuid(device, properties.driverUUID);
  properties.subgroupSize = device.environment.subgroupSize;
  properties.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
  properties.subgroupSupportedOperations = kSubgroupOperations;
  properties.pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
  properties.maxPerSetDescriptors = 1024;
  properties.maxMemoryAllocationSize = getMemoryHeapSize();
  return properties;
}

static VkPhysicalDeviceVulkan12Properties getVulkan12Properties() {
  VkPhysicalDeviceVulkan12Properties properties = {};
  // No driver ID is registered for spvbridge in vk.xml.
  properties.driverID = VkDriverId(0);
  std::snprintf(properties.driverName, sizeof(properties.driverName),
                "spvbridge");
  std::snprintf(properties.driverInfo, sizeof(properties.driverInfo),
                "LLVM " LLVM_VERSION_STRING);
  // Never run against the conformance suite.
  properties.conformanceVersion = {0, 0, 0, 0};
  // The host's IEEE arithmetic: denormals kept, round to nearest even.
  properties.denormBehaviorIndependence =
      VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  properties.roundingModeIndependence =
      VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  properties.shaderDenormPreserveFloat16 = VK_TRUE;
  properties.shaderDenormPreserveFloat32 = VK_TRUE;
  properties.shaderDenormPreserveFloat64 = VK_TRUE;
  // No fast-math flags: signed zeros, infinities and NaNs survive.
  properties.shaderSignedZeroInfNanPreserveFloat16 = VK_TRUE;
  properties.shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
  properties.shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
  properties.shaderRoundingModeRTEFloat32 = VK_TRUE;
  properties.shaderRoundingModeRTEFloat64 = VK_TRUE;
  constexpr uint32_t kManyDescriptors = kMaxUpdateAfterBindDescriptors;
  properties.maxUpdateAfterBindDescriptorsInAllPools = kManyDescriptors;
  properties.maxPerStageDescriptorUpdateAfterBindUniformBuffers =
      kManyDescriptors;
  properties.maxPerStageDescriptorUpdateAfterBindStorageBuffers =
      kManyDescriptors;
  properties.maxPerStageUpdateAfterBindResources = kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindUniformBuffers = kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = 256;
  properties.maxDescriptorSetUpdateAfterBindStorageBuffers = kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = 256;
  properties.maxPerStageDescriptorUpdateAfterBindSamplers = kManyDescriptors;
  properties.maxPerStageDescriptorUpdateAfterBindSampledImages =
      kManyDescriptors;
  properties.maxPerStageDescriptorUpdateAfterBindStorageImages =
      kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindSamplers = kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindSampledImages = kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindStorageImages = kManyDescriptors;
  properties.maxPerStageDescriptorUpdateAfterBindInputAttachments =
      kManyDescriptors;
  properties.maxDescriptorSetUpdateAfterBindInputAttachments = kManyDescriptors;
  properties.maxTimelineSemaphoreValueDifference = UINT64_MAX;
  // A multisampled depth/stencil attachment resolves to its sample 0.
  properties.supportedDepthResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  properties.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  properties.independentResolveNone = VK_TRUE;
  properties.independentResolve = VK_TRUE;
  properties.framebufferIntegerColorSampleCounts =
      VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT;
  return properties;
}

static VkPhysicalDeviceVulkan13Properties
getVulkan13Properties(const PhysicalDevice &device) {
  VkPhysicalDeviceVulkan13Properties properties = {};
  // Any power of two the runtime runs (SPVB_SUBGROUP_SIZE's range).
  properties.minSubgroupSize = 1;
  properties.maxSubgroupSize = runtime::kMaxSubgroupSize;
  properties.maxComputeWorkgroupSubgroups =
      device.environment.limits.maxComputeWorkGroupInvocations;
  properties.requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT;
  // Vulkan's minimums for inline uniform blocks.
  properties.maxInlineUniformBlockSize = 256;
  properties.maxPerStageDescriptorInlineUniformBlocks = 4;
  properties.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 4;
  properties.maxDescriptorSetInlineUniformBlocks = 4;
  properties.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = 4;
  properties.maxInlineUniformTotalSize = 256;
  properties.storageTexelBufferOffsetAlignmentBytes = 16;
  properties.uniformTexelBufferOffsetAlignmentBytes = 16;
  properties.maxBufferSize = getMemoryHeapSize();
  return properties;
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
  VkPhysicalDeviceVulkan11Properties v11 = getVulkan11Properties(*device);
  VkPhysicalDeviceVulkan12Properties v12 = getVulkan12Properties();
  VkPhysicalDeviceVulkan13Properties v13 = getVulkan13Properties(*device);
  // An extension structure's members are a run of a core structure's.
#define COPY_RUN(STRUCT, SOURCE, FIRST, LAST)                                  \
  std::memcpy(&reinterpret_cast<STRUCT *>(next)->FIRST, &SOURCE.FIRST,         \
              offsetof(STRUCT, LAST) + sizeof(STRUCT::LAST) -                  \
                  offsetof(STRUCT, FIRST))
#define COPY_WHOLE(STRUCT, SOURCE)                                             \
  std::memcpy(&reinterpret_cast<STRUCT *>(next)->pNext + 1, &SOURCE.pNext + 1, \
              sizeof(STRUCT) - sizeof(VkBaseOutStructure))
  for (auto *next = static_cast<VkBaseOutStructure *>(pProperties->pNext); next;
       next = next->pNext) {
    switch (next->sType) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES:
      COPY_WHOLE(VkPhysicalDeviceVulkan11Properties, v11);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES:
      COPY_WHOLE(VkPhysicalDeviceVulkan12Properties, v12);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES:
      COPY_WHOLE(VkPhysicalDeviceVulkan13Properties, v13);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceIDProperties, v11, deviceUUID, deviceLUIDValid);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES: {
      auto *subgroup =
          reinterpret_cast<VkPhysicalDeviceSubgroupProperties *>(next);
      subgroup->subgroupSize = v11.subgroupSize;
      subgroup->supportedStages = v11.subgroupSupportedStages;
      subgroup->supportedOperations = v11.subgroupSupportedOperations;
      subgroup->quadOperationsInAllStages =
          v11.subgroupQuadOperationsInAllStages;
      break;
    }
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES:
      COPY_RUN(VkPhysicalDevicePointClippingProperties, v11,
               pointClippingBehavior, pointClippingBehavior);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceMultiviewProperties, v11, maxMultiviewViewCount,
               maxMultiviewInstanceIndex);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceProtectedMemoryProperties, v11, protectedNoFault,
               protectedNoFault);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceMaintenance3Properties, v11,
               maxPerSetDescriptors, maxMemoryAllocationSize);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceDriverProperties, v12, driverID,
               conformanceVersion);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceFloatControlsProperties, v12,
               denormBehaviorIndependence, shaderRoundingModeRTZFloat64);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceDescriptorIndexingProperties, v12,
               maxUpdateAfterBindDescriptorsInAllPools,
               maxDescriptorSetUpdateAfterBindInputAttachments);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceDepthStencilResolveProperties, v12,
               supportedDepthResolveModes, independentResolve);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceSamplerFilterMinmaxProperties, v12,
               filterMinmaxSingleComponentFormats,
               filterMinmaxImageComponentMapping);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceTimelineSemaphoreProperties, v12,
               maxTimelineSemaphoreValueDifference,
               maxTimelineSemaphoreValueDifference);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceSubgroupSizeControlProperties, v13,
               minSubgroupSize, requiredSubgroupSizeStages);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceInlineUniformBlockProperties, v13,
               maxInlineUniformBlockSize,
               maxDescriptorSetUpdateAfterBindInlineUniformBlocks);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES:
      COPY_RUN(
          VkPhysicalDeviceShaderIntegerDotProductProperties, v13,
          integerDotProduct8BitUnsignedAccelerated,
          integerDotProductAccumulatingSaturating64BitMixedSignednessAccelerated);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceTexelBufferAlignmentProperties, v13,
               storageTexelBufferOffsetAlignmentBytes,
               uniformTexelBufferOffsetSingleTexelAlignment);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES:
      COPY_RUN(VkPhysicalDeviceMaintenance4Properties, v13, maxBufferSize,
               maxBufferSize);
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR:
      reinterpret_cast<VkPhysicalDevicePushDescriptorPropertiesKHR *>(next)
          ->maxPushDescriptors = 32;
      break;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT: {
      auto *robustness =
          reinterpret_cast<VkPhysicalDeviceRobustness2PropertiesEXT *>(next);
      // The robust mode bounds every access by the descriptor's exact range.
      robustness->robustStorageBufferAccessSizeAlignment = 1;
      robustness->robustUniformBufferAccessSizeAlignment = 1;
      break;
    }
    default:
      break;
    }
  }
#undef COPY_RUN
#undef COPY_WHOLE
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice, VkPhysicalDeviceMemoryProperties *pProperties) {
  std::memset(pProperties, 0, sizeof(*pProperties));
  // One heap, host memory: every type flag a unified-memory device has.
  pProperties->memoryHeapCount = 1;
  pProperties->memoryHeaps[0].size = getMemoryHeapSize();
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

/// One family that does everything.
static VkQueueFamilyProperties getQueueFamily() {
  VkQueueFamilyProperties family = {};
  family.queueFlags =
      VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
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

/// No tool (a layer that reports itself) is part of the driver.
VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceToolProperties(
    VkPhysicalDevice, uint32_t *pToolCount, VkPhysicalDeviceToolProperties *) {
  *pToolCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EnumerateDeviceLayerProperties(
    VkPhysicalDevice, uint32_t *pPropertyCount, VkLayerProperties *) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

} // extern "C"
