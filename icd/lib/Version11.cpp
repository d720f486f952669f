//===- Version11.cpp - The rest of Vulkan 1.1's commands ------------------===//
//
// One device in its group, no external handles, no YCbCr conversion: the
// 1.1 commands that then have little to do.
//
//===----------------------------------------------------------------------===//
#include "Descriptors.h"
#include "EntryPoints.h"
#include "Memory.h"
#include "Objects.h"

#include <cstdio>
#include <cstring>
#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_BindBufferMemory2(VkDevice device, uint32_t bindInfoCount,
                       const VkBindBufferMemoryInfo *pBindInfos) {
  for (uint32_t i = 0; i < bindInfoCount; ++i)
    if (VkResult result = spvb_BindBufferMemory(device, pBindInfos[i].buffer,
                                                pBindInfos[i].memory,
                                                pBindInfos[i].memoryOffset))
      return result;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetBufferMemoryRequirements2(
    VkDevice device, const VkBufferMemoryRequirementsInfo2 *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements) {
  VkMemoryRequirements requirements;
  spvb_GetBufferMemoryRequirements(device, pInfo->buffer, &requirements);
  setMemoryRequirements(*pMemoryRequirements, requirements);
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceGroupPeerMemoryFeatures(
    VkDevice, uint32_t, uint32_t, uint32_t,
    VkPeerMemoryFeatureFlags *pPeerMemoryFeatures) {
  *pPeerMemoryFeatures = VK_PEER_MEMORY_FEATURE_COPY_SRC_BIT |
                         VK_PEER_MEMORY_FEATURE_COPY_DST_BIT |
                         VK_PEER_MEMORY_FEATURE_GENERIC_SRC_BIT |
                         VK_PEER_MEMORY_FEATURE_GENERIC_DST_BIT;
}

/// Device mask 1 is the only device.
VKAPI_ATTR void VKAPI_CALL spvb_CmdSetDeviceMask(VkCommandBuffer, uint32_t) {}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDispatchBase(
    VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
    uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
    uint32_t groupCountZ) {
  fromHandle<CommandBuffer>(commandBuffer)
      ->commands.push_back(
          command::Dispatch{{baseGroupX, baseGroupY, baseGroupZ},
                            {groupCountX, groupCountY, groupCountZ}});
}

VKAPI_ATTR void VKAPI_CALL spvb_TrimCommandPool(VkDevice, VkCommandPool,
                                                VkCommandPoolTrimFlags) {}

VKAPI_ATTR void VKAPI_CALL spvb_GetDescriptorSetLayoutSupport(
    VkDevice, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
    VkDescriptorSetLayoutSupport *pSupport) {
  pSupport->supported = VK_TRUE;
  for (uint32_t i = 0; i < pCreateInfo->bindingCount; ++i)
    if (pCreateInfo->pBindings[i].descriptorCount &&
        !isSupportedDescriptorType(pCreateInfo->pBindings[i].descriptorType))
      pSupport->supported = VK_FALSE;
  // Descriptors live in host memory: a variable-count binding may have as
  // many as any binding.
  for (auto *next = static_cast<VkBaseOutStructure *>(pSupport->pNext); next;
       next = next->pNext)
    if (next->sType ==
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT)
      reinterpret_cast<VkDescriptorSetVariableDescriptorCountLayoutSupport *>(
          next)
          ->maxVariableDescriptorCount = kMaxUpdateAfterBindDescriptors;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo *,
    VkExternalBufferProperties *pExternalBufferProperties) {
  std::memset(&pExternalBufferProperties->externalMemoryProperties, 0,
              sizeof(VkExternalMemoryProperties));
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceExternalFenceProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalFenceInfo *,
    VkExternalFenceProperties *pExternalFenceProperties) {
  pExternalFenceProperties->exportFromImportedHandleTypes = 0;
  pExternalFenceProperties->compatibleHandleTypes = 0;
  pExternalFenceProperties->externalFenceFeatures = 0;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceExternalSemaphoreProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalSemaphoreInfo *,
    VkExternalSemaphoreProperties *pExternalSemaphoreProperties) {
  pExternalSemaphoreProperties->exportFromImportedHandleTypes = 0;
  pExternalSemaphoreProperties->compatibleHandleTypes = 0;
  pExternalSemaphoreProperties->externalSemaphoreFeatures = 0;
}

/// samplerYcbcrConversion is not reported: valid applications never call
/// these.
VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateSamplerYcbcrConversion(
    VkDevice, const VkSamplerYcbcrConversionCreateInfo *,
    const VkAllocationCallbacks *, VkSamplerYcbcrConversion *pYcbcrConversion) {
  *pYcbcrConversion = VK_NULL_HANDLE;
  std::fprintf(stderr, "error: vkCreateSamplerYcbcrConversion: the device "
                       "does not report samplerYcbcrConversion\n");
  return VK_ERROR_OUT_OF_HOST_MEMORY;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySamplerYcbcrConversion(
    VkDevice, VkSamplerYcbcrConversion, const VkAllocationCallbacks *) {}

} // extern "C"
