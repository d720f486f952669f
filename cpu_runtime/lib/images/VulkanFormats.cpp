//===- VulkanFormats.cpp - Texels of Vulkan formats -----------------------===//
//
// One table row per format. A colour format's bit layout is read from its
// name at compile time, so widths and order cannot drift from the name, and
// a static_assert checks each row's texel size and component count against
// it. Memory order follows "Format Definition": unpacked components are
// consecutive little-endian fields in name order; a _PACKn format is one
// little-endian n-bit word whose first-named component is in the most
// significant bits.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MathExtras.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

using namespace spvb::runtime;

namespace {

using K = ComponentKind;

/// RGBA slot of E5B9G9R9's shared exponent, which is no colour component.
constexpr unsigned kExponentSlot = 4;

/// A colour format's fields in name order: RGBA slot and width of each.
struct Layout {
  unsigned fields = 0;
  unsigned slot[4] = {};
  unsigned bits[4] = {};
  bool packed = false;
};

/// "A2B10G10R10_UNORM_PACK32" -> A:2 B:10 G:10 R:10, packed. Depth/stencil
/// names (D16_UNORM, S8_UINT, X8_D24_...) give no fields.
constexpr Layout parseLayout(const char *name) {
  Layout layout;
  const char *p = name;
  while (*p && *p != '_') {
    unsigned slot = 0;
    switch (*p) {
    case 'R':
      slot = 0;
      break;
    case 'G':
      slot = 1;
      break;
    case 'B':
      slot = 2;
      break;
    case 'A':
      slot = 3;
      break;
    case 'E':
      slot = kExponentSlot;
      break;
    default:
      return Layout();
    }
    unsigned bits = 0;
    for (++p; *p >= '0' && *p <= '9'; ++p)
      bits = bits * 10 + unsigned(*p - '0');
    layout.slot[layout.fields] = slot;
    layout.bits[layout.fields] = bits;
    ++layout.fields;
  }
  for (; *p; ++p)
    if (p[0] == '_' && p[1] == 'P' && p[2] == 'A' && p[3] == 'C' && p[4] == 'K')
      layout.packed = true;
  return layout;
}

struct Entry {
  VulkanFormat format;
  Layout layout;
};

#define COLOR(NAME, BYTES, COMPONENTS, KIND)                                   \
  {{VK_FORMAT_##NAME, #NAME, BYTES, COMPONENTS, K::KIND, 0, 0},                \
   parseLayout(#NAME)}
#define DEPTH_STENCIL(NAME, BYTES, KIND, DEPTH, STENCIL)                       \
  {{VK_FORMAT_##NAME, #NAME, BYTES, 0, K::KIND, DEPTH, STENCIL}, Layout()}

// Every VkFormat from 1 to 130: the core formats without block compression.
// Depth/stencil rows take the kind of their depth (of the stencil for
// S8_UINT).
constexpr Entry kEntries[] = {
    COLOR(R4G4_UNORM_PACK8, 1, 2, Unorm),
    COLOR(R4G4B4A4_UNORM_PACK16, 2, 4, Unorm),
    COLOR(B4G4R4A4_UNORM_PACK16, 2, 4, Unorm),
    COLOR(R5G6B5_UNORM_PACK16, 2, 3, Unorm),
    COLOR(B5G6R5_UNORM_PACK16, 2, 3, Unorm),
    COLOR(R5G5B5A1_UNORM_PACK16, 2, 4, Unorm),
    COLOR(B5G5R5A1_UNORM_PACK16, 2, 4, Unorm),
    COLOR(A1R5G5B5_UNORM_PACK16, 2, 4, Unorm),
    COLOR(R8_UNORM, 1, 1, Unorm),
    COLOR(R8_SNORM, 1, 1, Snorm),
    COLOR(R8_USCALED, 1, 1, Uscaled),
    COLOR(R8_SSCALED, 1, 1, Sscaled),
    COLOR(R8_UINT, 1, 1, Uint),
    COLOR(R8_SINT, 1, 1, Sint),
    COLOR(R8_SRGB, 1, 1, Srgb),
    COLOR(R8G8_UNORM, 2, 2, Unorm),
    COLOR(R8G8_SNORM, 2, 2, Snorm),
    COLOR(R8G8_USCALED, 2, 2, Uscaled),
    COLOR(R8G8_SSCALED, 2, 2, Sscaled),
    COLOR(R8G8_UINT, 2, 2, Uint),
    COLOR(R8G8_SINT, 2, 2, Sint),
    COLOR(R8G8_SRGB, 2, 2, Srgb),
    COLOR(R8G8B8_UNORM, 3, 3, Unorm),
    COLOR(R8G8B8_SNORM, 3, 3, Snorm),
    COLOR(R8G8B8_USCALED, 3, 3, Uscaled),
    COLOR(R8G8B8_SSCALED, 3, 3, Sscaled),
    COLOR(R8G8B8_UINT, 3, 3, Uint),
    COLOR(R8G8B8_SINT, 3, 3, Sint),
    COLOR(R8G8B8_SRGB, 3, 3, Srgb),
    COLOR(B8G8R8_UNORM, 3, 3, Unorm),
    COLOR(B8G8R8_SNORM, 3, 3, Snorm),
    COLOR(B8G8R8_USCALED, 3, 3, Uscaled),
    COLOR(B8G8R8_SSCALED, 3, 3, Sscaled),
    COLOR(B8G8R8_UINT, 3, 3, Uint),
    COLOR(B8G8R8_SINT, 3, 3, Sint),
    COLOR(B8G8R8_SRGB, 3, 3, Srgb),
    COLOR(R8G8B8A8_UNORM, 4, 4, Unorm),
    COLOR(R8G8B8A8_SNORM, 4, 4, Snorm),
    COLOR(R8G8B8A8_USCALED, 4, 4, Uscaled),
    COLOR(R8G8B8A8_SSCALED, 4, 4, Sscaled),
    COLOR(R8G8B8A8_UINT, 4, 4, Uint),
    COLOR(R8G8B8A8_SINT, 4, 4, Sint),
    COLOR(R8G8B8A8_SRGB, 4, 4, Srgb),
    COLOR(B8G8R8A8_UNORM, 4, 4, Unorm),
    COLOR(B8G8R8A8_SNORM, 4, 4, Snorm),
    COLOR(B8G8R8A8_USCALED, 4, 4, Uscaled),
    COLOR(B8G8R8A8_SSCALED, 4, 4, Sscaled),
    COLOR(B8G8R8A8_UINT, 4, 4, Uint),
    COLOR(B8G8R8A8_SINT, 4, 4, Sint),
    COLOR(B8G8R8A8_SRGB, 4, 4, Srgb),
    COLOR(A8B8G8R8_UNORM_PACK32, 4, 4, Unorm),
    COLOR(A8B8G8R8_SNORM_PACK32, 4, 4, Snorm),
    COLOR(A8B8G8R8_USCALED_PACK32, 4, 4, Uscaled),
    COLOR(A8B8G8R8_SSCALED_PACK32, 4, 4, Sscaled),
    COLOR(A8B8G8R8_UINT_PACK32, 4, 4, Uint),
    COLOR(A8B8G8R8_SINT_PACK32, 4, 4, Sint),
    COLOR(A8B8G8R8_SRGB_PACK32, 4, 4, Srgb),
    COLOR(A2R10G10B10_UNORM_PACK32, 4, 4, Unorm),
    COLOR(A2R10G10B10_SNORM_PACK32, 4, 4, Snorm),
    COLOR(A2R10G10B10_USCALED_PACK32, 4, 4, Uscaled),
    COLOR(A2R10G10B10_SSCALED_PACK32, 4, 4, Sscaled),
    COLOR(A2R10G10B10_UINT_PACK32, 4, 4, Uint),
    COLOR(A2R10G10B10_SINT_PACK32, 4, 4, Sint),
    COLOR(A2B10G10R10_UNORM_PACK32, 4, 4, Unorm),
    COLOR(A2B10G10R10_SNORM_PACK32, 4, 4, Snorm),
    COLOR(A2B10G10R10_USCALED_PACK32, 4, 4, Uscaled),
    COLOR(A2B10G10R10_SSCALED_PACK32, 4, 4, Sscaled),
    COLOR(A2B10G10R10_UINT_PACK32, 4, 4, Uint),
    COLOR(A2B10G10R10_SINT_PACK32, 4, 4, Sint),
    COLOR(R16_UNORM, 2, 1, Unorm),
    COLOR(R16_SNORM, 2, 1, Snorm),
    COLOR(R16_USCALED, 2, 1, Uscaled),
    COLOR(R16_SSCALED, 2, 1, Sscaled),
    COLOR(R16_UINT, 2, 1, Uint),
    COLOR(R16_SINT, 2, 1, Sint),
    COLOR(R16_SFLOAT, 2, 1, Sfloat),
    COLOR(R16G16_UNORM, 4, 2, Unorm),
    COLOR(R16G16_SNORM, 4, 2, Snorm),
    COLOR(R16G16_USCALED, 4, 2, Uscaled),
    COLOR(R16G16_SSCALED, 4, 2, Sscaled),
    COLOR(R16G16_UINT, 4, 2, Uint),
    COLOR(R16G16_SINT, 4, 2, Sint),
    COLOR(R16G16_SFLOAT, 4, 2, Sfloat),
    COLOR(R16G16B16_UNORM, 6, 3, Unorm),
    COLOR(R16G16B16_SNORM, 6, 3, Snorm),
    COLOR(R16G16B16_USCALED, 6, 3, Uscaled),
    COLOR(R16G16B16_SSCALED, 6, 3, Sscaled),
    COLOR(R16G16B16_UINT, 6, 3, Uint),
    COLOR(R16G16B16_SINT, 6, 3, Sint),
    COLOR(R16G16B16_SFLOAT, 6, 3, Sfloat),
    COLOR(R16G16B16A16_UNORM, 8, 4, Unorm),
    COLOR(R16G16B16A16_SNORM, 8, 4, Snorm),
    COLOR(R16G16B16A16_USCALED, 8, 4, Uscaled),
    COLOR(R16G16B16A16_SSCALED, 8, 4, Sscaled),
    COLOR(R16G16B16A16_UINT, 8, 4, Uint),
    COLOR(R16G16B16A16_SINT, 8, 4, Sint),
    COLOR(R16G16B16A16_SFLOAT, 8, 4, Sfloat),
    COLOR(R32_UINT, 4, 1, Uint),
    COLOR(R32_SINT, 4, 1, Sint),
    COLOR(R32_SFLOAT, 4, 1, Sfloat),
    COLOR(R32G32_UINT, 8, 2, Uint),
    COLOR(R32G32_SINT, 8, 2, Sint),
    COLOR(R32G32_SFLOAT, 8, 2, Sfloat),
    COLOR(R32G32B32_UINT, 12, 3, Uint),
    COLOR(R32G32B32_SINT, 12, 3, Sint),
    COLOR(R32G32B32_SFLOAT, 12, 3, Sfloat),
    COLOR(R32G32B32A32_UINT, 16, 4, Uint),
    COLOR(R32G32B32A32_SINT, 16, 4, Sint),
    COLOR(R32G32B32A32_SFLOAT, 16, 4, Sfloat),
    COLOR(R64_UINT, 8, 1, Uint),
    COLOR(R64_SINT, 8, 1, Sint),
    COLOR(R64_SFLOAT, 8, 1, Sfloat),
    COLOR(R64G64_UINT, 16, 2, Uint),
    COLOR(R64G64_SINT, 16, 2, Sint),
    COLOR(R64G64_SFLOAT, 16, 2, Sfloat),
    COLOR(R64G64B64_UINT, 24, 3, Uint),
    COLOR(R64G64B64_SINT, 24, 3, Sint),
    COLOR(R64G64B64_SFLOAT, 24, 3, Sfloat),
    COLOR(R64G64B64A64_UINT, 32, 4, Uint),
    COLOR(R64G64B64A64_SINT, 32, 4, Sint),
    COLOR(R64G64B64A64_SFLOAT, 32, 4, Sfloat),
    COLOR(B10G11R11_UFLOAT_PACK32, 4, 3, Ufloat),
    COLOR(E5B9G9R9_UFLOAT_PACK32, 4, 3, Ufloat),
    // Vulkan leaves depth/stencil memory opaque; these are spvbridge's host
    // layouts: depth from byte 0 (a D24 in bits 0-23 of a little-endian
    // word), the stencil in the byte after it, padding left unused.
    DEPTH_STENCIL(D16_UNORM, 2, Unorm, 16, 0),
    DEPTH_STENCIL(X8_D24_UNORM_PACK32, 4, Unorm, 24, 0),
    DEPTH_STENCIL(D32_SFLOAT, 4, Sfloat, 32, 0),
    DEPTH_STENCIL(S8_UINT, 1, Uint, 0, 8),
    DEPTH_STENCIL(D16_UNORM_S8_UINT, 4, Unorm, 16, 8),
    DEPTH_STENCIL(D24_UNORM_S8_UINT, 4, Unorm, 24, 8),
    DEPTH_STENCIL(D32_SFLOAT_S8_UINT, 8, Sfloat, 32, 8),
};

#undef COLOR
#undef DEPTH_STENCIL

constexpr unsigned kNumEntries = sizeof(kEntries) / sizeof(kEntries[0]);

/// Whether a row agrees with the layout its name spells.
constexpr bool isConsistent(const Entry &entry) {
  const VulkanFormat &format = entry.format;
  const Layout &layout = entry.layout;
  if (format.components == 0)
    return layout.fields == 0 && format.depthBits + format.stencilBits > 0 &&
           format.depthBits + format.stencilBits <= 8 * format.texelBytes;
  unsigned total = 0, colour = 0;
  for (unsigned i = 0; i < layout.fields; ++i) {
    if (!layout.packed && layout.bits[i] % 8 != 0)
      return false;
    total += layout.bits[i];
    colour += layout.slot[i] != kExponentSlot;
  }
  return layout.fields != 0 && total == 8 * format.texelBytes &&
         colour == format.components && format.depthBits == 0 &&
         format.stencilBits == 0;
}

constexpr bool isTableConsistent() {
  for (const Entry &entry : kEntries)
    if (!isConsistent(entry))
      return false;
  return true;
}
static_assert(isTableConsistent(),
              "a row's texel size or component count disagrees with its name");

// The rows by VkFormat value, for constant-time lookups on every texel.
constexpr unsigned kIndexSize = VK_FORMAT_D32_SFLOAT_S8_UINT + 1;
struct FormatIndex {
  int entry[kIndexSize] = {};
};

constexpr FormatIndex buildIndex() {
  FormatIndex index;
  for (unsigned i = 0; i < kIndexSize; ++i)
    index.entry[i] = -1;
  for (unsigned i = 0; i < kNumEntries; ++i)
    index.entry[unsigned(kEntries[i].format.format)] = int(i);
  return index;
}
constexpr FormatIndex kIndex = buildIndex();

constexpr bool isIndexComplete() {
  for (unsigned i = 0; i < kNumEntries; ++i)
    if (kIndex.entry[unsigned(kEntries[i].format.format)] != int(i))
      return false; // a format listed twice
  return true;
}
static_assert(isIndexComplete(), "a format has two rows");

const Entry *findEntry(VkFormat format) {
  auto value = static_cast<uint32_t>(format);
  if (value >= kIndexSize || kIndex.entry[value] < 0)
    return nullptr;
  return &kEntries[kIndex.entry[value]];
}

uint64_t lowMask(unsigned bits) {
  return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

uint64_t readLittleEndian(const uint8_t *bytes, unsigned count) {
  uint64_t value = 0;
  for (unsigned i = 0; i < count; ++i)
    value |= uint64_t(bytes[i]) << (8 * i);
  return value;
}

void writeLittleEndian(uint8_t *bytes, unsigned count, uint64_t value) {
  for (unsigned i = 0; i < count; ++i)
    bytes[i] = uint8_t(value >> (8 * i));
}

/// Round to nearest, ties up: floor(x + 0.5). Vulkan accepts either
/// neighbour and recommends the nearest; ties up is the same whatever the
/// FP environment's rounding mode, which std::nearbyint is not.
double roundHalfUp(double x) { return std::floor(x + 0.5); }

uint64_t encodeSnorm(double f, unsigned bits) {
  if (std::isnan(f))
    return 0;
  double max = double(lowMask(bits - 1));
  auto value = int64_t(roundHalfUp(std::clamp(f, -1.0, 1.0) * max));
  return uint64_t(value) & lowMask(bits);
}

/// USCALED/SSCALED: the nearest integer the field holds.
uint64_t encodeScaled(double f, unsigned bits, bool isSigned) {
  if (std::isnan(f))
    return 0;
  double low = isSigned ? -double(uint64_t(1) << (bits - 1)) : 0.0;
  double high = double(lowMask(isSigned ? bits - 1 : bits));
  auto value = int64_t(std::clamp(roundHalfUp(f), low, high));
  return uint64_t(value) & lowMask(bits);
}

double srgbToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linearToSrgb(double l) {
  return l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1 / 2.4) - 0.055;
}

/// A sign-less binary float field: `exponentBits` with bias
/// 2^(exponentBits-1) - 1 above `mantissaBits`, IEEE-style denormals,
/// infinity and NaN.
double decodeFloatMagnitude(uint64_t field, unsigned exponentBits,
                            unsigned mantissaBits) {
  uint64_t mantissa = field & lowMask(mantissaBits);
  uint64_t exponent = (field >> mantissaBits) & lowMask(exponentBits);
  int bias = (1 << (exponentBits - 1)) - 1;
  if (exponent == lowMask(exponentBits))
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : std::numeric_limits<double>::infinity();
  if (exponent == 0)
    return std::ldexp(double(mantissa), 1 - bias - int(mantissaBits));
  return std::ldexp(double(mantissa | (uint64_t(1) << mantissaBits)),
                    int(exponent) - bias - int(mantissaBits));
}

/// The field nearest `magnitude` (>= 0, not NaN), ties to even, rounded
/// once from the double. Too large: the largest finite value if
/// `saturate`, else infinity (IEEE's round-to-nearest overflow).
uint64_t encodeFloatMagnitude(double magnitude, unsigned exponentBits,
                              unsigned mantissaBits, bool saturate) {
  uint64_t maxExponent = lowMask(exponentBits);
  uint64_t infinity = maxExponent << mantissaBits;
  if (std::isinf(magnitude))
    return infinity;
  if (magnitude == 0)
    return 0;
  int bias = (1 << (exponentBits - 1)) - 1;
  // Below the smallest normal the quantum stays that of the denormals.
  int exponent = std::max(std::ilogb(magnitude), 1 - bias);
  // In units of the last place: exact, as scaling by 2^n is.
  double scaled = std::ldexp(magnitude, int(mantissaBits) - exponent);
  double whole = std::floor(scaled);
  double rest = scaled - whole;
  auto mantissa = uint64_t(whole);
  if (rest > 0.5 || (rest == 0.5 && (mantissa & 1)))
    ++mantissa;
  if (mantissa >> (mantissaBits + 1)) { // rounded up into the next binade
    mantissa >>= 1;
    ++exponent;
  }
  // A denormal that rounded up to 2^mantissaBits became the smallest normal.
  uint64_t biased = mantissa >> mantissaBits ? uint64_t(exponent + bias) : 0;
  if (biased >= maxExponent)
    return saturate ? infinity - 1 : infinity;
  return (biased << mantissaBits) | (mantissa & lowMask(mantissaBits));
}

uint64_t encodeSfloat(double f, unsigned bits) {
  if (bits == 64) {
    uint64_t raw;
    std::memcpy(&raw, &f, 8);
    return raw;
  }
  if (bits == 32) {
    auto single = static_cast<float>(f);
    uint32_t raw;
    std::memcpy(&raw, &single, 4);
    return raw;
  }
  // Half, converted directly from the double: going through float would
  // round twice.
  if (std::isnan(f))
    return 0x7e00;
  uint64_t sign = std::signbit(f) ? 0x8000 : 0;
  return sign | encodeFloatMagnitude(std::fabs(f), 5, 10, /*saturate=*/false);
}

double decodeSfloat(uint64_t raw, unsigned bits) {
  if (bits == 64) {
    double value;
    std::memcpy(&value, &raw, 8);
    return value;
  }
  if (bits == 32) {
    auto word = uint32_t(raw);
    float value;
    std::memcpy(&value, &word, 4);
    return value;
  }
  double magnitude = decodeFloatMagnitude(raw & 0x7fff, 5, 10);
  return (raw & 0x8000) ? -magnitude : magnitude;
}

/// B10G11R11's fields: 5 exponent bits above 5 or 6 mantissa bits. Per the
/// Khronos Data Format Specification's unsigned 11/10-bit floats (which
/// Vulkan's "Unsigned 11-Bit Floating-Point Numbers" defers to): negative
/// values and -Inf become 0, finite values above the largest finite one
/// become it, +Inf stays +Inf and any NaN becomes a NaN.
uint64_t encodeUfloat(double f, unsigned bits) {
  unsigned mantissaBits = bits - 5;
  if (std::isnan(f))
    return (uint64_t(0x1f) << mantissaBits) |
           (uint64_t(1) << (mantissaBits - 1));
  if (!(f > 0))
    return 0;
  return encodeFloatMagnitude(f, 5, mantissaBits, /*saturate=*/true);
}

// E5B9G9R9: three 9-bit mantissas without implicit one over a shared 5-bit
// exponent of bias 15, as the Khronos Data Format Specification defines.
constexpr int kSharedBias = 15;
constexpr int kSharedMantissaBits = 9;

void decodeSharedExponent(uint32_t word, Color &color) {
  int exponent = int(word >> 27);
  for (unsigned c = 0; c < 3; ++c) {
    uint32_t mantissa = (word >> (9 * c)) & 0x1ff;
    color.f[c] = std::ldexp(double(mantissa),
                            exponent - kSharedBias - kSharedMantissaBits);
  }
}

/// The Data Format Specification's encoding: clamp to [0, 65408] (NaN to
/// 0), take the exponent from the largest component, bump it when that
/// component's mantissa rounds up to 512.
uint32_t encodeSharedExponent(const Color &color) {
  // (2^9 - 1) / 2^9 * 2^(31 - 15) = 511 * 2^7.
  const double sharedMax = 65408.0;
  double clamped[3];
  for (unsigned c = 0; c < 3; ++c) {
    double f = color.f[c];
    clamped[c] = std::isnan(f) ? 0.0 : std::clamp(f, 0.0, sharedMax);
  }
  double largest = std::max({clamped[0], clamped[1], clamped[2]});
  // floor(log2(largest)), exactly; at least -B - 1 (also for zero).
  int floorLog2 = largest > 0 ? std::max(std::ilogb(largest), -kSharedBias - 1)
                              : -kSharedBias - 1;
  int exponent = floorLog2 + 1 + kSharedBias;
  double largestMantissa = roundHalfUp(
      std::ldexp(largest, kSharedMantissaBits + kSharedBias - exponent));
  if (largestMantissa == double(1 << kSharedMantissaBits))
    ++exponent;
  uint32_t word = uint32_t(exponent) << 27;
  for (unsigned c = 0; c < 3; ++c) {
    double mantissa = roundHalfUp(
        std::ldexp(clamped[c], kSharedMantissaBits + kSharedBias - exponent));
    word |= uint32_t(mantissa) << (9 * c);
  }
  return word;
}

/// Stores field `raw` (`bits` wide) as component `slot` of `color`.
void decodeComponent(ComponentKind kind, unsigned bits, unsigned slot,
                     uint64_t raw, Color &color) {
  switch (kind) {
  case K::Unorm:
    color.f[slot] = double(raw) / double(lowMask(bits));
    break;
  case K::Srgb: {
    double c = double(raw) / double(lowMask(bits));
    color.f[slot] = slot == 3 ? c : srgbToLinear(c);
    break;
  }
  case K::Snorm:
    color.f[slot] = std::max(double(llvm::SignExtend64(raw, bits)) /
                                 double(lowMask(bits - 1)),
                             -1.0);
    break;
  case K::Uscaled:
    color.f[slot] = double(raw);
    break;
  case K::Sscaled:
    color.f[slot] = double(llvm::SignExtend64(raw, bits));
    break;
  case K::Uint:
    color.i[slot] = int64_t(raw);
    color.f[slot] = double(raw);
    break;
  case K::Sint:
    color.i[slot] = llvm::SignExtend64(raw, bits);
    color.f[slot] = double(color.i[slot]);
    break;
  case K::Sfloat:
    color.f[slot] = decodeSfloat(raw, bits);
    break;
  case K::Ufloat:
    color.f[slot] = decodeFloatMagnitude(raw, 5, bits - 5);
    break;
  }
}

/// Component `slot` of `color` as a field `bits` wide.
uint64_t encodeComponent(ComponentKind kind, unsigned bits, unsigned slot,
                         const Color &color) {
  double f = color.f[slot];
  switch (kind) {
  case K::Unorm:
    return encodeUnorm(f, bits);
  case K::Srgb:
    return encodeUnorm(slot == 3 ? f : linearToSrgb(f), bits);
  case K::Snorm:
    return encodeSnorm(f, bits);
  case K::Uscaled:
    return encodeScaled(f, bits, /*isSigned=*/false);
  case K::Sscaled:
    return encodeScaled(f, bits, /*isSigned=*/true);
  case K::Uint:
  case K::Sint:
    // Integer attachments keep the value's low bits.
    return uint64_t(color.i[slot]) & lowMask(bits);
  case K::Sfloat:
    return encodeSfloat(f, bits);
  case K::Ufloat:
    return encodeUfloat(f, bits);
  }
  return 0;
}

/// Bytes from the start of a depth/stencil texel to its stencil.
unsigned stencilOffset(const VulkanFormat &format) {
  return (format.depthBits + 7) / 8;
}

} // namespace

const VulkanFormat *spvb::runtime::getVulkanFormat(VkFormat format) {
  const Entry *entry = findEntry(format);
  return entry ? &entry->format : nullptr;
}

const VulkanFormat *spvb::runtime::findVulkanFormat(llvm::StringRef name) {
  for (const Entry &entry : kEntries)
    if (name == entry.format.name)
      return &entry.format;
  return nullptr;
}

unsigned spvb::runtime::getUnorm8Order(const VulkanFormat &format,
                                       uint8_t order[4]) {
  const Entry *entry = findEntry(format.format);
  if (!entry || format.kind != K::Unorm || entry->layout.packed ||
      entry->layout.fields != format.texelBytes)
    return 0;
  for (unsigned i = 0; i < entry->layout.fields; ++i)
    order[i] = uint8_t(entry->layout.slot[i]);
  return entry->layout.fields;
}

bool spvb::runtime::isIntegerFormat(const VulkanFormat &format) {
  return format.kind == K::Uint || format.kind == K::Sint;
}

Color spvb::runtime::decodeColor(const VulkanFormat &format,
                                 const uint8_t *bytes) {
  Color color;
  const Entry *entry = findEntry(format.format);
  if (!entry || format.components == 0)
    return color;
  const Layout &layout = entry->layout;
  if (format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
    decodeSharedExponent(uint32_t(readLittleEndian(bytes, 4)), color);
    return color;
  }
  if (layout.packed) {
    uint64_t word = readLittleEndian(bytes, format.texelBytes);
    unsigned shift = 8 * format.texelBytes;
    for (unsigned i = 0; i < layout.fields; ++i) {
      shift -= layout.bits[i];
      decodeComponent(format.kind, layout.bits[i], layout.slot[i],
                      (word >> shift) & lowMask(layout.bits[i]), color);
    }
    return color;
  }
  for (unsigned i = 0, offset = 0; i < layout.fields; ++i) {
    unsigned size = layout.bits[i] / 8;
    decodeComponent(format.kind, layout.bits[i], layout.slot[i],
                    readLittleEndian(bytes + offset, size), color);
    offset += size;
  }
  return color;
}

void spvb::runtime::encodeColor(const VulkanFormat &format, const Color &color,
                                uint8_t *bytes) {
  const Entry *entry = findEntry(format.format);
  if (!entry || format.components == 0)
    return;
  const Layout &layout = entry->layout;
  if (format.format == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32) {
    writeLittleEndian(bytes, 4, encodeSharedExponent(color));
    return;
  }
  if (layout.packed) {
    uint64_t word = 0;
    unsigned shift = 8 * format.texelBytes;
    for (unsigned i = 0; i < layout.fields; ++i) {
      shift -= layout.bits[i];
      word |=
          encodeComponent(format.kind, layout.bits[i], layout.slot[i], color)
          << shift;
    }
    writeLittleEndian(bytes, format.texelBytes, word);
    return;
  }
  for (unsigned i = 0, offset = 0; i < layout.fields; ++i) {
    unsigned size = layout.bits[i] / 8;
    writeLittleEndian(
        bytes + offset, size,
        encodeComponent(format.kind, layout.bits[i], layout.slot[i], color));
    offset += size;
  }
}

uint64_t spvb::runtime::readDepthBits(const VulkanFormat &format,
                                      const uint8_t *bytes) {
  return readLittleEndian(bytes, stencilOffset(format));
}

uint64_t spvb::runtime::encodeDepthBits(const VulkanFormat &format,
                                        double depth) {
  return format.kind == K::Sfloat ? encodeSfloat(depth, format.depthBits)
                                  : encodeUnorm(depth, format.depthBits);
}

void spvb::runtime::writeDepthBits(const VulkanFormat &format, uint64_t bits,
                                   uint8_t *bytes) {
  // Only the depth's own bytes: the stencil and the padding stay as they
  // are (X8_D24's top byte is unused).
  writeLittleEndian(bytes, stencilOffset(format), bits);
}

double spvb::runtime::decodeDepth(const VulkanFormat &format,
                                  const uint8_t *bytes) {
  if (format.depthBits == 0)
    return 0;
  uint64_t raw = readDepthBits(format, bytes);
  if (format.kind == K::Sfloat)
    return decodeSfloat(raw, format.depthBits);
  return double(raw) / double(lowMask(format.depthBits));
}

void spvb::runtime::encodeDepth(const VulkanFormat &format, double depth,
                                uint8_t *bytes) {
  if (format.depthBits)
    writeDepthBits(format, encodeDepthBits(format, depth), bytes);
}

uint8_t spvb::runtime::decodeStencil(const VulkanFormat &format,
                                     const uint8_t *bytes) {
  return format.stencilBits ? bytes[stencilOffset(format)] : 0;
}

void spvb::runtime::encodeStencil(const VulkanFormat &format, uint8_t stencil,
                                  uint8_t *bytes) {
  if (format.stencilBits)
    bytes[stencilOffset(format)] = stencil;
}

namespace {
struct ImageFormatPair {
  uint32_t spirv;
  VkFormat vulkan;
};
} // namespace

/// Vulkan's "Compatibility Between SPIR-V Image Formats and Vulkan Formats".
static llvm::ArrayRef<ImageFormatPair> getImageFormatPairs() {
  static const ImageFormatPair kPairs[] = {
      {spv::ImageFormatRgba32f, VK_FORMAT_R32G32B32A32_SFLOAT},
      {spv::ImageFormatRgba16f, VK_FORMAT_R16G16B16A16_SFLOAT},
      {spv::ImageFormatR32f, VK_FORMAT_R32_SFLOAT},
      {spv::ImageFormatRgba8, VK_FORMAT_R8G8B8A8_UNORM},
      {spv::ImageFormatRgba8Snorm, VK_FORMAT_R8G8B8A8_SNORM},
      {spv::ImageFormatRg32f, VK_FORMAT_R32G32_SFLOAT},
      {spv::ImageFormatRg16f, VK_FORMAT_R16G16_SFLOAT},
      {spv::ImageFormatR11fG11fB10f, VK_FORMAT_B10G11R11_UFLOAT_PACK32},
      {spv::ImageFormatR16f, VK_FORMAT_R16_SFLOAT},
      {spv::ImageFormatRgba16, VK_FORMAT_R16G16B16A16_UNORM},
      {spv::ImageFormatRgb10A2, VK_FORMAT_A2B10G10R10_UNORM_PACK32},
      {spv::ImageFormatRg16, VK_FORMAT_R16G16_UNORM},
      {spv::ImageFormatRg8, VK_FORMAT_R8G8_UNORM},
      {spv::ImageFormatR16, VK_FORMAT_R16_UNORM},
      {spv::ImageFormatR8, VK_FORMAT_R8_UNORM},
      {spv::ImageFormatRgba16Snorm, VK_FORMAT_R16G16B16A16_SNORM},
      {spv::ImageFormatRg16Snorm, VK_FORMAT_R16G16_SNORM},
      {spv::ImageFormatRg8Snorm, VK_FORMAT_R8G8_SNORM},
      {spv::ImageFormatR16Snorm, VK_FORMAT_R16_SNORM},
      {spv::ImageFormatR8Snorm, VK_FORMAT_R8_SNORM},
      {spv::ImageFormatRgba32i, VK_FORMAT_R32G32B32A32_SINT},
      {spv::ImageFormatRgba16i, VK_FORMAT_R16G16B16A16_SINT},
      {spv::ImageFormatRgba8i, VK_FORMAT_R8G8B8A8_SINT},
      {spv::ImageFormatR32i, VK_FORMAT_R32_SINT},
      {spv::ImageFormatRg32i, VK_FORMAT_R32G32_SINT},
      {spv::ImageFormatRg16i, VK_FORMAT_R16G16_SINT},
      {spv::ImageFormatRg8i, VK_FORMAT_R8G8_SINT},
      {spv::ImageFormatR16i, VK_FORMAT_R16_SINT},
      {spv::ImageFormatR8i, VK_FORMAT_R8_SINT},
      {spv::ImageFormatRgba32ui, VK_FORMAT_R32G32B32A32_UINT},
      {spv::ImageFormatRgba16ui, VK_FORMAT_R16G16B16A16_UINT},
      {spv::ImageFormatRgba8ui, VK_FORMAT_R8G8B8A8_UINT},
      {spv::ImageFormatR32ui, VK_FORMAT_R32_UINT},
      {spv::ImageFormatRgb10a2ui, VK_FORMAT_A2B10G10R10_UINT_PACK32},
      {spv::ImageFormatRg32ui, VK_FORMAT_R32G32_UINT},
      {spv::ImageFormatRg16ui, VK_FORMAT_R16G16_UINT},
      {spv::ImageFormatRg8ui, VK_FORMAT_R8G8_UINT},
      {spv::ImageFormatR16ui, VK_FORMAT_R16_UINT},
      {spv::ImageFormatR8ui, VK_FORMAT_R8_UINT},
      {spv::ImageFormatR64ui, VK_FORMAT_R64_UINT},
      {spv::ImageFormatR64i, VK_FORMAT_R64_SINT},
  };
  return kPairs;
}

uint32_t spvb::runtime::getSpirvImageFormat(VkFormat format) {
  for (const ImageFormatPair &pair : getImageFormatPairs())
    if (pair.vulkan == format)
      return pair.spirv;
  return spv::ImageFormatUnknown;
}

VkFormat spvb::runtime::getVulkanImageFormat(uint32_t format) {
  for (const ImageFormatPair &pair : getImageFormatPairs())
    if (pair.spirv == format)
      return pair.vulkan;
  return VK_FORMAT_UNDEFINED;
}
