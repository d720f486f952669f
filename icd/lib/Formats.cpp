//===- Formats.cpp - Format properties ------------------------------------===//
//
// Images and texel buffers take every format with a SPIR-V image format,
// in both tilings, for sampling, storage (with atomics on the 32- and
// 64-bit integer ones, as Vulkan requires), transfers and colour
// attachments; linear filtering and blending for the formats whose
// components are not integers. The other formats the runtime describes
// (cpu_runtime/VulkanFormats.h: BGRA, sRGB, packed, depth/stencil) are
// attachments, transfer and blit images, and sampled (the runtime decodes
// them: ImageFormats.h), not yet storage images. Every format the runtime
// describes is a blit's source and destination.
// Vertex buffers take every colour format the runtime decodes.
//
//===----------------------------------------------------------------------===//
#include "Formats.h"

#include "EntryPoints.h"
#include "Objects.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include <spirv/unified1/spirv.hpp>

#include <cstring>

using namespace spvb;
using namespace spvb::icd;

const runtime::ImageFormat *spvb::icd::getImageFormat(VkFormat format) {
  uint32_t spirv = runtime::getSpirvImageFormat(format);
  return spirv == spv::ImageFormatUnknown ? nullptr
                                          : runtime::getImageFormat(spirv);
}

unsigned spvb::icd::getImageTexelBytes(VkFormat format) {
  if (const runtime::ImageFormat *texels = getImageFormat(format))
    return texels->texelBytes;
  const runtime::VulkanFormat *described = runtime::getVulkanFormat(format);
  return described ? described->texelBytes : 0;
}

runtime::Color spvb::icd::getClearColor(const runtime::VulkanFormat &format,
                                        const VkClearColorValue &value) {
  runtime::Color color;
  for (int c = 0; c < 4; ++c) {
    color.f[c] = value.float32[c];
    color.i[c] = format.kind == runtime::ComponentKind::Sint
                     ? int64_t(value.int32[c])
                     : int64_t(value.uint32[c]);
  }
  return color;
}

static bool isIntegerKind(runtime::NumericKind kind) {
  return kind == runtime::NumericKind::Sint ||
         kind == runtime::NumericKind::Uint;
}

static VkFormatProperties getFormatProperties(VkFormat format) {
  VkFormatProperties properties = {};
  const runtime::VulkanFormat *described = runtime::getVulkanFormat(format);
  if (described && described->components)
    properties.bufferFeatures = VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT;
  const runtime::ImageFormat *texels = getImageFormat(format);
  constexpr VkFormatFeatureFlags kTransfer =
      VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  // Blits convert between every format the runtime describes
  // (ImageBlits.cpp), filtering the ones whose components are not integers.
  constexpr VkFormatFeatureFlags kBlit =
      VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
  if (!texels && described) {
    VkFormatFeatureFlags image =
        described->components
            ? VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | kTransfer | kBlit
            : VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | kTransfer |
                  kBlit;
    // Sampled through the runtime's description (ImageFormats.h).
    if (runtime::getSampledFormatId(format))
      image |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if (described->components && !runtime::isIntegerFormat(*described))
      image |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT |
               VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    if (!described->components && described->depthBits)
      image |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    properties.linearTilingFeatures = image;
    properties.optimalTilingFeatures = image;
    return properties;
  }
  if (!texels)
    return properties;
  VkFormatFeatureFlags image = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                               VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT |
                               VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                               VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  VkFormatFeatureFlags buffer = properties.bufferFeatures |
                                VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT |
                                VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
  if (described)
    image |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | kBlit;
  if (!isIntegerKind(texels->kind)) {
    image |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    if (described)
      image |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT;
  }
  if (isIntegerKind(texels->kind) && texels->components == 1 &&
      texels->texelBytes >= 4) {
    image |= VK_FORMAT_FEATURE_STORAGE_IMAGE_ATOMIC_BIT;
    buffer |= VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
  }
  properties.linearTilingFeatures = image;
  properties.optimalTilingFeatures = image;
  properties.bufferFeatures = buffer;
  return properties;
}

extern "C" {

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFormatProperties(
    VkPhysicalDevice, VkFormat format, VkFormatProperties *pFormatProperties) {
  *pFormatProperties = getFormatProperties(format);
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPhysicalDeviceFormatProperties2(
    VkPhysicalDevice, VkFormat format, VkFormatProperties2 *pFormatProperties) {
  VkFormatProperties properties = getFormatProperties(format);
  pFormatProperties->formatProperties = properties;
  for (auto *next = static_cast<VkBaseOutStructure *>(pFormatProperties->pNext);
       next; next = next->pNext)
    if (next->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
      auto *three = reinterpret_cast<VkFormatProperties3 *>(next);
      // The first 32 bits of VkFormatFeatureFlags2 are VkFormatFeatureFlags;
      // storage images read and write without a format in the shader too.
      auto withoutFormat = [](VkFormatFeatureFlags flags) {
        VkFormatFeatureFlags2 wide = flags;
        if (flags & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT)
          wide |= VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                  VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
        return wide;
      };
      three->linearTilingFeatures =
          withoutFormat(properties.linearTilingFeatures);
      three->optimalTilingFeatures =
          withoutFormat(properties.optimalTilingFeatures);
      three->bufferFeatures = properties.bufferFeatures;
    }
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type,
    VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
    VkImageFormatProperties *pImageFormatProperties) {
  std::memset(pImageFormatProperties, 0, sizeof(*pImageFormatProperties));
  VkFormatProperties features = getFormatProperties(format);
  VkFormatFeatureFlags have = tiling == VK_IMAGE_TILING_LINEAR
                                  ? features.linearTilingFeatures
                                  : features.optimalTilingFeatures;
  // Usages the formats serve: input and transient attachments need no
  // feature of their own, only an attachment's.
  VkFormatFeatureFlags need = 0;
  if (usage & VK_IMAGE_USAGE_SAMPLED_BIT)
    need |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  if (usage & VK_IMAGE_USAGE_STORAGE_BIT)
    need |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
  if (usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT)
    need |= VK_FORMAT_FEATURE_TRANSFER_SRC_BIT;
  if (usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT)
    need |= VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  if (usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT)
    need |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
  if (usage & VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)
    need |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
  constexpr VkFormatFeatureFlags kAttachment =
      VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT |
      VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
  if ((usage & (VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
                VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT)) &&
      !(have & kAttachment))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  constexpr VkImageUsageFlags kServed =
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
      VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT |
      VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
  constexpr VkImageCreateFlags kCreateFlags =
      VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT |
      VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT |
      VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  // Usage bits of extensions the device does not offer cannot take effect
  // (zink 22.3 passes VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT
  // regardless): only the core ones are weighed.
  constexpr VkImageUsageFlags kCore = 0xff;
  if (!have || (have & need) != need || (usage & kCore & ~kServed) ||
      (flags & ~kCreateFlags))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  VkPhysicalDeviceProperties device;
  spvb_GetPhysicalDeviceProperties(physicalDevice, &device);
  const VkPhysicalDeviceLimits &limits = device.limits;
  switch (type) {
  case VK_IMAGE_TYPE_1D:
    pImageFormatProperties->maxExtent = {limits.maxImageDimension1D, 1, 1};
    break;
  case VK_IMAGE_TYPE_3D:
    pImageFormatProperties->maxExtent = {limits.maxImageDimension3D,
                                         limits.maxImageDimension3D,
                                         limits.maxImageDimension3D};
    break;
  default:
    pImageFormatProperties->maxExtent = {limits.maxImageDimension2D,
                                         limits.maxImageDimension2D, 1};
    break;
  }
  uint32_t largest = std::max({pImageFormatProperties->maxExtent.width,
                               pImageFormatProperties->maxExtent.height,
                               pImageFormatProperties->maxExtent.depth});
  uint32_t levels = 1;
  while (largest >>= 1)
    ++levels;
  pImageFormatProperties->maxMipLevels = levels;
  pImageFormatProperties->maxArrayLayers =
      type == VK_IMAGE_TYPE_3D ? 1 : limits.maxImageArrayLayers;
  // Four samples for what can be drawn into (Images.cpp).
  pImageFormatProperties->sampleCounts =
      type == VK_IMAGE_TYPE_2D && tiling == VK_IMAGE_TILING_OPTIMAL &&
              (have & kAttachment) && !(usage & VK_IMAGE_USAGE_STORAGE_BIT) &&
              !(flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT)
          ? VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_4_BIT
          : VK_SAMPLE_COUNT_1_BIT;
  pImageFormatProperties->maxResourceSize = VkDeviceSize(1) << 31;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
    VkImageFormatProperties2 *pImageFormatProperties) {
  return spvb_GetPhysicalDeviceImageFormatProperties(
      physicalDevice, pImageFormatInfo->format, pImageFormatInfo->type,
      pImageFormatInfo->tiling, pImageFormatInfo->usage,
      pImageFormatInfo->flags, &pImageFormatProperties->imageFormatProperties);
}

} // extern "C"
