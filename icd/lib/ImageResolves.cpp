//===- ImageResolves.cpp - Multisampled images made single-sampled --------===//
//
// The runtime resolves whole attachments (cpu_runtime/GraphicsPipeline.h);
// a region is resolved by starting both attachments at its corner and
// keeping their rows' lengths.
//
//===----------------------------------------------------------------------===//
#include "ImageResolves.h"
#include "HandleChecks.h"

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace spvb;
using namespace spvb::icd;

static constexpr const char *kName = "vkCmdResolveImage";

static llvm::Error fail(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: " + llvm::Twine(kName) + ": " + what);
}

void spvb::icd::resolveArea(const runtime::Attachment &from,
                            const runtime::Attachment &to, VkRect2D area) {
  uint32_t x0 = std::max(0, area.offset.x), y0 = std::max(0, area.offset.y);
  uint32_t x1 = std::min<int64_t>(int64_t(area.offset.x) + area.extent.width,
                                  std::min(from.width, to.width));
  uint32_t y1 = std::min<int64_t>(int64_t(area.offset.y) + area.extent.height,
                                  std::min(from.height, to.height));
  if (x0 >= x1 || y0 >= y1)
    return;
  runtime::Attachment source = from, destination = to;
  source.data = from.at(x0, y0);
  destination.data = to.at(x0, y0);
  runtime::resolveAttachment(source, destination, x1 - x0, y1 - y0);
}

/// Layer \p layer of \p image (level 0, the only one a multisampled image
/// has) as an attachment.
static runtime::Attachment getLayer(const Image &image, uint32_t level,
                                    uint32_t layer) {
  runtime::Attachment attachment;
  attachment.data = image.getData() + image.getOffset(level, layer);
  attachment.format = runtime::getVulkanFormat(image.format);
  VkExtent3D extent = image.getLevelExtent(level);
  attachment.width = extent.width;
  attachment.height = extent.height;
  attachment.samples = image.samples;
  return attachment;
}

llvm::Error spvb::icd::resolveImage(const command::ResolveImage &command) {
  for (auto [image, which] :
       {std::pair(command.source, "the source image"),
        std::pair(command.destination, "the destination image")}) {
    if (llvm::Error error = checkHandle(image, kName, which))
      return error;
    if (!image->memory)
      return fail(llvm::Twine(which) + " has no memory bound");
  }
  const Image &source = *command.source, &destination = *command.destination;
  if (source.samples == 1)
    return fail("the source image has one sample; only multisampled images "
                "are resolved");
  if (destination.samples != 1)
    return fail("the destination image is multisampled");
  if (source.format != destination.format ||
      !runtime::getVulkanFormat(source.format) ||
      !runtime::getVulkanFormat(source.format)->components)
    return fail(llvm::formatv("the images' formats ({0} and {1}) must be one "
                              "colour format",
                              int(source.format), int(destination.format)));
  for (const VkImageResolve &region : command.regions) {
    const VkImageSubresourceLayers &from = region.srcSubresource,
                                   &to = region.dstSubresource;
    if (from.baseArrayLayer + from.layerCount > source.layers ||
        to.baseArrayLayer + to.layerCount > destination.layers ||
        to.mipLevel >= destination.levels || from.mipLevel >= source.levels)
      return fail("a region names layers or levels the images do not have");
    VkExtent3D sourceExtent = source.getLevelExtent(from.mipLevel);
    VkExtent3D destinationExtent = destination.getLevelExtent(to.mipLevel);
    auto inside = [](VkOffset3D offset, VkExtent3D extent, VkExtent3D size) {
      return offset.x >= 0 && offset.y >= 0 &&
             uint64_t(offset.x) + extent.width <= size.width &&
             uint64_t(offset.y) + extent.height <= size.height;
    };
    if (!inside(region.srcOffset, region.extent, sourceExtent) ||
        !inside(region.dstOffset, region.extent, destinationExtent))
      return fail("a region lies outside an image");
    for (uint32_t layer = 0; layer < from.layerCount; ++layer) {
      runtime::Attachment in =
          getLayer(source, from.mipLevel, from.baseArrayLayer + layer);
      runtime::Attachment out =
          getLayer(destination, to.mipLevel, to.baseArrayLayer + layer);
      in.data = in.at(region.srcOffset.x, region.srcOffset.y);
      out.data = out.at(region.dstOffset.x, region.dstOffset.y);
      runtime::resolveAttachment(in, out, region.extent.width,
                                 region.extent.height);
    }
  }
  return llvm::Error::success();
}
