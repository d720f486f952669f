//===- ImageFormats.cpp - Texels of every SPIR-V image format -------------===//
#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/Support/MathExtras.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <iterator>

using namespace spvb::runtime;

namespace {

using K = NumericKind;

const ImageFormat kFormats[] = {
    {spv::ImageFormatRgba32f, "rgba32f", 4, 16, K::Float},
    {spv::ImageFormatRgba16f, "rgba16f", 4, 8, K::Float},
    {spv::ImageFormatR32f, "r32f", 1, 4, K::Float},
    {spv::ImageFormatRgba8, "rgba8", 4, 4, K::Unorm},
    {spv::ImageFormatRgba8Snorm, "rgba8_snorm", 4, 4, K::Snorm},
    {spv::ImageFormatRg32f, "rg32f", 2, 8, K::Float},
    {spv::ImageFormatRg16f, "rg16f", 2, 4, K::Float},
    {spv::ImageFormatR11fG11fB10f, "r11f_g11f_b10f", 3, 4, K::Float},
    {spv::ImageFormatR16f, "r16f", 1, 2, K::Float},
    {spv::ImageFormatRgba16, "rgba16", 4, 8, K::Unorm},
    {spv::ImageFormatRgb10A2, "rgb10_a2", 4, 4, K::Unorm},
    {spv::ImageFormatRg16, "rg16", 2, 4, K::Unorm},
    {spv::ImageFormatRg8, "rg8", 2, 2, K::Unorm},
    {spv::ImageFormatR16, "r16", 1, 2, K::Unorm},
    {spv::ImageFormatR8, "r8", 1, 1, K::Unorm},
    {spv::ImageFormatRgba16Snorm, "rgba16_snorm", 4, 8, K::Snorm},
    {spv::ImageFormatRg16Snorm, "rg16_snorm", 2, 4, K::Snorm},
    {spv::ImageFormatRg8Snorm, "rg8_snorm", 2, 2, K::Snorm},
    {spv::ImageFormatR16Snorm, "r16_snorm", 1, 2, K::Snorm},
    {spv::ImageFormatR8Snorm, "r8_snorm", 1, 1, K::Snorm},
    {spv::ImageFormatRgba32i, "rgba32i", 4, 16, K::Sint},
    {spv::ImageFormatRgba16i, "rgba16i", 4, 8, K::Sint},
    {spv::ImageFormatRgba8i, "rgba8i", 4, 4, K::Sint},
    {spv::ImageFormatR32i, "r32i", 1, 4, K::Sint},
    {spv::ImageFormatRg32i, "rg32i", 2, 8, K::Sint},
    {spv::ImageFormatRg16i, "rg16i", 2, 4, K::Sint},
    {spv::ImageFormatRg8i, "rg8i", 2, 2, K::Sint},
    {spv::ImageFormatR16i, "r16i", 1, 2, K::Sint},
    {spv::ImageFormatR8i, "r8i", 1, 1, K::Sint},
    {spv::ImageFormatRgba32ui, "rgba32ui", 4, 16, K::Uint},
    {spv::ImageFormatRgba16ui, "rgba16ui", 4, 8, K::Uint},
    {spv::ImageFormatRgba8ui, "rgba8ui", 4, 4, K::Uint},
    {spv::ImageFormatR32ui, "r32ui", 1, 4, K::Uint},
    {spv::ImageFormatRgb10a2ui, "rgb10_a2ui", 4, 4, K::Uint},
    {spv::ImageFormatRg32ui, "rg32ui", 2, 8, K::Uint},
    {spv::ImageFormatRg16ui, "rg16ui", 2, 4, K::Uint},
    {spv::ImageFormatRg8ui, "rg8ui", 2, 2, K::Uint},
    {spv::ImageFormatR16ui, "r16ui", 1, 2, K::Uint},
    {spv::ImageFormatR8ui, "r8ui", 1, 1, K::Uint},
    {spv::ImageFormatR64ui, "r64ui", 1, 8, K::Uint},
    {spv::ImageFormatR64i, "r64i", 1, 8, K::Sint},
};

bool isPacked(const ImageFormat &format) {
  return format.format == spv::ImageFormatR11fG11fB10f ||
         format.format == spv::ImageFormatRgb10A2 ||
         format.format == spv::ImageFormatRgb10a2ui;
}

/// Bits of each component of a packed format, lowest first.
void getPackedBits(const ImageFormat &format, unsigned bits[4]) {
  if (format.format == spv::ImageFormatR11fG11fB10f) {
    bits[0] = 11, bits[1] = 11, bits[2] = 10, bits[3] = 0;
    return;
  }
  bits[0] = bits[1] = bits[2] = 10;
  bits[3] = 2;
}

uint16_t toHalfBits(double value) {
  _Float16 half = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &half, 2);
  return bits;
}

double fromHalfBits(uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, 2);
  return static_cast<double>(half);
}

/// An unsigned 11- or 10-bit float (5-bit exponent with half's bias): the
/// top bits of the half, rounded; negative and NaN-free inputs clamp at 0.
uint32_t toSmallFloat(double value, unsigned mantissaBits) {
  if (std::isnan(value))
    return (0x1fu << mantissaBits) | 1;
  if (!(value > 0))
    return 0;
  unsigned shift = 10 - mantissaBits;
  uint32_t half = toHalfBits(value) & 0x7fff;
  if ((half >> 10) == 0x1f) // inf
    return 0x1fu << mantissaBits;
  uint32_t rounded = (half + (1u << (shift - 1))) >> shift;
  uint32_t maxFinite = (0x1eu << mantissaBits) | ((1u << mantissaBits) - 1);
  return std::min(rounded, maxFinite);
}

double fromSmallFloat(uint32_t bits, unsigned mantissaBits) {
  return fromHalfBits(static_cast<uint16_t>(bits << (10 - mantissaBits)));
}

uint64_t maxUnsigned(unsigned bits) {
  return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

} // namespace

/// Ids of Vulkan formats: the VkFormat under a bit no SPIR-V ImageFormat
/// has; core VkFormats are below 256.
constexpr uint32_t kVulkanFormatBit = 0x40000000;
constexpr uint32_t kCoreVkFormats = 256;

/// The sampled ImageFormats of the core Vulkan formats without a SPIR-V
/// one, by VkFormat; made once (sampling looks formats up per texel).
static const std::array<ImageFormat, kCoreVkFormats> &getVulkanFormats() {
  static const std::array<ImageFormat, kCoreVkFormats> table = [] {
    std::array<ImageFormat, kCoreVkFormats> formats{};
    for (uint32_t value = 1; value < kCoreVkFormats; ++value) {
      const VulkanFormat *vulkan = getVulkanFormat(VkFormat(value));
      if (!vulkan || getSpirvImageFormat(VkFormat(value)))
        continue;
      ImageFormat &format = formats[value];
      format.format = kVulkanFormatBit | value;
      format.name = vulkan->name;
      format.texelBytes = vulkan->texelBytes;
      format.vulkan = vulkan;
      format.components = vulkan->components ? vulkan->components : 1;
      using C = ComponentKind;
      switch (vulkan->components  ? vulkan->kind
              : vulkan->depthBits ? vulkan->kind
                                  : C::Uint) {
      case C::Unorm:
      case C::Srgb:
        format.kind = K::Unorm;
        break;
      case C::Snorm:
        format.kind = K::Snorm;
        break;
      case C::Uint:
        format.kind = K::Uint;
        break;
      case C::Sint:
        format.kind = K::Sint;
        break;
      default:
        format.kind = K::Float;
        break;
      }
    }
    return formats;
  }();
  return table;
}

uint32_t spvb::runtime::getSampledFormatId(uint32_t vkFormat) {
  return vkFormat < kCoreVkFormats && getVulkanFormats()[vkFormat].vulkan
             ? kVulkanFormatBit | vkFormat
             : 0;
}

const ImageFormat *spvb::runtime::getImageFormat(uint32_t format) {
  if (format & kVulkanFormatBit) {
    uint32_t value = format & ~kVulkanFormatBit;
    return value < kCoreVkFormats && getVulkanFormats()[value].vulkan
               ? &getVulkanFormats()[value]
               : nullptr;
  }
  for (const ImageFormat &entry : kFormats)
    if (entry.format == format)
      return &entry;
  return nullptr;
}

const ImageFormat *spvb::runtime::findImageFormat(llvm::StringRef name) {
  for (const ImageFormat &entry : kFormats)
    if (name == entry.name)
      return &entry;
  return nullptr;
}

unsigned spvb::runtime::getImageDimensions(uint32_t dim) {
  if (dim == spv::Dim1D || dim == spv::DimBuffer)
    return 1;
  return dim == spv::Dim3D ? 3 : 2;
}

/// A texel of a Vulkan format without a SPIR-V one.
static Texel decodeVulkanTexel(const VulkanFormat &format,
                               const uint8_t *bytes) {
  Texel texel;
  if (!format.components) {
    if (format.depthBits)
      texel.f[0] = decodeDepth(format, bytes);
    else
      texel.i[0] = decodeStencil(format, bytes);
    return texel;
  }
  Color color = decodeColor(format, bytes);
  for (unsigned c = 0; c < 4; ++c) {
    texel.f[c] = color.f[c];
    texel.i[c] = uint64_t(color.i[c]);
  }
  return texel;
}

Texel spvb::runtime::decodeTexel(const ImageFormat &format,
                                 const uint8_t *bytes) {
  if (format.vulkan)
    return decodeVulkanTexel(*format.vulkan, bytes);
  Texel texel;
  if (isPacked(format)) {
    uint32_t word;
    std::memcpy(&word, bytes, 4);
    unsigned bits[4];
    getPackedBits(format, bits);
    for (unsigned c = 0, shift = 0; c < format.components; shift += bits[c++]) {
      uint32_t value = (word >> shift) & maxUnsigned(bits[c]);
      if (format.kind == K::Float)
        texel.f[c] = fromSmallFloat(value, bits[c] - 5);
      else if (format.kind == K::Unorm)
        texel.f[c] = double(value) / double(maxUnsigned(bits[c]));
      else
        texel.i[c] = value;
    }
    return texel;
  }
  // Sampling decodes up to 8 texels per result: the common formats skip
  // the general loop's variable-sized copies and divisions.
  if (format.kind == K::Unorm && format.texelBytes == format.components) {
    for (unsigned c = 0; c < format.components; ++c)
      texel.f[c] = kUnorm8Values.values[bytes[c]];
    return texel;
  }
  if (format.kind == K::Float && format.texelBytes == 4 * format.components) {
    for (unsigned c = 0; c < format.components; ++c) {
      float value;
      std::memcpy(&value, bytes + 4 * c, 4);
      texel.f[c] = value;
    }
    return texel;
  }
  unsigned bytesPerComponent = format.texelBytes / format.components;
  unsigned bits = 8 * bytesPerComponent;
  for (unsigned c = 0; c < format.components; ++c) {
    uint64_t raw = 0;
    std::memcpy(&raw, bytes + c * bytesPerComponent, bytesPerComponent);
    switch (format.kind) {
    case K::Float:
      if (bytesPerComponent == 2) {
        texel.f[c] = fromHalfBits(static_cast<uint16_t>(raw));
      } else {
        float value;
        std::memcpy(&value, &raw, 4);
        texel.f[c] = value;
      }
      break;
    case K::Unorm:
      texel.f[c] = double(raw) / double(maxUnsigned(bits));
      break;
    case K::Snorm:
      texel.f[c] = std::max(double(llvm::SignExtend64(raw, bits)) /
                                double(maxUnsigned(bits - 1)),
                            -1.0);
      break;
    case K::Sint:
      texel.i[c] = static_cast<uint64_t>(llvm::SignExtend64(raw, bits));
      break;
    case K::Uint:
      texel.i[c] = raw;
      break;
    }
  }
  return texel;
}

void spvb::runtime::encodeTexel(const ImageFormat &format, const Texel &texel,
                                uint8_t *bytes) {
  if (format.vulkan) {
    // Only colour formats are written (as attachments or by shaders).
    Color color;
    for (unsigned c = 0; c < 4; ++c) {
      color.f[c] = texel.f[c];
      color.i[c] = int64_t(texel.i[c]);
    }
    if (format.vulkan->components)
      encodeColor(*format.vulkan, color, bytes);
    return;
  }
  auto normalized = [](double value, double low, uint64_t scale) -> uint64_t {
    if (std::isnan(value))
      return 0;
    double clamped = std::clamp(value, low, 1.0);
    return static_cast<uint64_t>(
        static_cast<int64_t>(std::nearbyint(clamped * double(scale))));
  };
  if (isPacked(format)) {
    unsigned bits[4];
    getPackedBits(format, bits);
    uint32_t word = 0;
    for (unsigned c = 0, shift = 0; c < format.components; shift += bits[c++]) {
      uint64_t value;
      if (format.kind == K::Float)
        value = toSmallFloat(texel.f[c], bits[c] - 5);
      else if (format.kind == K::Unorm)
        value = normalized(texel.f[c], 0.0, maxUnsigned(bits[c]));
      else
        value = texel.i[c];
      word |= uint32_t(value & maxUnsigned(bits[c])) << shift;
    }
    std::memcpy(bytes, &word, 4);
    return;
  }
  unsigned bytesPerComponent = format.texelBytes / format.components;
  unsigned bits = 8 * bytesPerComponent;
  for (unsigned c = 0; c < format.components; ++c) {
    uint64_t raw = 0;
    switch (format.kind) {
    case K::Float:
      if (bytesPerComponent == 2) {
        raw = toHalfBits(texel.f[c]);
      } else {
        float value = static_cast<float>(texel.f[c]);
        std::memcpy(&raw, &value, 4);
      }
      break;
    case K::Unorm:
      raw = normalized(texel.f[c], 0.0, maxUnsigned(bits));
      break;
    case K::Snorm:
      raw = normalized(texel.f[c], -1.0, maxUnsigned(bits - 1));
      break;
    case K::Sint:
    case K::Uint:
      raw = texel.i[c]; // integers keep their low bits
      break;
    }
    std::memcpy(bytes + c * bytesPerComponent, &raw, bytesPerComponent);
  }
}
