//===- Descriptors.cpp - Descriptor set layouts, pools and sets -----------===//
//
// Buffers only for now (storage, uniform and their dynamic forms): images,
// texel buffers and samplers come with their objects.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>
#include <new>

using namespace spvb;
using namespace spvb::icd;

static bool isBufferDescriptor(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
         type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
         type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
         type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDescriptorSetLayout(
    VkDevice, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkDescriptorSetLayout *pSetLayout) {
  for (uint32_t i = 0; i < pCreateInfo->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding &binding = pCreateInfo->pBindings[i];
    if (binding.descriptorCount &&
        !isBufferDescriptor(binding.descriptorType)) {
      std::fprintf(stderr,
                   "error: vkCreateDescriptorSetLayout: binding %u: "
                   "descriptor type %d is not supported yet (buffers only)\n",
                   binding.binding, binding.descriptorType);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
  auto *layout = new (std::nothrow) DescriptorSetLayout();
  if (!layout)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < pCreateInfo->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding &binding = pCreateInfo->pBindings[i];
    layout->bindings[binding.binding] = {binding.descriptorType,
                                         binding.descriptorCount};
  }
  *pSetLayout = toHandle<VkDescriptorSetLayout>(layout);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyDescriptorSetLayout(
    VkDevice, VkDescriptorSetLayout layout, const VkAllocationCallbacks *) {
  delete fromHandle<DescriptorSetLayout>(layout);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDescriptorPool(
    VkDevice, const VkDescriptorPoolCreateInfo *, const VkAllocationCallbacks *,
    VkDescriptorPool *pDescriptorPool) {
  auto *pool = new (std::nothrow) DescriptorPool();
  if (!pool)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pDescriptorPool = toHandle<VkDescriptorPool>(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyDescriptorPool(
    VkDevice, VkDescriptorPool pool, const VkAllocationCallbacks *) {
  delete fromHandle<DescriptorPool>(pool);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetDescriptorPool(
    VkDevice, VkDescriptorPool pool, VkDescriptorPoolResetFlags) {
  fromHandle<DescriptorPool>(pool)->sets.clear();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_AllocateDescriptorSets(
    VkDevice, const VkDescriptorSetAllocateInfo *pAllocateInfo,
    VkDescriptorSet *pDescriptorSets) {
  DescriptorPool *pool =
      fromHandle<DescriptorPool>(pAllocateInfo->descriptorPool);
  for (uint32_t i = 0; i < pAllocateInfo->descriptorSetCount; ++i) {
    auto set = std::make_unique<DescriptorSet>();
    set->layout =
        fromHandle<DescriptorSetLayout>(pAllocateInfo->pSetLayouts[i]);
    pDescriptorSets[i] = toHandle<VkDescriptorSet>(set.get());
    pool->sets.push_back(std::move(set));
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_FreeDescriptorSets(
    VkDevice, VkDescriptorPool descriptorPool, uint32_t descriptorSetCount,
    const VkDescriptorSet *pDescriptorSets) {
  auto &sets = fromHandle<DescriptorPool>(descriptorPool)->sets;
  for (uint32_t i = 0; i < descriptorSetCount; ++i)
    llvm::erase_if(sets, [&](const std::unique_ptr<DescriptorSet> &set) {
      return toHandle<VkDescriptorSet>(set.get()) == pDescriptorSets[i];
    });
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_UpdateDescriptorSets(
    VkDevice, uint32_t descriptorWriteCount,
    const VkWriteDescriptorSet *pDescriptorWrites, uint32_t descriptorCopyCount,
    const VkCopyDescriptorSet *pDescriptorCopies) {
  for (uint32_t i = 0; i < descriptorWriteCount; ++i) {
    const VkWriteDescriptorSet &write = pDescriptorWrites[i];
    if (!isBufferDescriptor(write.descriptorType))
      continue;
    DescriptorSet *set = fromHandle<DescriptorSet>(write.dstSet);
    // Consecutive bindings take the elements past the end of one (Vulkan's
    // "descriptor write consecutive binding updates").
    // A write past the layout's last binding is invalid use: it stops there.
    auto binding = set->layout->bindings.find(write.dstBinding);
    uint32_t element = write.dstArrayElement;
    for (uint32_t d = 0; d < write.descriptorCount; ++d, ++element) {
      while (binding != set->layout->bindings.end() &&
             element >= binding->second.count) {
        element = 0;
        ++binding;
      }
      if (binding == set->layout->bindings.end())
        break;
      const VkDescriptorBufferInfo &info = write.pBufferInfo[d];
      Buffer *buffer = fromHandle<Buffer>(info.buffer);
      VkDeviceSize range = info.range == VK_WHOLE_SIZE && buffer
                               ? buffer->size - info.offset
                               : info.range;
      set->buffers[{binding->first, element}] = {buffer, info.offset, range};
    }
  }
  for (uint32_t i = 0; i < descriptorCopyCount; ++i) {
    const VkCopyDescriptorSet &copy = pDescriptorCopies[i];
    DescriptorSet *source = fromHandle<DescriptorSet>(copy.srcSet);
    DescriptorSet *target = fromHandle<DescriptorSet>(copy.dstSet);
    for (uint32_t d = 0; d < copy.descriptorCount; ++d) {
      auto it =
          source->buffers.find({copy.srcBinding, copy.srcArrayElement + d});
      if (it != source->buffers.end())
        target->buffers[{copy.dstBinding, copy.dstArrayElement + d}] =
            it->second;
    }
  }
}

} // extern "C"
