//===- DescriptorBinding.cpp - Bound descriptor sets into a launch --------===//
#include "DescriptorBinding.h"

#include "HandleChecks.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

using namespace spvb;
using namespace spvb::icd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

std::string DescriptorBinder::getObjectName(const void *object) {
  std::lock_guard<std::mutex> lock(device.namesMutex);
  auto it = device.objectNames.find(reinterpret_cast<uint64_t>(object));
  return it != device.objectNames.end() ? it->second : std::string();
}

void DescriptorBinder::label(uint32_t set, uint32_t binding, uint32_t element,
                             const char *kind, const void *object) {
  std::string name = getObjectName(object);
  if (name.empty())
    return;
  for (Dispatch *stage : stages)
    stage->labelBinding(set, binding, element,
                        std::string(kind) + " '" + name + "'");
}

llvm::Error DescriptorBinder::bindDescriptor(uint32_t set, uint32_t binding,
                                             uint32_t element,
                                             VkDescriptorType type,
                                             const Descriptor &descriptor,
                                             uint32_t dynamicOffset) {
  // A descriptor whose object was destroyed after the write.
  auto destroyed = [&](const DestructibleObject *object,
                       const char *what) -> llvm::Error {
    if (!object || !object->destroyed)
      return llvm::Error::success();
    return makeError(llvm::formatv("error: {0}: the {1} written to set {2}, "
                                   "binding {3}, element {4} was destroyed",
                                   command, what, set, binding, element));
  };
  if (llvm::Error error = destroyed(descriptor.buffer, "VkBuffer"))
    return error;
  if (llvm::Error error = destroyed(descriptor.imageView, "VkImageView"))
    return error;
  if (llvm::Error error = destroyed(descriptor.sampler, "VkSampler"))
    return error;
  if (llvm::Error error = destroyed(descriptor.bufferView, "VkBufferView"))
    return error;
  if (descriptor.imageView && !descriptor.imageView->destroyed)
    if (llvm::Error error = destroyed(descriptor.imageView->image, "VkImage"))
      return error;
  if (descriptor.bufferView && !descriptor.bufferView->destroyed)
    if (llvm::Error error =
            destroyed(descriptor.bufferView->buffer, "VkBuffer of a view"))
      return error;
  switch (type) {
  case VK_DESCRIPTOR_TYPE_SAMPLER:
    if (descriptor.sampler)
      for (Dispatch *stage : stages)
        stage->bindSampler(set, binding, &descriptor.sampler->descriptor,
                           element);
    return llvm::Error::success();
  case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
  case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
  case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
  case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
    if (!descriptor.imageView)
      return llvm::Error::success();
    const spvb_image *image = &descriptor.imageView->descriptor;
    if (type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
      spvb_image &combined = combinedImages.emplace_back(*image);
      combined.sampler =
          descriptor.sampler ? &descriptor.sampler->descriptor : nullptr;
      image = &combined;
    } else if (type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT) {
      // Read at the fragment's pixel (kernel_abi.h).
      spvb_image &attachment = combinedImages.emplace_back(*image);
      attachment.dim = spv::DimSubpassData;
      image = &attachment;
    }
    for (Dispatch *stage : stages)
      stage->bindImage(set, binding, image, element);
    label(set, binding, element, "VkImage", descriptor.imageView->image);
    return llvm::Error::success();
  }
  case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
  case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
    if (!descriptor.bufferView)
      return llvm::Error::success();
    for (Dispatch *stage : stages)
      stage->bindImage(set, binding, &descriptor.bufferView->descriptor,
                       element);
    label(set, binding, element, "VkBuffer", descriptor.bufferView->buffer);
    return llvm::Error::success();
  default:
    if (!descriptor.buffer)
      return llvm::Error::success();
    if (!descriptor.buffer->memory)
      return makeError(llvm::formatv("error: {0}: the buffer at set {1}, "
                                     "binding {2}, element {3} has no memory "
                                     "bound",
                                     command, set, binding, element));
    for (Dispatch *stage : stages)
      stage->bindBuffer(set, binding,
                        descriptor.buffer->getData() + descriptor.offset +
                            dynamicOffset,
                        descriptor.range, element);
    label(set, binding, element, "VkBuffer", descriptor.buffer);
    return llvm::Error::success();
  }
}

llvm::Error DescriptorBinder::bindSet(uint32_t setIndex, DescriptorSet &set,
                                      llvm::ArrayRef<uint32_t> dynamicOffsets) {
  size_t nextDynamic = 0;
  for (const auto &[binding, info] : set.layout->bindings) {
    uint32_t count = info.variableCount ? set.variableCount : info.count;
    if (info.type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
      // A uniform block whose bytes the set holds.
      std::vector<uint8_t> &bytes = set.inlineBlocks[binding];
      bytes.resize(count);
      for (Dispatch *stage : stages)
        stage->bindBuffer(setIndex, binding, bytes.data(), bytes.size());
      continue;
    }
    bool dynamic = info.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
                   info.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    if (info.partiallyBound) {
      // Only the written elements (and immutable samplers) are bound; the
      // shader must not reach the others. Dynamic descriptors cannot be
      // partially bound.
      for (Dispatch *stage : stages)
        stage->bindPartially(setIndex, binding, count);
      for (auto it = set.descriptors.lower_bound({binding, 0}),
                end = set.descriptors.lower_bound({binding, count});
           it != end; ++it)
        if (llvm::Error error = bindDescriptor(
                setIndex, binding, it->first.second, info.type, it->second, 0))
          return error;
      for (uint32_t element = 0;
           element < std::min<size_t>(count, info.immutableSamplers.size());
           ++element) {
        if (set.descriptors.count({binding, element}))
          continue;
        Descriptor descriptor;
        descriptor.sampler = info.immutableSamplers[element];
        if (llvm::Error error = bindDescriptor(setIndex, binding, element,
                                               info.type, descriptor, 0))
          return error;
      }
      continue;
    }
    for (uint32_t element = 0; element < count; ++element) {
      uint32_t extra = dynamic ? dynamicOffsets[nextDynamic++] : 0;
      auto it = set.descriptors.find({binding, element});
      Descriptor descriptor =
          it != set.descriptors.end() ? it->second : Descriptor();
      if (element < info.immutableSamplers.size())
        descriptor.sampler = info.immutableSamplers[element];
      if (llvm::Error error = bindDescriptor(setIndex, binding, element,
                                             info.type, descriptor, extra))
        return error;
    }
  }
  return llvm::Error::success();
}

llvm::Error DescriptorBinder::bindSets(const BoundSets &sets) {
  for (const auto &[setIndex, bound] : sets) {
    std::string what = "bound set " + std::to_string(setIndex);
    if (llvm::Error error = checkHandle(bound.first, command, what.c_str()))
      return error;
  }
  for (const auto &[setIndex, bound] : sets)
    if (llvm::Error error = bindSet(setIndex, *bound.first, bound.second))
      return error;
  return llvm::Error::success();
}

void DescriptorBinder::nameAddressableBuffers() {
  std::lock_guard<std::mutex> lock(device.namesMutex);
  for (const Buffer *buffer : device.addressableBuffers) {
    if (!buffer->memory)
      continue;
    auto name = device.objectNames.find(reinterpret_cast<uint64_t>(buffer));
    std::string text =
        name != device.objectNames.end()
            ? "VkBuffer '" + name->second + "'"
            : llvm::formatv(
                  "VkBuffer at device address {0}",
                  llvm::format_hex(
                      reinterpret_cast<uintptr_t>(buffer->getData()), 0))
                  .str();
    for (Dispatch *stage : stages)
      stage->nameMemory(text, buffer->getData(), buffer->size);
  }
}
