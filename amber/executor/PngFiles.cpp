//===- PngFiles.cpp - Images as PNG files (libpng) ------------------------===//
#include "spvbridge/amber/PngFiles.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace spvb;
using namespace spvb::amber;

static llvm::Error pngError(llvm::StringRef path, const png_image &image,
                            llvm::StringRef action) {
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(), "cannot %s PNG file '%s': %s",
      action.str().c_str(), path.str().c_str(), image.message);
}

llvm::Expected<PngImage> spvb::amber::readPng(llvm::StringRef path) {
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  std::string file = path.str();
  if (!png_image_begin_read_from_file(&image, file.c_str()))
    return pngError(path, image, "read");
  // Texels as stored: no gamma conversion (Amber copies the bytes).
  image.format = PNG_FORMAT_RGBA;
  PngImage result;
  result.width = image.width;
  result.height = image.height;
  result.rgba.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, result.rgba.data(), 0, nullptr))
    return pngError(path, image, "read");
  return result;
}

PngImage spvb::amber::convertToRgba8(const runtime::VulkanFormat &format,
                                     const uint8_t *texels, uint32_t width,
                                     uint32_t height) {
  PngImage result;
  result.width = width;
  result.height = height;
  std::vector<uint8_t> &rgba = result.rgba;
  rgba.resize(uint64_t(width) * height * 4);
  for (uint64_t i = 0; i < uint64_t(width) * height; ++i) {
    const uint8_t *texel = texels + i * format.texelBytes;
    double channels[4] = {0, 0, 0, 1};
    if (format.components) {
      runtime::Color color = runtime::decodeColor(format, texel);
      for (int c = 0; c < 4; ++c)
        channels[c] = color.f[c];
    } else if (format.depthBits) {
      // Depth as grey.
      channels[0] = channels[1] = channels[2] =
          runtime::decodeDepth(format, texel);
    }
    for (int c = 0; c < 4; ++c) {
      double value = std::isnan(channels[c]) ? 0 : channels[c];
      rgba[i * 4 + c] = static_cast<uint8_t>(
          std::floor(std::clamp(value, 0.0, 1.0) * 255.0 + 0.5));
    }
  }
  return result;
}

llvm::Error spvb::amber::writePng(llvm::StringRef path,
                                  const runtime::VulkanFormat &format,
                                  const uint8_t *texels, uint32_t width,
                                  uint32_t height) {
  return writePng(path, convertToRgba8(format, texels, width, height));
}

llvm::Error spvb::amber::writePng(llvm::StringRef path, const PngImage &rgba) {
  png_image image;
  std::memset(&image, 0, sizeof(image));
  image.version = PNG_IMAGE_VERSION;
  image.width = rgba.width;
  image.height = rgba.height;
  image.format = PNG_FORMAT_RGBA;
  std::string file = path.str();
  if (!png_image_write_to_file(&image, file.c_str(), 0, rgba.rgba.data(), 0,
                               nullptr))
    return pngError(path, image, "write");
  return llvm::Error::success();
}
