//===- Images.cpp - Images and image views --------------------------------===//
//
// An image is its texels in the runtime's layout (Objects.h), in memory the
// application binds; a view becomes the runtime's image descriptor when it
// is created. What the runtime cannot describe (multisampled images,
// swizzled views, a view of some layers of several mip levels) is refused
// with a message naming it.
//
//===----------------------------------------------------------------------===//
#include "Images.h"
#include "DebugUtils.h"
#include "EntryPoints.h"
#include "Formats.h"
#include "Memory.h"
#include "Objects.h"
#include "Presentation.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include <spirv/unified1/spirv.hpp>

#include <cstdio>
#include <cstring>
#include <new>

using namespace spvb;
using namespace spvb::icd;

/// Images are aligned as buffers are, for any texel and vector access.
static constexpr VkDeviceSize kImageAlignment = 64;

static VkDeviceSize getImageSize(const Image &image) {
  return image.getOffset(image.levels, 0);
}

static VkMemoryRequirements getImageRequirements(const Image &image) {
  VkMemoryRequirements requirements;
  requirements.size =
      (image.size + kImageAlignment - 1) / kImageAlignment * kImageAlignment;
  requirements.alignment = kImageAlignment;
  requirements.memoryTypeBits = 1;
  return requirements;
}

VkResult spvb::icd::describeImage(const char *command,
                                  const VkImageCreateInfo &info, Image &image) {
  unsigned texelBytes = getImageTexelBytes(info.format);
  if (!texelBytes) {
    std::fprintf(stderr,
                 "error: %s: format %d is not supported (see "
                 "vkGetPhysicalDeviceFormatProperties)\n",
                 command, info.format);
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  // Multisampled images are what the runtime draws into with four
  // samples (vkGetPhysicalDeviceImageFormatProperties' sampleCounts).
  if (info.samples != VK_SAMPLE_COUNT_1_BIT &&
      (info.samples != VK_SAMPLE_COUNT_4_BIT ||
       info.imageType != VK_IMAGE_TYPE_2D || info.mipLevels > 1 ||
       info.tiling != VK_IMAGE_TILING_OPTIMAL ||
       (info.usage & VK_IMAGE_USAGE_STORAGE_BIT) ||
       !runtime::getVulkanFormat(info.format))) {
    std::fprintf(stderr,
                 "error: %s: %d samples per texel: only 1, or 4 for "
                 "single-level, optimally tiled 2D images that are drawn "
                 "into and not stored by shaders, are supported\n",
                 command, info.samples);
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  image.type = info.imageType;
  image.format = info.format;
  const runtime::ImageFormat *texels = getImageFormat(info.format);
  if (!texels && (info.usage & VK_IMAGE_USAGE_STORAGE_BIT)) {
    std::fprintf(stderr,
                 "error: %s: format %d is drawn into, copied and sampled, "
                 "not yet stored by shaders (usage 0x%x; see "
                 "vkGetPhysicalDeviceFormatProperties)\n",
                 command, info.format, unsigned(info.usage));
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  }
  image.spirvFormat = texels ? texels->format : 0;
  image.texelBytes = texelBytes;
  image.extent = info.extent;
  image.levels = std::max(1u, info.mipLevels);
  image.layers = std::max(1u, info.arrayLayers);
  image.samples = info.samples;
  image.usage = info.usage;
  image.size = getImageSize(image);
  return VK_SUCCESS;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateImage(VkDevice, const VkImageCreateInfo *pCreateInfo,
                 const VkAllocationCallbacks *, VkImage *pImage) {
  auto *image = new (std::nothrow) Image();
  if (!image)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (VkResult result = describeImage("vkCreateImage", *pCreateInfo, *image)) {
    delete image;
    return result;
  }
  *pImage = toHandle<VkImage>(image);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyImage(VkDevice device, VkImage image,
                                             const VkAllocationCallbacks *) {
  fromHandle<Device>(device)->quarantine.retire(fromHandle<Image>(image));
}

VKAPI_ATTR void VKAPI_CALL spvb_GetImageMemoryRequirements(
    VkDevice, VkImage image, VkMemoryRequirements *pMemoryRequirements) {
  *pMemoryRequirements = getImageRequirements(*fromHandle<Image>(image));
}

VKAPI_ATTR void VKAPI_CALL spvb_GetImageMemoryRequirements2(
    VkDevice device, const VkImageMemoryRequirementsInfo2 *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements) {
  VkMemoryRequirements requirements;
  spvb_GetImageMemoryRequirements(device, pInfo->image, &requirements);
  setMemoryRequirements(*pMemoryRequirements, requirements);
}

/// VK_KHR_maintenance4: the requirements of an image not yet created.
VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceImageMemoryRequirements(
    VkDevice, const VkDeviceImageMemoryRequirements *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements) {
  Image image;
  setMemoryRequirements(*pMemoryRequirements,
                        describeImage("vkGetDeviceImageMemoryRequirements",
                                      *pInfo->pCreateInfo, image) == VK_SUCCESS
                            ? getImageRequirements(image)
                            : VkMemoryRequirements{});
}

/// No sparse images: nothing to report.
VKAPI_ATTR void VKAPI_CALL spvb_GetImageSparseMemoryRequirements(
    VkDevice, VkImage, uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements *) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetImageSparseMemoryRequirements2(
    VkDevice, const VkImageSparseMemoryRequirementsInfo2 *,
    uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2 *) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceImageSparseMemoryRequirements(
    VkDevice, const VkDeviceImageMemoryRequirements *,
    uint32_t *pSparseMemoryRequirementCount,
    VkSparseImageMemoryRequirements2 *) {
  *pSparseMemoryRequirementCount = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_BindImageMemory(VkDevice, VkImage image,
                                                    VkDeviceMemory memory,
                                                    VkDeviceSize offset) {
  Image *object = fromHandle<Image>(image);
  DeviceMemory *backing = fromHandle<DeviceMemory>(memory);
  if (!fitsMemory("vkBindImageMemory", "an image", object->size, offset,
                  *backing))
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  object->memory = backing;
  object->memoryOffset = offset;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_BindImageMemory2(VkDevice device, uint32_t bindInfoCount,
                      const VkBindImageMemoryInfo *pBindInfos) {
  for (uint32_t i = 0; i < bindInfoCount; ++i) {
    const VkBindImageMemoryInfo &info = pBindInfos[i];
    // An image made with VkImageSwapchainCreateInfoKHR shares a swapchain
    // image's texels.
    if (auto *swapchain = findInChain<VkBindImageMemorySwapchainInfoKHR>(
            info.pNext,
            VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_SWAPCHAIN_INFO_KHR)) {
      const Image &shared = *fromHandle<Swapchain>(swapchain->swapchain)
                                 ->images[swapchain->imageIndex];
      Image &image = *fromHandle<Image>(info.image);
      image.memory = shared.memory;
      image.memoryOffset = shared.memoryOffset;
      continue;
    }
    if (VkResult result = spvb_BindImageMemory(device, info.image, info.memory,
                                               info.memoryOffset))
      return result;
  }
  return VK_SUCCESS;
}

/// Every tiling is the runtime's layout, so linear images say where their
/// texels are.
VKAPI_ATTR void VKAPI_CALL spvb_GetImageSubresourceLayout(
    VkDevice, VkImage image, const VkImageSubresource *pSubresource,
    VkSubresourceLayout *pLayout) {
  const Image &object = *fromHandle<Image>(image);
  VkExtent3D extent = object.getLevelExtent(pSubresource->mipLevel);
  pLayout->offset =
      object.getOffset(pSubresource->mipLevel, pSubresource->arrayLayer);
  pLayout->size = object.getLayerSize(pSubresource->mipLevel);
  pLayout->rowPitch = VkDeviceSize(extent.width) * object.texelBytes;
  pLayout->depthPitch = pLayout->rowPitch * extent.height;
  pLayout->arrayPitch = pLayout->size;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateImageView(VkDevice device, const VkImageViewCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *, VkImageView *pView) {
  Image *image = fromHandle<Image>(pCreateInfo->image);
  auto fail = [&](const std::string &why) {
    reportError(fromHandle<Device>(device)->physicalDevice->instance,
                "error: vkCreateImageView: " + why);
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  };
  if (!image)
    return fail("image is VK_NULL_HANDLE");
  if (!image->memory)
    return fail("the image has no memory bound");
  if (getImageTexelBytes(pCreateInfo->format) != image->texelBytes)
    return fail("format " + std::to_string(pCreateInfo->format) +
                " cannot view an image of format " +
                std::to_string(image->format));
  // Formats without a SPIR-V image format are sampled through the
  // runtime's description of them (getSampledFormatId); the stencil aspect
  // of a combined format is not (the descriptor's format stays Unknown).
  const runtime::ImageFormat *texels = getImageFormat(pCreateInfo->format);
  const runtime::VulkanFormat *described =
      runtime::getVulkanFormat(pCreateInfo->format);
  bool combinedStencil =
      described && described->depthBits && described->stencilBits &&
      pCreateInfo->subresourceRange.aspectMask == VK_IMAGE_ASPECT_STENCIL_BIT;
  const VkComponentMapping &swizzle = pCreateInfo->components;
  auto identity = [](VkComponentSwizzle s, VkComponentSwizzle own) {
    return s == VK_COMPONENT_SWIZZLE_IDENTITY || s == own;
  };
  if (!identity(swizzle.r, VK_COMPONENT_SWIZZLE_R) ||
      !identity(swizzle.g, VK_COMPONENT_SWIZZLE_G) ||
      !identity(swizzle.b, VK_COMPONENT_SWIZZLE_B) ||
      !identity(swizzle.a, VK_COMPONENT_SWIZZLE_A))
    return fail("component swizzles other than the identity are not "
                "supported yet");
  const VkImageSubresourceRange &range = pCreateInfo->subresourceRange;
  uint32_t levels = range.levelCount == VK_REMAINING_MIP_LEVELS
                        ? image->levels - range.baseMipLevel
                        : range.levelCount;
  uint32_t layers = range.layerCount == VK_REMAINING_ARRAY_LAYERS
                        ? image->layers - range.baseArrayLayer
                        : range.layerCount;
  // The runtime's levels each hold all of the descriptor's layers.
  if (levels > 1 && layers != image->layers)
    return fail("a view of some array layers of several mip levels is not "
                "supported yet");
  auto *view = new (std::nothrow) ImageView();
  if (!view)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  view->image = image;
  view->format = pCreateInfo->format;
  spvb_image &descriptor = view->descriptor;
  VkDeviceSize start =
      image->getOffset(range.baseMipLevel, range.baseArrayLayer);
  descriptor.data = image->getData() + start;
  descriptor.format = texels ? texels->format
                      : combinedStencil
                          ? 0
                          : runtime::getSampledFormatId(pCreateInfo->format);
  VkExtent3D extent = image->getLevelExtent(range.baseMipLevel);
  descriptor.extent[0] = extent.width;
  descriptor.extent[1] = extent.height;
  descriptor.extent[2] = extent.depth;
  descriptor.layers = layers;
  descriptor.levels = levels;
  descriptor.samples = image->samples;
  descriptor.size = image->size - start;
  switch (pCreateInfo->viewType) {
  case VK_IMAGE_VIEW_TYPE_1D:
  case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
    descriptor.dim = spv::Dim1D;
    break;
  case VK_IMAGE_VIEW_TYPE_3D:
    descriptor.dim = spv::Dim3D;
    break;
  case VK_IMAGE_VIEW_TYPE_CUBE:
  case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY:
    descriptor.dim = spv::DimCube;
    break;
  default:
    descriptor.dim = spv::Dim2D;
    break;
  }
  *pView = toHandle<VkImageView>(view);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyImageView(
    VkDevice device, VkImageView imageView, const VkAllocationCallbacks *) {
  fromHandle<Device>(device)->quarantine.retire(
      fromHandle<ImageView>(imageView));
}

} // extern "C"
