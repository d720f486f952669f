//===- ImageFormats.h - Texels of every SPIR-V image format -----*- C++ -*-===//
//
// Decoding a texel to four components and encoding it back, for the formats
// OpTypeImage can name (Vulkan's storage-image formats among them): float,
// UNORM, SNORM, signed and unsigned integer, and the packed formats; and
// for sampling, the Vulkan formats without a SPIR-V image format (BGRA,
// sRGB, 16-bit packed, depth), which decode through VulkanFormats.h.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_IMAGEFORMATS_H
#define SPVBRIDGE_CPU_RUNTIME_IMAGEFORMATS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace spvb::runtime {

enum class NumericKind { Float, Unorm, Snorm, Sint, Uint };

struct VulkanFormat;

struct ImageFormat {
  /// SPIR-V ImageFormat, or getSampledFormatId's id of a Vulkan format.
  uint32_t format;
  const char *name; ///< GLSL layout qualifier, e.g. "rgba8"
  unsigned components;
  unsigned texelBytes;
  NumericKind kind;
  /// For a Vulkan format without a SPIR-V one, that format: its texels
  /// decode as VulkanFormats.h says (RGBA order, sRGB to linear; depth, or
  /// stencil for S8, in the first component). Null for SPIR-V formats.
  const VulkanFormat *vulkan = nullptr;
};

/// The format, or null for Unknown and values SPIR-V does not define.
const ImageFormat *getImageFormat(uint32_t format);
/// The id image descriptors carry for a sampled image of Vulkan format
/// \p vkFormat that has no SPIR-V image format (a core VkFormat
/// VulkanFormats.h describes); getImageFormat takes it. 0 for others.
uint32_t getSampledFormatId(uint32_t vkFormat);
/// The format with this GLSL name, or null.
const ImageFormat *findImageFormat(llvm::StringRef name);

/// Four components: `f` for float, UNORM and SNORM formats, `i` (two's
/// complement bits, sign- or zero-extended) for integer formats. Missing
/// components read as (0, 0, 0, 1).
struct Texel {
  double f[4] = {0, 0, 0, 1};
  uint64_t i[4] = {0, 0, 0, 1};
};

/// How many coordinates address a texel within a layer for a SPIR-V Dim: 1
/// for 1D and Buffer, 3 for 3D, else 2 (a cube's faces are layers).
unsigned getImageDimensions(uint32_t dim);

Texel decodeTexel(const ImageFormat &format, const uint8_t *bytes);
/// double(i) / 255 for each byte: the division, not a multiplication by
/// 1/255, so that the fast paths decode exactly as the general one.
struct Unorm8Values {
  double values[256];
  constexpr Unorm8Values() : values() {
    for (unsigned i = 0; i < 256; ++i)
      values[i] = double(i) / 255.0;
  }
};
inline constexpr Unorm8Values kUnorm8Values;
/// The 256 values of an 8-bit UNORM component, as decodeTexel gives them
/// (inline: sampling loops keep their sums in registers).
inline const double *getUnorm8Values() { return kUnorm8Values.values; }
void encodeTexel(const ImageFormat &format, const Texel &texel, uint8_t *bytes);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_IMAGEFORMATS_H
