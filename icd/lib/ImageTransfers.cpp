//===- ImageTransfers.cpp - Copies and clears of images -------------------===//
//
// Images are in the runtime's layout (Objects.h), so a region is rows of
// texels: each copy moves one row of one slice of one layer at a time.
//
//===----------------------------------------------------------------------===//
#include "ImageTransfers.h"
#include "Formats.h"
#include "HandleChecks.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include <cstring>

using namespace spvb;
using namespace spvb::icd;

static llvm::Error fail(const char *command, const char *what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: %s: %s", command, what);
}

static llvm::Error checkImage(const Image *image, const char *command) {
  if (llvm::Error error = checkHandle(image, command, "an image"))
    return error;
  if (!image->memory)
    return fail(command, "an image has no memory bound");
  return llvm::Error::success();
}

/// Where texel (x, y, z) of \p layer of \p level starts.
static uint8_t *getTexel(const Image &image, uint32_t level, uint32_t layer,
                         int32_t x, int32_t y, int32_t z) {
  VkExtent3D extent = image.getLevelExtent(level);
  return image.getData() + image.getOffset(level, layer) +
         ((VkDeviceSize(z) * extent.height + y) * extent.width + x) *
             image.getTexelStride();
}

/// Whether a region lies within \p level of \p image.
static bool fits(const Image &image, uint32_t level, uint32_t baseLayer,
                 uint32_t layers, VkOffset3D offset, VkExtent3D extent) {
  VkExtent3D size = image.getLevelExtent(level);
  return level < image.levels && baseLayer + layers <= image.layers &&
         offset.x >= 0 && offset.y >= 0 && offset.z >= 0 &&
         offset.x + extent.width <= size.width &&
         offset.y + extent.height <= size.height &&
         offset.z + extent.depth <= size.depth;
}

/// For a copy of one aspect of a combined depth/stencil \p image: the
/// format of that aspect's texels in the buffer (D16_UNORM, X8_D24, D32 or
/// S8); null when the buffer holds the image's own texels.
static const runtime::VulkanFormat *getAspectFormat(const Image &image,
                                                    VkImageAspectFlags aspect) {
  const runtime::VulkanFormat *format = runtime::getVulkanFormat(image.format);
  if (!format || !format->depthBits || !format->stencilBits)
    return nullptr;
  if (aspect & VK_IMAGE_ASPECT_STENCIL_BIT)
    return runtime::getVulkanFormat(VK_FORMAT_S8_UINT);
  return runtime::getVulkanFormat(format->depthBits == 16 ? VK_FORMAT_D16_UNORM
                                  : format->depthBits == 24
                                      ? VK_FORMAT_X8_D24_UNORM_PACK32
                                      : VK_FORMAT_D32_SFLOAT);
}

/// Copies \p count texels of one aspect between an image of \p format
/// and a buffer of \p aspect's format (the image's other aspect keeps its
/// bytes).
static void copyAspect(const runtime::VulkanFormat &format,
                       const runtime::VulkanFormat &aspect, uint8_t *texels,
                       uint8_t *bytes, uint32_t count, bool toImage) {
  for (uint32_t i = 0; i < count; ++i) {
    uint8_t *texel = texels + i * format.texelBytes;
    uint8_t *value = bytes + i * aspect.texelBytes;
    if (aspect.stencilBits) {
      if (toImage)
        runtime::encodeStencil(format, runtime::decodeStencil(aspect, value),
                               texel);
      else
        runtime::encodeStencil(aspect, runtime::decodeStencil(format, texel),
                               value);
    } else if (toImage) {
      runtime::encodeDepth(format, runtime::decodeDepth(aspect, value), texel);
    } else {
      std::memset(value, 0, aspect.texelBytes);
      runtime::encodeDepth(aspect, runtime::decodeDepth(format, texel), value);
    }
  }
}

llvm::Error
spvb::icd::copyBufferImage(const command::CopyBufferImage &command) {
  const char *name =
      command.toImage ? "vkCmdCopyBufferToImage" : "vkCmdCopyImageToBuffer";
  if (llvm::Error error = checkImage(command.image, name))
    return error;
  if (llvm::Error error = checkHandle(command.buffer, name, "the buffer"))
    return error;
  if (!command.buffer->memory)
    return fail(name, "the buffer has no memory bound");
  const Image &image = *command.image;
  if (image.samples != 1)
    return fail(name, "the image is multisampled (only single-sample images "
                      "copy to and from buffers)");
  for (const VkBufferImageCopy &region : command.regions) {
    const VkImageSubresourceLayers &layers = region.imageSubresource;
    if (!fits(image, layers.mipLevel, layers.baseArrayLayer, layers.layerCount,
              region.imageOffset, region.imageExtent))
      return fail(name, "a region lies outside the image");
    uint32_t rowLength = region.bufferRowLength ? region.bufferRowLength
                                                : region.imageExtent.width;
    uint32_t imageHeight = region.bufferImageHeight ? region.bufferImageHeight
                                                    : region.imageExtent.height;
    const runtime::VulkanFormat *aspect =
        getAspectFormat(image, layers.aspectMask);
    unsigned bufferTexelBytes = aspect ? aspect->texelBytes : image.texelBytes;
    VkDeviceSize rowBytes =
        VkDeviceSize(region.imageExtent.width) * bufferTexelBytes;
    VkDeviceSize last =
        region.bufferOffset +
        ((VkDeviceSize(layers.layerCount) * region.imageExtent.depth - 1) *
             imageHeight +
         region.imageExtent.height - 1) *
            rowLength * bufferTexelBytes +
        rowBytes;
    if (last > command.buffer->size)
      return fail(name, "a region lies outside the buffer");
    for (uint32_t layer = 0; layer < layers.layerCount; ++layer)
      for (uint32_t z = 0; z < region.imageExtent.depth; ++z)
        for (uint32_t y = 0; y < region.imageExtent.height; ++y) {
          uint8_t *texels =
              getTexel(image, layers.mipLevel, layers.baseArrayLayer + layer,
                       region.imageOffset.x, region.imageOffset.y + y,
                       region.imageOffset.z + z);
          uint8_t *bytes =
              command.buffer->getData() + region.bufferOffset +
              ((VkDeviceSize(layer) * region.imageExtent.depth + z) *
                   imageHeight +
               y) *
                  rowLength * bufferTexelBytes;
          if (aspect)
            copyAspect(*runtime::getVulkanFormat(image.format), *aspect, texels,
                       bytes, region.imageExtent.width, command.toImage);
          else if (command.toImage)
            std::memcpy(texels, bytes, rowBytes);
          else
            std::memcpy(bytes, texels, rowBytes);
        }
  }
  return llvm::Error::success();
}

llvm::Error spvb::icd::copyImage(const command::CopyImage &command) {
  if (llvm::Error error = checkImage(command.source, "vkCmdCopyImage"))
    return error;
  if (llvm::Error error = checkImage(command.destination, "vkCmdCopyImage"))
    return error;
  const Image &source = *command.source, &destination = *command.destination;
  if (source.texelBytes != destination.texelBytes)
    return fail("vkCmdCopyImage", "the images' texels differ in size");
  if (source.samples != destination.samples)
    return fail("vkCmdCopyImage", "the images' sample counts differ");
  for (const VkImageCopy &region : command.regions) {
    const VkImageSubresourceLayers &from = region.srcSubresource,
                                   &to = region.dstSubresource;
    if (!fits(source, from.mipLevel, from.baseArrayLayer, from.layerCount,
              region.srcOffset, region.extent) ||
        !fits(destination, to.mipLevel, to.baseArrayLayer, to.layerCount,
              region.dstOffset, region.extent))
      return fail("vkCmdCopyImage", "a region lies outside an image");
    VkDeviceSize rowBytes =
        VkDeviceSize(region.extent.width) * source.getTexelStride();
    for (uint32_t layer = 0; layer < from.layerCount; ++layer)
      for (uint32_t z = 0; z < region.extent.depth; ++z)
        for (uint32_t y = 0; y < region.extent.height; ++y)
          std::memmove(getTexel(destination, to.mipLevel,
                                to.baseArrayLayer + layer, region.dstOffset.x,
                                region.dstOffset.y + y, region.dstOffset.z + z),
                       getTexel(source, from.mipLevel,
                                from.baseArrayLayer + layer, region.srcOffset.x,
                                region.srcOffset.y + y, region.srcOffset.z + z),
                       rowBytes);
  }
  return llvm::Error::success();
}

llvm::Error spvb::icd::clearImage(const command::ClearImage &command) {
  const char *name = command.depthStencil ? "vkCmdClearDepthStencilImage"
                                          : "vkCmdClearColorImage";
  if (llvm::Error error = checkImage(command.image, name))
    return error;
  const Image &image = *command.image;
  const runtime::VulkanFormat *format = runtime::getVulkanFormat(image.format);
  std::vector<uint8_t> bytes(image.texelBytes);
  if (command.depthStencil) {
    if (!format || format->components)
      return fail(name, "the image is not a depth/stencil image");
  } else if (image.spirvFormat) {
    // The clear value is read as the format's kind: floats for float,
    // UNORM and SNORM formats, integers for the others.
    const runtime::ImageFormat &texels =
        *runtime::getImageFormat(image.spirvFormat);
    runtime::Texel texel;
    for (int c = 0; c < 4; ++c) {
      texel.f[c] = command.value.color.float32[c];
      texel.i[c] = texels.kind == runtime::NumericKind::Sint
                       ? uint64_t(int64_t(command.value.color.int32[c]))
                       : uint64_t(command.value.color.uint32[c]);
    }
    runtime::encodeTexel(texels, texel, bytes.data());
  } else if (format && format->components) {
    runtime::encodeColor(*format, getClearColor(*format, command.value.color),
                         bytes.data());
  } else {
    return fail(name, "the image is not a colour image");
  }
  for (const VkImageSubresourceRange &range : command.ranges) {
    uint32_t levels = range.levelCount == VK_REMAINING_MIP_LEVELS
                          ? image.levels - range.baseMipLevel
                          : range.levelCount;
    uint32_t layers = range.layerCount == VK_REMAINING_ARRAY_LAYERS
                          ? image.layers - range.baseArrayLayer
                          : range.layerCount;
    for (uint32_t level = range.baseMipLevel;
         level < range.baseMipLevel + levels && level < image.levels; ++level)
      for (uint32_t layer = range.baseArrayLayer;
           layer < range.baseArrayLayer + layers && layer < image.layers;
           ++layer) {
        uint8_t *texels = image.getData() + image.getOffset(level, layer);
        VkDeviceSize count = image.getLayerSize(level) / image.texelBytes;
        for (VkDeviceSize t = 0; t < count; ++t) {
          uint8_t *texel = texels + t * image.texelBytes;
          if (!command.depthStencil) {
            std::memcpy(texel, bytes.data(), image.texelBytes);
            continue;
          }
          // Each aspect writes only its own bytes.
          if (range.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT)
            runtime::encodeDepth(*format, command.value.depthStencil.depth,
                                 texel);
          if (range.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT)
            runtime::encodeStencil(
                *format, uint8_t(command.value.depthStencil.stencil), texel);
        }
      }
  }
  return llvm::Error::success();
}
