//===- VulkanFormats.h - Texels of Vulkan formats ---------------*- C++ -*-===//
//
// What a VkFormat's bytes mean, for vertex attributes, colour and
// depth/stencil attachments and images a script names by format: decoding
// a texel to four components and encoding four components into a texel,
// with the conversions of the Vulkan specification ("Fixed-Point Data
// Conversions", "sRGB transfer functions", the packed 10- and 11-bit
// floats): UNORM round(clamp(f) * (2^b - 1)), SNORM round(clamp(f, -1, 1) *
// (2^(b-1) - 1)), decoded SNORM clamped at -1, sRGB encoded per the EOTF's
// inverse before the UNORM conversion.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_VULKANFORMATS_H
#define SPVBRIDGE_CPU_RUNTIME_VULKANFORMATS_H

#include "llvm/ADT/StringRef.h"

#include <vulkan/vulkan_core.h>

#include <cmath>
#include <cstdint>

namespace spvb::runtime {

/// How a component's bits are read.
enum class ComponentKind : uint8_t {
  Unorm,
  Snorm,
  Uscaled,
  Sscaled,
  Uint,
  Sint,
  Srgb, ///< UNORM bits holding an sRGB-encoded colour (alpha stays UNORM)
  Sfloat,
  Ufloat, ///< unsigned small floats (B10G11R11, E5B9G9R9)
};

struct VulkanFormat {
  VkFormat format;
  /// "R8G8B8A8_UNORM", without the VK_FORMAT_ prefix.
  const char *name;
  unsigned texelBytes;
  /// Colour components (1-4), 0 for depth/stencil formats.
  unsigned components;
  ComponentKind kind;
  /// Depth/stencil formats: bits of depth and stencil (0 if absent).
  unsigned depthBits;
  unsigned stencilBits;
};

/// The format, or null for one this table does not describe.
const VulkanFormat *getVulkanFormat(VkFormat format);
/// The SPIR-V ImageFormat whose texels are \p format's (Vulkan's
/// compatibility table), or ImageFormatUnknown (0) for none.
uint32_t getSpirvImageFormat(VkFormat format);
/// The VkFormat of a SPIR-V ImageFormat, or VK_FORMAT_UNDEFINED.
VkFormat getVulkanImageFormat(uint32_t format);
/// By name ("B8G8R8A8_UNORM", case-sensitive), or null.
const VulkanFormat *findVulkanFormat(llvm::StringRef name);

/// Four components in RGBA order, whatever the format's memory order:
/// `f` for UNORM, SNORM, SCALED, SRGB and float formats (in linear space
/// for SRGB), `i` for UINT/SINT (sign-extended for SINT). Missing
/// components read as (0, 0, 0, 1).
struct Color {
  double f[4] = {0, 0, 0, 1};
  int64_t i[4] = {0, 0, 0, 1};
};

/// Decodes the colour texel at `bytes`.
Color decodeColor(const VulkanFormat &format, const uint8_t *bytes);
/// Encodes `color` (f or i, by the format's kind) into a texel.
void encodeColor(const VulkanFormat &format, const Color &color,
                 uint8_t *bytes);
/// For a format of one UNORM byte per component (R8G8B8A8, B8G8R8A8, R8,
/// ...): the component (0-3 for R, G, B, A) each byte stores, and their
/// count; 0 for any other format.
unsigned getUnorm8Order(const VulkanFormat &format, uint8_t order[4]);
/// A `bits`-wide UNORM value as encodeColor stores it: round(clamp(f) ×
/// (2^bits − 1)), ties up (Vulkan accepts either neighbour and recommends
/// the nearest; ties up does not depend on the FP rounding mode).
inline uint64_t encodeUnorm(double f, unsigned bits) {
  uint64_t max = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  if (!(f > 0)) // also NaN
    return 0;
  if (f >= 1)
    return max;
  return uint64_t(std::floor(f * double(max) + 0.5));
}
/// Whether the format's colour components are integers (UINT, SINT).
bool isIntegerFormat(const VulkanFormat &format);

/// Depth/stencil texels: depth in [0, 1] (UNORM) or as stored (SFLOAT);
/// stencil as an 8-bit value. Formats without one ignore it.
double decodeDepth(const VulkanFormat &format, const uint8_t *bytes);
void encodeDepth(const VulkanFormat &format, double depth, uint8_t *bytes);
/// The depth bits as stored, and their encoding of \p depth: for UNORM
/// formats they order as the depths do, so a depth test compares them
/// without decoding.
uint64_t readDepthBits(const VulkanFormat &format, const uint8_t *bytes);
uint64_t encodeDepthBits(const VulkanFormat &format, double depth);
/// Writes only the depth's own bytes.
void writeDepthBits(const VulkanFormat &format, uint64_t bits, uint8_t *bytes);
uint8_t decodeStencil(const VulkanFormat &format, const uint8_t *bytes);
void encodeStencil(const VulkanFormat &format, uint8_t stencil, uint8_t *bytes);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_VULKANFORMATS_H
