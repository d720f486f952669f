//===- Features.cpp - The features the device reports ---------------------===//
//
// What the compiler and runtime do, for compute and for the graphics
// queue's draws (cpu_runtime's graphics pipeline). The Vulkan 1.1/1.2/1.3
// structures are the one source; the extension structures copy their
// members.
//
//===----------------------------------------------------------------------===//
#include "Features.h"

#include "EntryPoints.h"

#include <cstring>
#include <vector>

using namespace spvb::icd;

static VkPhysicalDeviceFeatures getCoreFeatures() {
  VkPhysicalDeviceFeatures features = {};
  // Out-of-bounds accesses read zero and drop writes when the application
  // enables it (the compiler's robust mode).
  features.robustBufferAccess = VK_TRUE;
  features.shaderFloat64 = VK_TRUE;
  features.shaderInt64 = VK_TRUE;
  features.shaderInt16 = VK_TRUE;
  features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
  features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
  features.shaderSampledImageArrayDynamicIndexing = VK_TRUE;
  features.shaderStorageImageArrayDynamicIndexing = VK_TRUE;
  // Image descriptors carry their format and kind (kernel_abi.h): every
  // format, and storage images without one in the shader.
  features.imageCubeArray = VK_TRUE;
  features.shaderImageGatherExtended = VK_TRUE;
  features.shaderStorageImageExtendedFormats = VK_TRUE;
  features.shaderStorageImageReadWithoutFormat = VK_TRUE;
  features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
  features.shaderResourceMinLod = VK_TRUE;
  features.pipelineStatisticsQuery = VK_TRUE;
  features.inheritedQueries = VK_TRUE;
  features.occlusionQueryPrecise = VK_TRUE;
  // The graphics pipeline's stages and fixed functions (docs/graphics.md).
  features.geometryShader = VK_TRUE;
  features.tessellationShader = VK_TRUE;
  features.sampleRateShading = VK_TRUE;
  features.independentBlend = VK_TRUE;
  features.logicOp = VK_TRUE;
  features.depthClamp = VK_TRUE;
  features.depthBiasClamp = VK_TRUE;
  features.fillModeNonSolid = VK_TRUE;
  features.depthBounds = VK_TRUE;
  features.vertexPipelineStoresAndAtomics = VK_TRUE;
  features.fragmentStoresAndAtomics = VK_TRUE;
  features.shaderTessellationAndGeometryPointSize = VK_TRUE;
  features.fullDrawIndexUint32 = VK_TRUE;
  features.drawIndirectFirstInstance = VK_TRUE;
  return features;
}

static VkPhysicalDeviceVulkan11Features getVulkan11Features() {
  VkPhysicalDeviceVulkan11Features features = {};
  features.storageBuffer16BitAccess = VK_TRUE;
  features.uniformAndStorageBuffer16BitAccess = VK_TRUE;
  features.storagePushConstant16 = VK_TRUE;
  // Stage records hold 16-bit inputs and outputs in their words (ABI 17).
  features.storageInputOutput16 = VK_TRUE;
  // Pointers are host pointers: they may be selected, stored and passed.
  features.variablePointersStorageBuffer = VK_TRUE;
  features.variablePointers = VK_TRUE;
  return features;
}

static VkPhysicalDeviceVulkan12Features getVulkan12Features() {
  VkPhysicalDeviceVulkan12Features features = {};
  features.storageBuffer8BitAccess = VK_TRUE;
  features.uniformAndStorageBuffer8BitAccess = VK_TRUE;
  features.storagePushConstant8 = VK_TRUE;
  features.shaderBufferInt64Atomics = VK_TRUE;
  features.shaderSharedInt64Atomics = VK_TRUE;
  features.shaderFloat16 = VK_TRUE;
  features.shaderInt8 = VK_TRUE;
  // Descriptors are read when a dispatch runs: any index, and updates up to
  // the submission.
  features.samplerMirrorClampToEdge = VK_TRUE;
  // The minimum set of descriptor indexing features below is there, so
  // descriptorIndexing is too (Vulkan requires it with the extension).
  features.descriptorIndexing = VK_TRUE;
  features.shaderUniformTexelBufferArrayDynamicIndexing = VK_TRUE;
  features.shaderStorageTexelBufferArrayDynamicIndexing = VK_TRUE;
  features.shaderUniformBufferArrayNonUniformIndexing = VK_TRUE;
  features.shaderSampledImageArrayNonUniformIndexing = VK_TRUE;
  features.shaderStorageBufferArrayNonUniformIndexing = VK_TRUE;
  features.shaderStorageImageArrayNonUniformIndexing = VK_TRUE;
  features.shaderUniformTexelBufferArrayNonUniformIndexing = VK_TRUE;
  features.shaderStorageTexelBufferArrayNonUniformIndexing = VK_TRUE;
  features.descriptorBindingUniformBufferUpdateAfterBind = VK_TRUE;
  features.descriptorBindingSampledImageUpdateAfterBind = VK_TRUE;
  features.descriptorBindingStorageImageUpdateAfterBind = VK_TRUE;
  features.descriptorBindingStorageBufferUpdateAfterBind = VK_TRUE;
  features.descriptorBindingUniformTexelBufferUpdateAfterBind = VK_TRUE;
  features.descriptorBindingStorageTexelBufferUpdateAfterBind = VK_TRUE;
  features.descriptorBindingUpdateUnusedWhilePending = VK_TRUE;
  // An element left unwritten binds nothing; one the shader reaches anyway
  // faults, or is reported by the bounds check.
  features.descriptorBindingPartiallyBound = VK_TRUE;
  features.descriptorBindingVariableDescriptorCount = VK_TRUE;
  features.runtimeDescriptorArray = VK_TRUE;
  features.scalarBlockLayout = VK_TRUE;
  features.uniformBufferStandardLayout = VK_TRUE;
  features.shaderSubgroupExtendedTypes = VK_TRUE;
  features.hostQueryReset = VK_TRUE;
  features.timelineSemaphore = VK_TRUE;
  features.bufferDeviceAddress = VK_TRUE;
  features.vulkanMemoryModel = VK_TRUE;
  features.vulkanMemoryModelDeviceScope = VK_TRUE;
  features.subgroupBroadcastDynamicId = VK_TRUE;
  features.drawIndirectCount = VK_TRUE;
  // Render passes keep views, not layouts.
  features.imagelessFramebuffer = VK_TRUE;
  features.separateDepthStencilLayouts = VK_TRUE;
  return features;
}

static VkPhysicalDeviceVulkan13Features getVulkan13Features() {
  VkPhysicalDeviceVulkan13Features features = {};
  // Reads outside an image give zero, writes are dropped (kernel_abi.h).
  features.robustImageAccess = VK_TRUE;
  features.inlineUniformBlock = VK_TRUE;
  features.descriptorBindingInlineUniformBlockUpdateAfterBind = VK_TRUE;
  features.pipelineCreationCacheControl = VK_TRUE;
  features.privateData = VK_TRUE;
  features.subgroupSizeControl = VK_TRUE;
  features.computeFullSubgroups = VK_TRUE;
  features.synchronization2 = VK_TRUE;
  features.shaderIntegerDotProduct = VK_TRUE;
  features.maintenance4 = VK_TRUE;
  features.dynamicRendering = VK_TRUE;
  features.shaderDemoteToHelperInvocation = VK_TRUE;
  features.shaderTerminateInvocation = VK_TRUE;
  return features;
}

static VkPhysicalDeviceShaderAtomicFloatFeaturesEXT getAtomicFloatFeatures() {
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT features = {};
  features.shaderBufferFloat32Atomics = VK_TRUE;
  features.shaderBufferFloat32AtomicAdd = VK_TRUE;
  features.shaderBufferFloat64Atomics = VK_TRUE;
  features.shaderBufferFloat64AtomicAdd = VK_TRUE;
  features.shaderSharedFloat32Atomics = VK_TRUE;
  features.shaderSharedFloat32AtomicAdd = VK_TRUE;
  features.shaderSharedFloat64Atomics = VK_TRUE;
  features.shaderSharedFloat64AtomicAdd = VK_TRUE;
  return features;
}

static VkPhysicalDeviceRobustness2FeaturesEXT getRobustness2Features() {
  VkPhysicalDeviceRobustness2FeaturesEXT features = {};
  features.robustBufferAccess2 = VK_TRUE;
  features.nullDescriptor = VK_FALSE;
  return features;
}

/// Fills one structure of a VkPhysicalDeviceFeatures2 chain; false for a
/// structure the device does not know (left as it is).
static bool fillFeatures(VkBaseOutStructure *next) {
  // Each extension structure's members are those of one core structure, in
  // order, from the member named.
#define COPY_RUN(STRUCT, SOURCE, FIRST, LAST)                                  \
  std::memcpy(&reinterpret_cast<STRUCT *>(next)->FIRST, &SOURCE.FIRST,         \
              offsetof(STRUCT, LAST) + sizeof(VkBool32) -                      \
                  offsetof(STRUCT, FIRST))
#define COPY_WHOLE(STRUCT, VALUE)                                              \
  do {                                                                         \
    STRUCT value = VALUE;                                                      \
    std::memcpy(                                                               \
        reinterpret_cast<uint8_t *>(next) + sizeof(VkBaseOutStructure),        \
        reinterpret_cast<uint8_t *>(&value) + sizeof(VkBaseOutStructure),      \
        sizeof(STRUCT) - sizeof(VkBaseOutStructure));                          \
  } while (false)
  VkPhysicalDeviceVulkan11Features v11 = getVulkan11Features();
  VkPhysicalDeviceVulkan12Features v12 = getVulkan12Features();
  VkPhysicalDeviceVulkan13Features v13 = getVulkan13Features();
  switch (next->sType) {
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
    COPY_WHOLE(VkPhysicalDeviceVulkan11Features, v11);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES:
    COPY_WHOLE(VkPhysicalDeviceVulkan12Features, v12);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES:
    COPY_WHOLE(VkPhysicalDeviceVulkan13Features, v13);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
    COPY_RUN(VkPhysicalDevice16BitStorageFeatures, v11,
             storageBuffer16BitAccess, storageInputOutput16);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES:
    COPY_RUN(VkPhysicalDeviceMultiviewFeatures, v11, multiview,
             multiviewTessellationShader);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES:
    COPY_RUN(VkPhysicalDeviceVariablePointersFeatures, v11,
             variablePointersStorageBuffer, variablePointers);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
    COPY_RUN(VkPhysicalDeviceProtectedMemoryFeatures, v11, protectedMemory,
             protectedMemory);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
    COPY_RUN(VkPhysicalDeviceSamplerYcbcrConversionFeatures, v11,
             samplerYcbcrConversion, samplerYcbcrConversion);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderDrawParametersFeatures, v11,
             shaderDrawParameters, shaderDrawParameters);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES:
    COPY_RUN(VkPhysicalDevice8BitStorageFeatures, v12, storageBuffer8BitAccess,
             storagePushConstant8);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderAtomicInt64Features, v12,
             shaderBufferInt64Atomics, shaderSharedInt64Atomics);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderFloat16Int8Features, v12, shaderFloat16,
             shaderInt8);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES:
    COPY_RUN(VkPhysicalDeviceDescriptorIndexingFeatures, v12,
             shaderInputAttachmentArrayDynamicIndexing, runtimeDescriptorArray);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
    COPY_RUN(VkPhysicalDeviceScalarBlockLayoutFeatures, v12, scalarBlockLayout,
             scalarBlockLayout);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES:
    COPY_RUN(VkPhysicalDeviceImagelessFramebufferFeatures, v12,
             imagelessFramebuffer, imagelessFramebuffer);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
    COPY_RUN(VkPhysicalDeviceUniformBufferStandardLayoutFeatures, v12,
             uniformBufferStandardLayout, uniformBufferStandardLayout);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures, v12,
             shaderSubgroupExtendedTypes, shaderSubgroupExtendedTypes);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES:
    COPY_RUN(VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures, v12,
             separateDepthStencilLayouts, separateDepthStencilLayouts);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
    COPY_RUN(VkPhysicalDeviceHostQueryResetFeatures, v12, hostQueryReset,
             hostQueryReset);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
    COPY_RUN(VkPhysicalDeviceTimelineSemaphoreFeatures, v12, timelineSemaphore,
             timelineSemaphore);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
    COPY_RUN(VkPhysicalDeviceBufferDeviceAddressFeatures, v12,
             bufferDeviceAddress, bufferDeviceAddressMultiDevice);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES:
    COPY_RUN(VkPhysicalDeviceVulkanMemoryModelFeatures, v12, vulkanMemoryModel,
             vulkanMemoryModelAvailabilityVisibilityChains);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES:
    COPY_RUN(VkPhysicalDeviceImageRobustnessFeatures, v13, robustImageAccess,
             robustImageAccess);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES:
    COPY_RUN(VkPhysicalDeviceInlineUniformBlockFeatures, v13,
             inlineUniformBlock,
             descriptorBindingInlineUniformBlockUpdateAfterBind);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES:
    COPY_RUN(VkPhysicalDevicePipelineCreationCacheControlFeatures, v13,
             pipelineCreationCacheControl, pipelineCreationCacheControl);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
    COPY_RUN(VkPhysicalDevicePrivateDataFeatures, v13, privateData,
             privateData);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures, v13,
             shaderDemoteToHelperInvocation, shaderDemoteToHelperInvocation);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderTerminateInvocationFeatures, v13,
             shaderTerminateInvocation, shaderTerminateInvocation);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES:
    COPY_RUN(VkPhysicalDeviceSubgroupSizeControlFeatures, v13,
             subgroupSizeControl, computeFullSubgroups);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
    COPY_RUN(VkPhysicalDeviceSynchronization2Features, v13, synchronization2,
             synchronization2);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES:
    COPY_RUN(VkPhysicalDeviceTextureCompressionASTCHDRFeatures, v13,
             textureCompressionASTC_HDR, textureCompressionASTC_HDR);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES:
    COPY_RUN(VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures, v13,
             shaderZeroInitializeWorkgroupMemory,
             shaderZeroInitializeWorkgroupMemory);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
    COPY_RUN(VkPhysicalDeviceDynamicRenderingFeatures, v13, dynamicRendering,
             dynamicRendering);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES:
    COPY_RUN(VkPhysicalDeviceShaderIntegerDotProductFeatures, v13,
             shaderIntegerDotProduct, shaderIntegerDotProduct);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
    COPY_RUN(VkPhysicalDeviceMaintenance4Features, v13, maintenance4,
             maintenance4);
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT:
    COPY_WHOLE(VkPhysicalDeviceShaderAtomicFloatFeaturesEXT,
               getAtomicFloatFeatures());
    return true;
  case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT:
    COPY_WHOLE(VkPhysicalDeviceRobustness2FeaturesEXT,
               getRobustness2Features());
    return true;
  default:
    return false;
  }
#undef COPY_RUN
#undef COPY_WHOLE
}

/// The bytes of a features structure fillFeatures knows, up to the end of
/// its last member (not its padding): every member after the header is a
/// VkBool32.
static size_t getFeaturesSize(VkStructureType type) {
  switch (type) {
#define SIZE(TYPE, STRUCT, LAST)                                               \
  case VK_STRUCTURE_TYPE_##TYPE:                                               \
    return offsetof(STRUCT, LAST) + sizeof(VkBool32);
    SIZE(PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, VkPhysicalDeviceVulkan11Features,
         shaderDrawParameters)
    SIZE(PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, VkPhysicalDeviceVulkan12Features,
         subgroupBroadcastDynamicId)
    SIZE(PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, VkPhysicalDeviceVulkan13Features,
         maintenance4)
    SIZE(PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
         VkPhysicalDevice16BitStorageFeatures, storageInputOutput16)
    SIZE(PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
         VkPhysicalDevice8BitStorageFeatures, storagePushConstant8)
    SIZE(PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
         VkPhysicalDeviceShaderFloat16Int8Features, shaderInt8)
    SIZE(PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
         VkPhysicalDeviceShaderAtomicInt64Features, shaderSharedInt64Atomics)
    SIZE(PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
         VkPhysicalDeviceDescriptorIndexingFeatures, runtimeDescriptorArray)
    SIZE(PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES,
         VkPhysicalDeviceScalarBlockLayoutFeatures, scalarBlockLayout)
    SIZE(PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
         VkPhysicalDeviceTimelineSemaphoreFeatures, timelineSemaphore)
    SIZE(PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
         VkPhysicalDeviceBufferDeviceAddressFeatures,
         bufferDeviceAddressMultiDevice)
    SIZE(PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
         VkPhysicalDeviceVulkanMemoryModelFeatures,
         vulkanMemoryModelAvailabilityVisibilityChains)
    SIZE(PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
         VkPhysicalDeviceSubgroupSizeControlFeatures, computeFullSubgroups)
    SIZE(PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
         VkPhysicalDeviceSynchronization2Features, synchronization2)
    SIZE(PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
         VkPhysicalDeviceShaderIntegerDotProductFeatures,
         shaderIntegerDotProduct)
    SIZE(PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
         VkPhysicalDeviceMaintenance4Features, maintenance4)
    SIZE(PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
         VkPhysicalDeviceShaderAtomicFloatFeaturesEXT,
         sparseImageFloat32AtomicAdd)
    SIZE(PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT,
         VkPhysicalDeviceRobustness2FeaturesEXT, nullDescriptor)
    SIZE(PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES,
         VkPhysicalDevicePrivateDataFeatures, privateData)
    SIZE(PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
         VkPhysicalDevicePipelineCreationCacheControlFeatures,
         pipelineCreationCacheControl)
    SIZE(PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
         VkPhysicalDeviceHostQueryResetFeatures, hostQueryReset)
    SIZE(PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES,
         VkPhysicalDeviceUniformBufferStandardLayoutFeatures,
         uniformBufferStandardLayout)
    SIZE(PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES,
         VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures,
         shaderSubgroupExtendedTypes)
    SIZE(PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
         VkPhysicalDeviceInlineUniformBlockFeatures,
         descriptorBindingInlineUniformBlockUpdateAfterBind)
    SIZE(PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES,
         VkPhysicalDeviceImageRobustnessFeatures, robustImageAccess)
    SIZE(PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES,
         VkPhysicalDeviceVariablePointersFeatures, variablePointers)
#undef SIZE
  default:
    return 0;
  }
}

namespace {
/// A features structure's name and VkBool32 members, from vk.xml.
struct FeatureNames {
  uint32_t structureType; // 0: VkPhysicalDeviceFeatures
  const char *structure;
  std::vector<const char *> members;
};
} // namespace

static const FeatureNames *findFeatureNames(uint32_t structureType) {
  static const FeatureNames table[] = {
#include "FeatureNames.inc"
  };
  for (const FeatureNames &names : table)
    if (names.structureType == structureType)
      return &names;
  return nullptr;
}

/// "VkPhysicalDeviceVulkan12Features::drawIndirectCount".
static std::string nameFeature(uint32_t structureType, size_t member) {
  // VkPhysicalDeviceFeatures2 holds the core structure.
  bool inFeatures2 =
      structureType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
  const FeatureNames *names = findFeatureNames(inFeatures2 ? 0 : structureType);
  if (!names)
    return "the features structure of sType " + std::to_string(structureType) +
           " member " + std::to_string(member);
  std::string name =
      inFeatures2 ? "VkPhysicalDeviceFeatures2::features" : names->structure;
  return name +
         "::" + (member < names->members.size() ? names->members[member] : "?");
}

std::string
spvb::icd::findUnsupportedFeature(VkPhysicalDevice physicalDevice,
                                  const VkDeviceCreateInfo &createInfo) {
  auto compare = [](const VkBool32 *want, const VkBool32 *have, size_t count,
                    uint32_t structureType) -> std::string {
    for (size_t i = 0; i < count; ++i)
      if (want[i] && !have[i])
        return nameFeature(structureType, i);
    return "";
  };
  VkPhysicalDeviceFeatures core;
  spvb_GetPhysicalDeviceFeatures(physicalDevice, &core);
  constexpr size_t kCoreCount = sizeof(core) / sizeof(VkBool32);
  if (createInfo.pEnabledFeatures)
    if (std::string missing = compare(
            reinterpret_cast<const VkBool32 *>(createInfo.pEnabledFeatures),
            reinterpret_cast<const VkBool32 *>(&core), kCoreCount, 0);
        !missing.empty())
      return missing;
  for (auto *next = static_cast<const VkBaseInStructure *>(createInfo.pNext);
       next; next = next->pNext) {
    if (next->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
      if (std::string missing = compare(
              reinterpret_cast<const VkBool32 *>(
                  &reinterpret_cast<const VkPhysicalDeviceFeatures2 *>(next)
                       ->features),
              reinterpret_cast<const VkBool32 *>(&core), kCoreCount,
              VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
          !missing.empty())
        return missing;
      continue;
    }
    size_t size = getFeaturesSize(next->sType);
    if (size == 0)
      continue;
    std::vector<uint8_t> supported(size, 0);
    auto *have = reinterpret_cast<VkBaseOutStructure *>(supported.data());
    have->sType = next->sType;
    fillFeatures(have);
    size_t header = sizeof(VkBaseOutStructure);
    if (std::string missing = compare(
            reinterpret_cast<const VkBool32 *>(
                reinterpret_cast<const uint8_t *>(next) + header),
            reinterpret_cast<const VkBool32 *>(supported.data() + header),
            (size - header) / sizeof(VkBool32), next->sType);
        !missing.empty())
      return missing;
  }
  return "";
}

bool spvb::icd::enablesRobustAccess(const VkDeviceCreateInfo &createInfo) {
  if (createInfo.pEnabledFeatures &&
      createInfo.pEnabledFeatures->robustBufferAccess)
    return true;
  for (auto *next = static_cast<const VkBaseInStructure *>(createInfo.pNext);
       next; next = next->pNext) {
    if (next->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2 &&
        reinterpret_cast<const VkPhysicalDeviceFeatures2 *>(next)
            ->features.robustBufferAccess)
      return true;
    if (next->sType ==
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT &&
        reinterpret_cast<const VkPhysicalDeviceRobustness2FeaturesEXT *>(next)
            ->robustBufferAccess2)
      return true;
  }
  return false;
}

extern "C" {

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFeatures(
    VkPhysicalDevice, VkPhysicalDeviceFeatures *pFeatures) {
  *pFeatures = getCoreFeatures();
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFeatures2(
    VkPhysicalDevice, VkPhysicalDeviceFeatures2 *pFeatures) {
  pFeatures->features = getCoreFeatures();
  for (auto *next = static_cast<VkBaseOutStructure *>(pFeatures->pNext); next;
       next = next->pNext)
    fillFeatures(next);
}

} // extern "C"
