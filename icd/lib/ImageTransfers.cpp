//===- ImageTransfers.cpp - Copies and clears of images -------------------===//
//
// Images are in the runtime's layout (Objects.h), so a region is rows of
// texels: each copy moves one row of one slice of one layer at a time.
//
//===----------------------------------------------------------------------===//
#include "ImageTransfers.h"
#include "HandleChecks.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"

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
             image.texelBytes;
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
  for (const VkBufferImageCopy &region : command.regions) {
    const VkImageSubresourceLayers &layers = region.imageSubresource;
    if (!fits(image, layers.mipLevel, layers.baseArrayLayer, layers.layerCount,
              region.imageOffset, region.imageExtent))
      return fail(name, "a region lies outside the image");
    uint32_t rowLength = region.bufferRowLength ? region.bufferRowLength
                                                : region.imageExtent.width;
    uint32_t imageHeight = region.bufferImageHeight ? region.bufferImageHeight
                                                    : region.imageExtent.height;
    VkDeviceSize rowBytes =
        VkDeviceSize(region.imageExtent.width) * image.texelBytes;
    VkDeviceSize last =
        region.bufferOffset +
        ((VkDeviceSize(layers.layerCount) * region.imageExtent.depth - 1) *
             imageHeight +
         region.imageExtent.height - 1) *
            rowLength * image.texelBytes +
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
                  rowLength * image.texelBytes;
          if (command.toImage)
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
  for (const VkImageCopy &region : command.regions) {
    const VkImageSubresourceLayers &from = region.srcSubresource,
                                   &to = region.dstSubresource;
    if (!fits(source, from.mipLevel, from.baseArrayLayer, from.layerCount,
              region.srcOffset, region.extent) ||
        !fits(destination, to.mipLevel, to.baseArrayLayer, to.layerCount,
              region.dstOffset, region.extent))
      return fail("vkCmdCopyImage", "a region lies outside an image");
    VkDeviceSize rowBytes =
        VkDeviceSize(region.extent.width) * source.texelBytes;
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

llvm::Error
spvb::icd::clearColorImage(const command::ClearColorImage &command) {
  if (llvm::Error error = checkImage(command.image, "vkCmdClearColorImage"))
    return error;
  const Image &image = *command.image;
  const runtime::ImageFormat &format =
      *runtime::getImageFormat(image.spirvFormat);
  // The clear value is read as the format's kind: floats for float,
  // UNORM and SNORM formats, integers for the others.
  runtime::Texel texel;
  for (int c = 0; c < 4; ++c) {
    texel.f[c] = command.color.float32[c];
    texel.i[c] = format.kind == runtime::NumericKind::Sint
                     ? uint64_t(int64_t(command.color.int32[c]))
                     : uint64_t(command.color.uint32[c]);
  }
  uint8_t bytes[16];
  runtime::encodeTexel(format, texel, bytes);
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
        for (VkDeviceSize t = 0; t < count; ++t)
          std::memcpy(texels + t * image.texelBytes, bytes, image.texelBytes);
      }
  }
  return llvm::Error::success();
}
