//===- DescriptorUpdateTemplates.cpp - vkUpdateDescriptorSetWithTemplate --===//
//
// A template is its entries; an update turns each into a
// VkWriteDescriptorSet read from the application's data and hands them to
// vkUpdateDescriptorSets.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Descriptors.h"
#include "EntryPoints.h"

#include <new>
#include <vector>

using namespace spvb;
using namespace spvb::icd;

namespace {
struct DescriptorUpdateTemplate {
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
  /// Where a push descriptor template's set is bound.
  VkPipelineBindPoint bindPoint;
};
} // namespace

template <typename T> static T makeStruct(VkStructureType type) {
  T value = {};
  value.sType = type;
  return value;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDescriptorUpdateTemplate(
    VkDevice, const VkDescriptorUpdateTemplateCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *,
    VkDescriptorUpdateTemplate *pDescriptorUpdateTemplate) {
  auto *updateTemplate = new (std::nothrow) DescriptorUpdateTemplate();
  if (!updateTemplate)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  updateTemplate->entries.assign(pCreateInfo->pDescriptorUpdateEntries,
                                 pCreateInfo->pDescriptorUpdateEntries +
                                     pCreateInfo->descriptorUpdateEntryCount);
  updateTemplate->bindPoint = pCreateInfo->pipelineBindPoint;
  *pDescriptorUpdateTemplate =
      toHandle<VkDescriptorUpdateTemplate>(updateTemplate);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyDescriptorUpdateTemplate(
    VkDevice, VkDescriptorUpdateTemplate descriptorUpdateTemplate,
    const VkAllocationCallbacks *) {
  delete fromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate);
}

/// Applies \p updateTemplate's entries, read from \p data, to \p set.
static void applyTemplate(const DescriptorUpdateTemplate &updateTemplate,
                          const void *data, DescriptorSet &set) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  for (const VkDescriptorUpdateTemplateEntry &entry : updateTemplate.entries) {
    if (entry.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
      // descriptorCount bytes at offset, written from dstArrayElement on.
      auto block = makeStruct<VkWriteDescriptorSetInlineUniformBlock>(
          VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK);
      block.dataSize = entry.descriptorCount;
      block.pData = bytes + entry.offset;
      VkWriteDescriptorSet write = {};
      write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
      write.pNext = &block;
      write.dstBinding = entry.dstBinding;
      write.dstArrayElement = entry.dstArrayElement;
      write.descriptorCount = entry.descriptorCount;
      write.descriptorType = entry.descriptorType;
      writeDescriptors(set, write);
      continue;
    }
    // Each element is the structure its descriptor type writes with.
    std::vector<VkDescriptorBufferInfo> buffers;
    std::vector<VkDescriptorImageInfo> images;
    std::vector<VkBufferView> texelBuffers;
    for (uint32_t i = 0; i < entry.descriptorCount; ++i) {
      const uint8_t *element = bytes + entry.offset + i * entry.stride;
      switch (entry.descriptorType) {
      case VK_DESCRIPTOR_TYPE_SAMPLER:
      case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
      case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
        images.push_back(
            *reinterpret_cast<const VkDescriptorImageInfo *>(element));
        break;
      case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        texelBuffers.push_back(
            *reinterpret_cast<const VkBufferView *>(element));
        break;
      default:
        buffers.push_back(
            *reinterpret_cast<const VkDescriptorBufferInfo *>(element));
        break;
      }
    }
    VkWriteDescriptorSet write = {};
    write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    write.dstBinding = entry.dstBinding;
    write.dstArrayElement = entry.dstArrayElement;
    write.descriptorCount = entry.descriptorCount;
    write.descriptorType = entry.descriptorType;
    write.pBufferInfo = buffers.data();
    write.pImageInfo = images.data();
    write.pTexelBufferView = texelBuffers.data();
    writeDescriptors(set, write);
  }
}

VKAPI_ATTR void VKAPI_CALL spvb_UpdateDescriptorSetWithTemplate(
    VkDevice, VkDescriptorSet descriptorSet,
    VkDescriptorUpdateTemplate descriptorUpdateTemplate, const void *pData) {
  applyTemplate(*fromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate),
                pData, *fromHandle<DescriptorSet>(descriptorSet));
}

/// VK_KHR_push_descriptor: the template writes a set the command owns.
VKAPI_ATTR void VKAPI_CALL spvb_CmdPushDescriptorSetWithTemplateKHR(
    VkCommandBuffer commandBuffer,
    VkDescriptorUpdateTemplate descriptorUpdateTemplate,
    VkPipelineLayout layout, uint32_t set, const void *pData) {
  auto pushed = std::make_shared<DescriptorSet>();
  pushed->layout = fromHandle<PipelineLayout>(layout)->setLayouts[set];
  const DescriptorUpdateTemplate &updateTemplate =
      *fromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate);
  applyTemplate(updateTemplate, pData, *pushed);
  recordPushDescriptors(commandBuffer, updateTemplate.bindPoint, set,
                        std::move(pushed));
}

} // extern "C"
