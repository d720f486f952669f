//===- Descriptors.cpp - Descriptor set layouts, pools and sets -----------===//
//
// A set holds its descriptors by (binding, element), and an inline uniform
// block its bytes; dispatches read them when they run.
//
//===----------------------------------------------------------------------===//
#include "Descriptors.h"

#include "EntryPoints.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdio>
#include <new>

using namespace spvb;
using namespace spvb::icd;

bool spvb::icd::isSupportedDescriptorType(VkDescriptorType type) {
  switch (type) {
  case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
  case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
  case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
  case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
  case VK_DESCRIPTOR_TYPE_SAMPLER:
  case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
  case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
  case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
  case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
  case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
  case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
  case VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK:
    return true;
  default:
    return false;
  }
}

/// The descriptor a write's \p index-th element makes.
static Descriptor makeDescriptor(const VkWriteDescriptorSet &write,
                                 uint32_t index) {
  Descriptor descriptor;
  switch (write.descriptorType) {
  case VK_DESCRIPTOR_TYPE_SAMPLER:
  case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
  case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
  case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
  case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
    const VkDescriptorImageInfo &info = write.pImageInfo[index];
    if (write.descriptorType != VK_DESCRIPTOR_TYPE_SAMPLER)
      descriptor.imageView = fromHandle<ImageView>(info.imageView);
    if (write.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
        write.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)
      descriptor.sampler = fromHandle<Sampler>(info.sampler);
    break;
  }
  case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
  case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
    descriptor.bufferView =
        fromHandle<BufferView>(write.pTexelBufferView[index]);
    break;
  default: {
    const VkDescriptorBufferInfo &info = write.pBufferInfo[index];
    descriptor.buffer = fromHandle<Buffer>(info.buffer);
    descriptor.offset = info.offset;
    descriptor.range = info.range == VK_WHOLE_SIZE && descriptor.buffer
                           ? descriptor.buffer->size - info.offset
                           : info.range;
    break;
  }
  }
  return descriptor;
}

void spvb::icd::writeDescriptors(DescriptorSet &set,
                                 const VkWriteDescriptorSet &write) {
  if (!isSupportedDescriptorType(write.descriptorType))
    return;
  if (write.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
    // The element is a byte offset and the count a byte count; the bytes
    // come in a VkWriteDescriptorSetInlineUniformBlock.
    auto *block = findInChain<VkWriteDescriptorSetInlineUniformBlock>(
        write.pNext,
        VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK);
    auto binding = set.layout->bindings.find(write.dstBinding);
    if (!block || binding == set.layout->bindings.end() ||
        write.dstArrayElement + block->dataSize > binding->second.count)
      return;
    std::vector<uint8_t> &bytes = set.inlineBlocks[write.dstBinding];
    bytes.resize(binding->second.count);
    const auto *data = static_cast<const uint8_t *>(block->pData);
    std::copy(data, data + block->dataSize,
              bytes.begin() + write.dstArrayElement);
    return;
  }
  // Consecutive bindings take the elements past the end of one (Vulkan's
  // "descriptor write consecutive binding updates").
  // A write past the layout's last binding is invalid use: it stops there.
  auto binding = set.layout->bindings.find(write.dstBinding);
  uint32_t element = write.dstArrayElement;
  for (uint32_t d = 0; d < write.descriptorCount; ++d, ++element) {
    while (binding != set.layout->bindings.end() &&
           element >= binding->second.count) {
      element = 0;
      ++binding;
    }
    if (binding == set.layout->bindings.end())
      break;
    set.descriptors[{binding->first, element}] = makeDescriptor(write, d);
  }
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateDescriptorSetLayout(
    VkDevice, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkDescriptorSetLayout *pSetLayout) {
  for (uint32_t i = 0; i < pCreateInfo->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding &binding = pCreateInfo->pBindings[i];
    if (binding.descriptorCount &&
        !isSupportedDescriptorType(binding.descriptorType)) {
      std::fprintf(stderr,
                   "error: vkCreateDescriptorSetLayout: binding %u: "
                   "descriptor type %d is not supported yet\n",
                   binding.binding, binding.descriptorType);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
  auto *layout = new (std::nothrow) DescriptorSetLayout();
  if (!layout)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto *bindingFlags = findInChain<VkDescriptorSetLayoutBindingFlagsCreateInfo>(
      pCreateInfo->pNext,
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
  if (bindingFlags && bindingFlags->bindingCount != pCreateInfo->bindingCount)
    bindingFlags = nullptr;
  for (uint32_t i = 0; i < pCreateInfo->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding &binding = pCreateInfo->pBindings[i];
    DescriptorSetLayout::Binding &entry = layout->bindings[binding.binding];
    entry.type = binding.descriptorType;
    entry.count = binding.descriptorCount;
    VkDescriptorBindingFlags flags =
        bindingFlags ? bindingFlags->pBindingFlags[i] : 0;
    entry.partiallyBound = flags & VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT;
    entry.variableCount =
        flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT;
    if ((binding.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER ||
         binding.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) &&
        binding.pImmutableSamplers)
      for (uint32_t e = 0; e < binding.descriptorCount; ++e)
        entry.immutableSamplers.push_back(
            fromHandle<Sampler>(binding.pImmutableSamplers[e]));
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
    VkDevice device, VkDescriptorPool pool, const VkAllocationCallbacks *) {
  DescriptorPool *object = fromHandle<DescriptorPool>(pool);
  if (!object)
    return;
  for (std::unique_ptr<DescriptorSet> &set : object->sets)
    fromHandle<Device>(device)->quarantine.retire(set.release());
  delete object;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetDescriptorPool(
    VkDevice device, VkDescriptorPool pool, VkDescriptorPoolResetFlags) {
  auto &sets = fromHandle<DescriptorPool>(pool)->sets;
  for (std::unique_ptr<DescriptorSet> &set : sets)
    fromHandle<Device>(device)->quarantine.retire(set.release());
  sets.clear();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_AllocateDescriptorSets(
    VkDevice, const VkDescriptorSetAllocateInfo *pAllocateInfo,
    VkDescriptorSet *pDescriptorSets) {
  DescriptorPool *pool =
      fromHandle<DescriptorPool>(pAllocateInfo->descriptorPool);
  auto *variableCounts = findInChain<
      VkDescriptorSetVariableDescriptorCountAllocateInfo>(
      pAllocateInfo->pNext,
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO);
  if (variableCounts &&
      variableCounts->descriptorSetCount != pAllocateInfo->descriptorSetCount)
    variableCounts = nullptr;
  for (uint32_t i = 0; i < pAllocateInfo->descriptorSetCount; ++i) {
    auto set = std::make_unique<DescriptorSet>();
    set->layout =
        fromHandle<DescriptorSetLayout>(pAllocateInfo->pSetLayouts[i]);
    // Without a count for it, a variable-count binding has none.
    set->variableCount =
        variableCounts ? variableCounts->pDescriptorCounts[i] : 0;
    pDescriptorSets[i] = toHandle<VkDescriptorSet>(set.get());
    pool->sets.push_back(std::move(set));
  }
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_FreeDescriptorSets(
    VkDevice device, VkDescriptorPool descriptorPool,
    uint32_t descriptorSetCount, const VkDescriptorSet *pDescriptorSets) {
  auto &sets = fromHandle<DescriptorPool>(descriptorPool)->sets;
  for (uint32_t i = 0; i < descriptorSetCount; ++i)
    llvm::erase_if(sets, [&](std::unique_ptr<DescriptorSet> &set) {
      if (toHandle<VkDescriptorSet>(set.get()) != pDescriptorSets[i])
        return false;
      fromHandle<Device>(device)->quarantine.retire(set.release());
      return true;
    });
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_UpdateDescriptorSets(
    VkDevice, uint32_t descriptorWriteCount,
    const VkWriteDescriptorSet *pDescriptorWrites, uint32_t descriptorCopyCount,
    const VkCopyDescriptorSet *pDescriptorCopies) {
  for (uint32_t i = 0; i < descriptorWriteCount; ++i)
    writeDescriptors(*fromHandle<DescriptorSet>(pDescriptorWrites[i].dstSet),
                     pDescriptorWrites[i]);
  for (uint32_t i = 0; i < descriptorCopyCount; ++i) {
    const VkCopyDescriptorSet &copy = pDescriptorCopies[i];
    DescriptorSet *source = fromHandle<DescriptorSet>(copy.srcSet);
    DescriptorSet *target = fromHandle<DescriptorSet>(copy.dstSet);
    auto block = source->inlineBlocks.find(copy.srcBinding);
    if (block != source->inlineBlocks.end()) {
      // Inline uniform blocks copy bytes: element and count are in bytes.
      std::vector<uint8_t> &bytes = target->inlineBlocks[copy.dstBinding];
      bytes.resize(std::max<size_t>(bytes.size(), copy.dstArrayElement +
                                                      copy.descriptorCount));
      std::copy(block->second.begin() + copy.srcArrayElement,
                block->second.begin() + copy.srcArrayElement +
                    copy.descriptorCount,
                bytes.begin() + copy.dstArrayElement);
      continue;
    }
    for (uint32_t d = 0; d < copy.descriptorCount; ++d) {
      auto it =
          source->descriptors.find({copy.srcBinding, copy.srcArrayElement + d});
      if (it != source->descriptors.end())
        target->descriptors[{copy.dstBinding, copy.dstArrayElement + d}] =
            it->second;
    }
  }
}

} // extern "C"
