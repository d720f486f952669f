//===- ImageBlits.cpp - Copies with scaling and conversion ----------------===//
//
// Texels are decoded to the runtime's colours (cpu_runtime/VulkanFormats.h,
// RGBA in linear space, whatever the memory order) and encoded into the
// destination's format, so a blit converts between any two colour formats
// the runtime describes; depth and stencil are copied by value, nearest
// only, between images of one format.
//
//===----------------------------------------------------------------------===//
#include "ImageBlits.h"
#include "HandleChecks.h"

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace spvb;
using namespace spvb::icd;

static constexpr const char *kName = "vkCmdBlitImage";

static llvm::Error fail(const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "error: " + llvm::Twine(kName) + ": " + what);
}

static llvm::Expected<const runtime::VulkanFormat *>
getFormat(const Image *image, const char *which) {
  if (llvm::Error error = checkHandle(image, kName, which))
    return error;
  if (!image->memory)
    return fail(llvm::Twine(which) + " has no memory bound");
  if (image->samples != 1)
    return fail(llvm::Twine(which) +
                " is multisampled (vkCmdResolveImage resolves it)");
  const runtime::VulkanFormat *format = runtime::getVulkanFormat(image->format);
  if (!format)
    return fail(llvm::formatv("{0} has format {1}, which is not blitted (see "
                              "vkGetPhysicalDeviceFormatProperties)",
                              which, int(image->format)));
  return format;
}

namespace {

/// One layer of one mip level of an image, read or written by texel.
struct Level {
  const Image &image;
  uint32_t level;
  uint32_t layer;
  VkExtent3D extent;

  Level(const Image &image, uint32_t level, uint32_t layer)
      : image(image), level(level), layer(layer),
        extent(image.getLevelExtent(level)) {}
  uint8_t *at(int64_t x, int64_t y, int64_t z) const {
    return image.getData() + image.getOffset(level, layer) +
           ((uint64_t(z) * extent.height + uint64_t(y)) * extent.width +
            uint64_t(x)) *
               image.texelBytes;
  }
  int64_t size(unsigned axis) const {
    return axis == 0 ? extent.width : axis == 1 ? extent.height : extent.depth;
  }
};

/// Where a destination texel's centre falls in the source region, along
/// one axis.
struct AxisMap {
  double source0, scale, destination0;
  double map(int64_t destination) const {
    return source0 + (double(destination) + 0.5 - destination0) * scale;
  }
};

} // namespace

/// Whether [a, b) (either order) lies within [0, size].
static bool inside(int32_t a, int32_t b, int64_t size) {
  return std::min(a, b) >= 0 && std::max<int64_t>(a, b) <= size;
}

/// The source's colour at \p u (texel coordinates) by \p filter.
static runtime::Color filterColor(const Level &source,
                                  const runtime::VulkanFormat &format,
                                  const double u[3], VkFilter filter,
                                  unsigned axes) {
  auto clampAxis = [&](int64_t i, unsigned axis) {
    return std::clamp<int64_t>(i, 0, source.size(axis) - 1);
  };
  if (filter == VK_FILTER_NEAREST) {
    int64_t i[3] = {0, 0, 0};
    for (unsigned a = 0; a < axes; ++a)
      i[a] = clampAxis(int64_t(std::floor(u[a])), a);
    return runtime::decodeColor(format, source.at(i[0], i[1], i[2]));
  }
  int64_t low[3] = {0, 0, 0}, high[3] = {0, 0, 0};
  double weight[3] = {0, 0, 0};
  for (unsigned a = 0; a < axes; ++a) {
    double shifted = u[a] - 0.5, floor = std::floor(shifted);
    low[a] = clampAxis(int64_t(floor), a);
    high[a] = clampAxis(int64_t(floor) + 1, a);
    weight[a] = shifted - floor;
  }
  runtime::Color sum;
  for (int c = 0; c < 4; ++c)
    sum.f[c] = 0;
  for (unsigned corner = 0; corner < (1u << axes); ++corner) {
    double w = 1;
    int64_t i[3] = {0, 0, 0};
    for (unsigned a = 0; a < axes; ++a) {
      bool up = corner >> a & 1;
      i[a] = up ? high[a] : low[a];
      w *= up ? weight[a] : 1 - weight[a];
    }
    runtime::Color texel =
        runtime::decodeColor(format, source.at(i[0], i[1], i[2]));
    for (int c = 0; c < 4; ++c)
      sum.f[c] += w * texel.f[c];
  }
  return sum;
}

llvm::Error spvb::icd::blitImage(const command::BlitImage &command) {
  llvm::Expected<const runtime::VulkanFormat *> sourceFormat =
      getFormat(command.source, "the source image");
  if (!sourceFormat)
    return sourceFormat.takeError();
  llvm::Expected<const runtime::VulkanFormat *> destinationFormat =
      getFormat(command.destination, "the destination image");
  if (!destinationFormat)
    return destinationFormat.takeError();
  const runtime::VulkanFormat &from = **sourceFormat, &to = **destinationFormat;
  bool depthStencil = !from.components || !to.components;
  bool integer = from.components && runtime::isIntegerFormat(from);
  if (depthStencil && command.source->format != command.destination->format)
    return fail("depth/stencil images are blitted only between images of "
                "one format");
  if (from.components && to.components &&
      integer != runtime::isIntegerFormat(to))
    return fail("an integer format is blitted only to an integer format");
  if ((depthStencil || integer) && command.filter != VK_FILTER_NEAREST)
    return fail("depth/stencil and integer formats are blitted with "
                "VK_FILTER_NEAREST only");
  if (command.filter != VK_FILTER_NEAREST && command.filter != VK_FILTER_LINEAR)
    return fail(llvm::formatv("filter {0} is not supported (nearest and "
                              "linear are)",
                              int(command.filter)));
  const Image &source = *command.source, &destination = *command.destination;
  unsigned axes = source.type == VK_IMAGE_TYPE_3D   ? 3
                  : source.type == VK_IMAGE_TYPE_1D ? 1
                                                    : 2;
  for (const VkImageBlit &region : command.regions) {
    const VkImageSubresourceLayers &sub = region.srcSubresource,
                                   &dub = region.dstSubresource;
    if (sub.mipLevel >= source.levels || dub.mipLevel >= destination.levels ||
        sub.baseArrayLayer + sub.layerCount > source.layers ||
        dub.baseArrayLayer + dub.layerCount > destination.layers ||
        sub.layerCount != dub.layerCount)
      return fail("a region names mip levels or layers the images lack");
    Level sourceLevel(source, sub.mipLevel, 0),
        destinationLevel(destination, dub.mipLevel, 0);
    const VkOffset3D *s = region.srcOffsets, *d = region.dstOffsets;
    if (!inside(s[0].x, s[1].x, sourceLevel.size(0)) ||
        !inside(s[0].y, s[1].y, sourceLevel.size(1)) ||
        !inside(s[0].z, s[1].z, sourceLevel.size(2)) ||
        !inside(d[0].x, d[1].x, destinationLevel.size(0)) ||
        !inside(d[0].y, d[1].y, destinationLevel.size(1)) ||
        !inside(d[0].z, d[1].z, destinationLevel.size(2)))
      return fail("a region lies outside an image");
    AxisMap maps[3];
    int32_t begin[3], end[3];
    const int32_t source0[3] = {s[0].x, s[0].y, s[0].z},
                  source1[3] = {s[1].x, s[1].y, s[1].z},
                  target0[3] = {d[0].x, d[0].y, d[0].z},
                  target1[3] = {d[1].x, d[1].y, d[1].z};
    for (unsigned a = 0; a < 3; ++a) {
      begin[a] = std::min(target0[a], target1[a]);
      end[a] = std::max(target0[a], target1[a]);
      int32_t span = target1[a] - target0[a];
      maps[a] = {double(source0[a]),
                 span ? double(source1[a] - source0[a]) / double(span) : 0,
                 double(target0[a])};
    }
    for (uint32_t layer = 0; layer < sub.layerCount; ++layer) {
      Level in(source, sub.mipLevel, sub.baseArrayLayer + layer);
      Level out(destination, dub.mipLevel, dub.baseArrayLayer + layer);
      for (int32_t z = begin[2]; z < end[2]; ++z)
        for (int32_t y = begin[1]; y < end[1]; ++y)
          for (int32_t x = begin[0]; x < end[0]; ++x) {
            double u[3] = {maps[0].map(x), maps[1].map(y), maps[2].map(z)};
            uint8_t *texel = out.at(x, y, z);
            if (!depthStencil) {
              runtime::encodeColor(
                  to, filterColor(in, from, u, command.filter, axes), texel);
              continue;
            }
            int64_t i[3] = {0, 0, 0};
            for (unsigned a = 0; a < axes; ++a)
              i[a] = std::clamp<int64_t>(int64_t(std::floor(u[a])), 0,
                                         in.size(a) - 1);
            const uint8_t *value = in.at(i[0], i[1], i[2]);
            if (sub.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT)
              runtime::encodeDepth(to, runtime::decodeDepth(from, value),
                                   texel);
            if (sub.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT)
              runtime::encodeStencil(to, runtime::decodeStencil(from, value),
                                     texel);
          }
    }
  }
  return llvm::Error::success();
}
