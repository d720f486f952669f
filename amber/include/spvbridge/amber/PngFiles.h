//===- PngFiles.h - Images as PNG files (libpng) ----------------*- C++ -*-===//
//
// `BUFFER ... FILE PNG` reads a PNG as 8-bit RGBA texels; `spv-run SCRIPT
// --dump-images DIR` writes every attachment and image of a script as PNG,
// each texel converted from its Vulkan format to 8-bit RGBA.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_PNGFILES_H
#define SPVBRIDGE_TOOLS_AMBER_PNGFILES_H

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace spvb::amber {

struct PngImage {
  uint32_t width = 0, height = 0;
  /// Rows top to bottom, 4 bytes (R, G, B, A) per texel.
  std::vector<uint8_t> rgba;
};

/// Errors name the file and libpng's reason.
llvm::Expected<PngImage> readPng(llvm::StringRef path);

/// `width` x `height` texels of `format` (tightly packed rows) as 8-bit
/// RGBA: colours clamped to [0, 1] and rounded, depth as grey.
PngImage convertToRgba8(const runtime::VulkanFormat &format,
                        const uint8_t *texels, uint32_t width, uint32_t height);

/// Writes `width` x `height` texels of `format` (tightly packed rows).
llvm::Error writePng(llvm::StringRef path, const runtime::VulkanFormat &format,
                     const uint8_t *texels, uint32_t width, uint32_t height);

/// Writes 8-bit RGBA texels as they are.
llvm::Error writePng(llvm::StringRef path, const PngImage &image);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_PNGFILES_H
