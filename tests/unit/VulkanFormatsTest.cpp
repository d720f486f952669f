//===- VulkanFormatsTest.cpp - Texels of Vulkan formats -------------------===//
//
// Every expected byte and value is derived by hand from the Vulkan
// specification ("Format Definition", "Fixed-Point Data Conversions", the
// sRGB transfer functions) and the Khronos Data Format Specification (the
// 16-bit, unsigned 11/10-bit and shared-exponent floats); the arithmetic is
// in the comments.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace spvb::runtime;

namespace {

const VulkanFormat &format(VkFormat value) {
  const VulkanFormat *result = getVulkanFormat(value);
  EXPECT_NE(result, nullptr) << value;
  static const VulkanFormat kNone{VK_FORMAT_UNDEFINED,  "", 0, 0,
                                  ComponentKind::Unorm, 0,  0};
  return result ? *result : kNone;
}

std::vector<uint8_t> encode(VkFormat value, const Color &color) {
  const VulkanFormat &f = format(value);
  std::vector<uint8_t> bytes(f.texelBytes, 0);
  encodeColor(f, color, bytes.data());
  return bytes;
}

Color colorF(double r, double g, double b, double a) {
  Color color;
  color.f[0] = r, color.f[1] = g, color.f[2] = b, color.f[3] = a;
  return color;
}

Color colorI(int64_t r, int64_t g, int64_t b, int64_t a) {
  Color color;
  color.i[0] = r, color.i[1] = g, color.i[2] = b, color.i[3] = a;
  return color;
}

uint32_t word32(const std::vector<uint8_t> &bytes) {
  return uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 |
         uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
}

uint16_t word16(const std::vector<uint8_t> &bytes) {
  return uint16_t(bytes[0] | bytes[1] << 8);
}

std::vector<uint8_t> bytesOf32(uint32_t word) {
  return {uint8_t(word), uint8_t(word >> 8), uint8_t(word >> 16),
          uint8_t(word >> 24)};
}

uint16_t half(double value) {
  return word16(encode(VK_FORMAT_R16_SFLOAT, colorF(value, 0, 0, 1)));
}

double decodeHalf(uint16_t bits) {
  uint8_t bytes[2] = {uint8_t(bits), uint8_t(bits >> 8)};
  return decodeColor(format(VK_FORMAT_R16_SFLOAT), bytes).f[0];
}

TEST(VulkanFormatsTest, LooksUpFormatsByValueAndName) {
  const VulkanFormat *bgra = getVulkanFormat(VK_FORMAT_B8G8R8A8_UNORM);
  ASSERT_NE(bgra, nullptr);
  EXPECT_STREQ(bgra->name, "B8G8R8A8_UNORM");
  EXPECT_EQ(bgra->texelBytes, 4u);
  EXPECT_EQ(bgra->components, 4u);
  EXPECT_EQ(bgra->kind, ComponentKind::Unorm);
  EXPECT_EQ(findVulkanFormat("B8G8R8A8_UNORM"), bgra);

  const VulkanFormat *packed = findVulkanFormat("A2B10G10R10_UNORM_PACK32");
  ASSERT_NE(packed, nullptr);
  EXPECT_EQ(packed->format, VK_FORMAT_A2B10G10R10_UNORM_PACK32);

  const VulkanFormat *rgb16 = findVulkanFormat("R16G16B16_SFLOAT");
  ASSERT_NE(rgb16, nullptr);
  EXPECT_EQ(rgb16->texelBytes, 6u); // 3 x 2 bytes
  EXPECT_EQ(rgb16->components, 3u);
  EXPECT_EQ(rgb16->kind, ComponentKind::Sfloat);

  const VulkanFormat *ufloat = findVulkanFormat("E5B9G9R9_UFLOAT_PACK32");
  ASSERT_NE(ufloat, nullptr);
  EXPECT_EQ(ufloat->components, 3u); // the shared exponent is no component
  EXPECT_EQ(ufloat->kind, ComponentKind::Ufloat);

  EXPECT_EQ(findVulkanFormat("R8G8B8A8_SRGB")->kind, ComponentKind::Srgb);
  EXPECT_EQ(findVulkanFormat("R64G64B64A64_SINT")->texelBytes, 32u);
}

TEST(VulkanFormatsTest, UnknownFormatsAreNull) {
  EXPECT_EQ(getVulkanFormat(VK_FORMAT_UNDEFINED), nullptr);
  EXPECT_EQ(getVulkanFormat(VK_FORMAT_BC1_RGB_UNORM_BLOCK), nullptr);
  EXPECT_EQ(getVulkanFormat(VK_FORMAT_G8B8G8R8_422_UNORM), nullptr);
  EXPECT_EQ(getVulkanFormat(static_cast<VkFormat>(9999)), nullptr);
  EXPECT_EQ(findVulkanFormat(""), nullptr);
  EXPECT_EQ(findVulkanFormat("b8g8r8a8_unorm"), nullptr); // case-sensitive
  EXPECT_EQ(findVulkanFormat("VK_FORMAT_R8_UNORM"), nullptr);
  EXPECT_EQ(findVulkanFormat("R8G8B8A8"), nullptr);
  EXPECT_EQ(findVulkanFormat("BC1_RGB_UNORM_BLOCK"), nullptr);
}

TEST(VulkanFormatsTest, DescribesEveryRequiredFormat) {
  // Name, bytes and colour components, each from the name's widths.
  struct Row {
    std::string name;
    unsigned bytes;
    unsigned components;
  };
  std::vector<Row> rows;
  const std::pair<const char *, unsigned> shapes8[] = {
      {"R8", 1},       {"R8G8", 2},   {"R8G8B8", 3},
      {"R8G8B8A8", 4}, {"B8G8R8", 3}, {"B8G8R8A8", 4}};
  for (auto [shape, n] : shapes8)
    for (const char *kind :
         {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "SRGB"})
      rows.push_back({std::string(shape) + "_" + kind, n, n});
  for (const char *kind : {"UNORM", "SNORM", "UINT", "SINT", "SRGB"})
    rows.push_back({std::string("A8B8G8R8_") + kind + "_PACK32", 4, 4});
  const char *shapes16[] = {"R16", "R16G16", "R16G16B16", "R16G16B16A16"};
  const char *shapes32[] = {"R32", "R32G32", "R32G32B32", "R32G32B32A32"};
  const char *shapes64[] = {"R64", "R64G64", "R64G64B64", "R64G64B64A64"};
  for (unsigned n = 1; n <= 4; ++n) {
    for (const char *kind :
         {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "SFLOAT"})
      rows.push_back({std::string(shapes16[n - 1]) + "_" + kind, 2 * n, n});
    for (const char *kind : {"UINT", "SINT", "SFLOAT"}) {
      rows.push_back({std::string(shapes32[n - 1]) + "_" + kind, 4 * n, n});
      rows.push_back({std::string(shapes64[n - 1]) + "_" + kind, 8 * n, n});
    }
  }
  for (const char *shape : {"A2R10G10B10", "A2B10G10R10"})
    for (const char *kind :
         {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT"})
      rows.push_back({std::string(shape) + "_" + kind + "_PACK32", 4, 4});
  rows.push_back({"B10G11R11_UFLOAT_PACK32", 4, 3});
  rows.push_back({"E5B9G9R9_UFLOAT_PACK32", 4, 3});
  rows.push_back({"R5G6B5_UNORM_PACK16", 2, 3});
  rows.push_back({"B5G6R5_UNORM_PACK16", 2, 3});
  rows.push_back({"R4G4B4A4_UNORM_PACK16", 2, 4});
  rows.push_back({"B4G4R4A4_UNORM_PACK16", 2, 4});
  rows.push_back({"R5G5B5A1_UNORM_PACK16", 2, 4});
  rows.push_back({"B5G5R5A1_UNORM_PACK16", 2, 4});
  rows.push_back({"A1R5G5B5_UNORM_PACK16", 2, 4});
  // 6 x 7 (8-bit) + 5 (A8B8G8R8) + 4 x 7 (16-bit) + 4 x 3 x 2 (32/64-bit)
  // + 2 x 6 (10:10:10:2) + 2 (UFLOAT) + 7 (16-bit packed).
  EXPECT_EQ(rows.size(), 42u + 5 + 28 + 24 + 12 + 2 + 7);
  for (const Row &row : rows) {
    const VulkanFormat *f = findVulkanFormat(row.name);
    ASSERT_NE(f, nullptr) << row.name;
    EXPECT_EQ(f->name, row.name);
    EXPECT_EQ(getVulkanFormat(f->format), f) << row.name;
    EXPECT_EQ(f->texelBytes, row.bytes) << row.name;
    EXPECT_EQ(f->components, row.components) << row.name;
    EXPECT_EQ(f->depthBits, 0u) << row.name;
    EXPECT_EQ(f->stencilBits, 0u) << row.name;
  }
}

TEST(VulkanFormatsTest, DescribesDepthStencilFormats) {
  struct Row {
    VkFormat format;
    unsigned bytes, depthBits, stencilBits;
  };
  // spvbridge's host layouts: D16S8 padded to 4 bytes, D32S8 to 8.
  const Row rows[] = {
      {VK_FORMAT_D16_UNORM, 2, 16, 0},
      {VK_FORMAT_X8_D24_UNORM_PACK32, 4, 24, 0},
      {VK_FORMAT_D32_SFLOAT, 4, 32, 0},
      {VK_FORMAT_S8_UINT, 1, 0, 8},
      {VK_FORMAT_D16_UNORM_S8_UINT, 4, 16, 8},
      {VK_FORMAT_D24_UNORM_S8_UINT, 4, 24, 8},
      {VK_FORMAT_D32_SFLOAT_S8_UINT, 8, 32, 8},
  };
  for (const Row &row : rows) {
    const VulkanFormat &f = format(row.format);
    EXPECT_EQ(f.texelBytes, row.bytes) << f.name;
    EXPECT_EQ(f.components, 0u) << f.name;
    EXPECT_EQ(f.depthBits, row.depthBits) << f.name;
    EXPECT_EQ(f.stencilBits, row.stencilBits) << f.name;
  }
  EXPECT_STREQ(format(VK_FORMAT_D24_UNORM_S8_UINT).name, "D24_UNORM_S8_UINT");
}

TEST(VulkanFormatsTest, Bgra8UnormIsInBlueFirstOrder) {
  // B = 0 -> 0; G = 0.5 * 255 = 127.5 -> 128 (ties up); R = 1 -> 255;
  // A = 1 -> 255. Memory order B, G, R, A.
  EXPECT_EQ(encode(VK_FORMAT_B8G8R8A8_UNORM, colorF(1, 0.5, 0, 1)),
            (std::vector<uint8_t>{0, 128, 255, 255}));
  const uint8_t bytes[] = {0, 128, 255, 51};
  Color color = decodeColor(format(VK_FORMAT_B8G8R8A8_UNORM), bytes);
  EXPECT_EQ(color.f[0], 1.0);         // byte 2
  EXPECT_EQ(color.f[1], 128 / 255.0); // byte 1
  EXPECT_EQ(color.f[2], 0.0);         // byte 0
  EXPECT_EQ(color.f[3], 51 / 255.0);  // byte 3 = 0.2
}

TEST(VulkanFormatsTest, UnormClampsAndRounds) {
  // -0.5 and NaN -> 0; 2 -> 255; 0.3 * 255 = 76.5 -> 77.
  EXPECT_EQ(
      encode(VK_FORMAT_R8G8B8A8_UNORM,
             colorF(-0.5, std::numeric_limits<double>::quiet_NaN(), 2, 0.3)),
      (std::vector<uint8_t>{0, 0, 255, 77}));
  // 16 bits: 0.5 * 65535 = 32767.5 -> 32768 = 0x8000, little-endian.
  EXPECT_EQ(encode(VK_FORMAT_R16_UNORM, colorF(0.5, 0, 0, 1)),
            (std::vector<uint8_t>{0x00, 0x80}));
}

TEST(VulkanFormatsTest, EveryUnorm8ValueRoundTrips) {
  const VulkanFormat &r8 = format(VK_FORMAT_R8_UNORM);
  const VulkanFormat &srgb = format(VK_FORMAT_R8G8B8A8_SRGB);
  for (unsigned c = 0; c < 256; ++c) {
    uint8_t byte = uint8_t(c);
    Color color = decodeColor(r8, &byte);
    EXPECT_EQ(color.f[0], c / 255.0) << c; // c / (2^8 - 1)
    uint8_t back = 0xAA;
    encodeColor(r8, color, &back);
    EXPECT_EQ(back, c);

    // sRGB: the EOTF and its inverse cancel to well under half a step.
    const uint8_t texel[] = {byte, byte, byte, byte};
    uint8_t again[4] = {};
    encodeColor(srgb, decodeColor(srgb, texel), again);
    for (uint8_t b : again)
      EXPECT_EQ(b, c);
  }
}

TEST(VulkanFormatsTest, Unorm16RoundTrips) {
  const VulkanFormat &r16 = format(VK_FORMAT_R16_UNORM);
  for (unsigned c = 0; c < 65536; c += 7) {
    const uint8_t bytes[] = {uint8_t(c), uint8_t(c >> 8)};
    Color color = decodeColor(r16, bytes);
    ASSERT_EQ(color.f[0], c / 65535.0) << c;
    uint8_t back[2] = {};
    encodeColor(r16, color, back);
    ASSERT_EQ(back[0] | back[1] << 8, int(c));
  }
}

TEST(VulkanFormatsTest, SrgbEncodesColourButNotAlpha) {
  // R, G: 0.5 linear -> 1.055 * 0.5^(1/2.4) - 0.055
  //   0.5^(1/2.4) = e^(-0.693147 / 2.4) = e^-0.288811 = 0.749154;
  //   1.055 * 0.749154 - 0.055 = 0.735357; * 255 = 187.516 -> 188.
  // B: 0.002 <= 0.0031308 -> 12.92 * 0.002 = 0.02584; * 255 = 6.589 -> 7.
  // A: plain UNORM, 0.5 * 255 = 127.5 -> 128.
  EXPECT_EQ(encode(VK_FORMAT_R8G8B8A8_SRGB, colorF(0.5, 0.5, 0.002, 0.5)),
            (std::vector<uint8_t>{188, 188, 7, 128}));
  // B8G8R8A8_SRGB: the same values, blue first.
  EXPECT_EQ(encode(VK_FORMAT_B8G8R8A8_SRGB, colorF(0.5, 0.5, 0.002, 0.5)),
            (std::vector<uint8_t>{7, 188, 188, 128}));

  // 188 / 255 = 0.737255 > 0.04045 -> ((0.737255 + 0.055) / 1.055)^2.4
  //   = 0.750952^2.4 = e^(2.4 * -0.286415) = e^-0.687396 = 0.502886.
  // 7 / 255 = 0.027451 <= 0.04045 -> 0.027451 / 12.92 = 0.0021247.
  // Alpha 128 / 255.
  const uint8_t bytes[] = {188, 7, 255, 128};
  Color color = decodeColor(format(VK_FORMAT_R8G8B8A8_SRGB), bytes);
  EXPECT_NEAR(color.f[0], 0.502886, 1e-6);
  EXPECT_NEAR(color.f[1], 0.0021247, 1e-7);
  EXPECT_DOUBLE_EQ(color.f[2], 1.0); // (1.055 / 1.055)^2.4
  EXPECT_EQ(color.f[3], 128 / 255.0);
}

TEST(VulkanFormatsTest, Snorm8) {
  const VulkanFormat &f = format(VK_FORMAT_R8G8B8A8_SNORM);
  // -1 * 127 = -127 = 0x81; 0.5 * 127 = 63.5 -> 64 = 0x40;
  // -0.5 * 127 = -63.5 -> floor(-63.0) = -63 = 0xC1; 2 clamps to 127 = 0x7F.
  EXPECT_EQ(encode(VK_FORMAT_R8G8B8A8_SNORM, colorF(-1, 0.5, -0.5, 2)),
            (std::vector<uint8_t>{0x81, 0x40, 0xC1, 0x7F}));
  // NaN -> 0; -3 clamps to -1 -> 0x81.
  EXPECT_EQ(encode(VK_FORMAT_R8G8B8A8_SNORM,
                   colorF(std::numeric_limits<double>::quiet_NaN(), -3, 0, 0)),
            (std::vector<uint8_t>{0x00, 0x81, 0x00, 0x00}));
  // 0x80 = -128 -> max(-128 / 127, -1) = -1; 0x81 = -127 -> -1;
  // 0x7F -> 1; 0x40 = 64 -> 64 / 127.
  const uint8_t bytes[] = {0x80, 0x81, 0x7F, 0x40};
  Color color = decodeColor(f, bytes);
  EXPECT_EQ(color.f[0], -1.0);
  EXPECT_EQ(color.f[1], -1.0);
  EXPECT_EQ(color.f[2], 1.0);
  EXPECT_EQ(color.f[3], 64 / 127.0);
}

TEST(VulkanFormatsTest, Snorm16AndBgr8) {
  // 0xFFFF = -1 -> -1 / 32767; 0x8000 = -32768 -> -1.
  const uint8_t bytes[] = {0xFF, 0xFF, 0x00, 0x80};
  Color color = decodeColor(format(VK_FORMAT_R16G16_SNORM), bytes);
  EXPECT_EQ(color.f[0], -1 / 32767.0);
  EXPECT_EQ(color.f[1], -1.0);
  EXPECT_EQ(color.f[2], 0.0);
  EXPECT_EQ(color.f[3], 1.0);

  // B8G8R8_SNORM {B = 0x7F, G = 0, R = 0x81} -> (-1, 0, 1, 1).
  const uint8_t bgr[] = {0x7F, 0x00, 0x81};
  color = decodeColor(format(VK_FORMAT_B8G8R8_SNORM), bgr);
  EXPECT_EQ(color.f[0], -1.0);
  EXPECT_EQ(color.f[1], 0.0);
  EXPECT_EQ(color.f[2], 1.0);
  EXPECT_EQ(color.f[3], 1.0);
}

TEST(VulkanFormatsTest, ScaledFormatsHoldIntegersAsFloats) {
  // USCALED: 300 clamps to 255; 2.5 -> 3 (ties up); -4 clamps to 0;
  // 7.2 -> 7.
  EXPECT_EQ(encode(VK_FORMAT_R8G8B8A8_USCALED, colorF(300, 2.5, -4, 7.2)),
            (std::vector<uint8_t>{255, 3, 0, 7}));
  // SSCALED: -200 clamps to -128 = 0x80; -2.5 -> floor(-2.0) = -2 = 0xFE;
  // 200 clamps to 127 = 0x7F; 1 -> 1.
  EXPECT_EQ(encode(VK_FORMAT_R8G8B8A8_SSCALED, colorF(-200, -2.5, 200, 1)),
            (std::vector<uint8_t>{0x80, 0xFE, 0x7F, 0x01}));
  const uint8_t bytes[] = {0xFE, 0xFF};
  EXPECT_EQ(decodeColor(format(VK_FORMAT_R8G8_SSCALED), bytes).f[0], -2.0);
  EXPECT_EQ(decodeColor(format(VK_FORMAT_R8G8_SSCALED), bytes).f[1], -1.0);
  EXPECT_EQ(decodeColor(format(VK_FORMAT_R8G8_USCALED), bytes).f[0], 254.0);
  EXPECT_EQ(decodeColor(format(VK_FORMAT_R16_USCALED), bytes).f[0], 65534.0);
}

TEST(VulkanFormatsTest, IntegersWrapToTheirLowBits) {
  // 257 = 0x101 -> 0x01; -1 -> 0xFF; 256 -> 0; 0x1234 -> 0x34.
  EXPECT_EQ(encode(VK_FORMAT_R8G8B8A8_UINT, colorI(257, -1, 256, 0x1234)),
            (std::vector<uint8_t>{0x01, 0xFF, 0x00, 0x34}));
  // SINT the same: -129 = ...FF7F -> 0x7F; 128 -> 0x80.
  EXPECT_EQ(encode(VK_FORMAT_R8G8_SINT, colorI(-129, 128, 0, 0)),
            (std::vector<uint8_t>{0x7F, 0x80}));
  // R16_SINT -2 = 0xFFFE, little-endian.
  EXPECT_EQ(encode(VK_FORMAT_R16_SINT, colorI(-2, 0, 0, 0)),
            (std::vector<uint8_t>{0xFE, 0xFF}));
  // A2B10G10R10_UINT: A = 5 keeps 5 & 3 = 1 (bits 30-31); R = 1024 -> 0.
  EXPECT_EQ(
      word32(encode(VK_FORMAT_A2B10G10R10_UINT_PACK32, colorI(1024, 1, 2, 5))),
      (1u << 30) | (2u << 20) | (1u << 10) | 0u);
}

TEST(VulkanFormatsTest, IntegersDecodeToBothFieldsWithDefaults) {
  const uint8_t byte = 0x80;
  // R8_UINT: 128; missing G, B, A read (0, 0, 1) in i and f.
  Color color = decodeColor(format(VK_FORMAT_R8_UINT), &byte);
  EXPECT_EQ(color.i[0], 128);
  EXPECT_EQ(color.f[0], 128.0);
  EXPECT_EQ(color.i[1], 0);
  EXPECT_EQ(color.i[2], 0);
  EXPECT_EQ(color.i[3], 1);
  EXPECT_EQ(color.f[1], 0.0);
  EXPECT_EQ(color.f[2], 0.0);
  EXPECT_EQ(color.f[3], 1.0);
  // R8_SINT: 0x80 sign-extends to -128.
  color = decodeColor(format(VK_FORMAT_R8_SINT), &byte);
  EXPECT_EQ(color.i[0], -128);
  EXPECT_EQ(color.f[0], -128.0);

  // R32_UINT 0xFFFFFFFF = 4294967295, not sign-extended.
  const uint8_t ones[] = {0xFF, 0xFF, 0xFF, 0xFF};
  color = decodeColor(format(VK_FORMAT_R32_UINT), ones);
  EXPECT_EQ(color.i[0], int64_t(4294967295));
  EXPECT_EQ(color.f[0], 4294967295.0);
  color = decodeColor(format(VK_FORMAT_R32_SINT), ones);
  EXPECT_EQ(color.i[0], -1);

  // R64G64_SINT round trip of INT64_MIN and INT64_MAX.
  Color wide = colorI(std::numeric_limits<int64_t>::min(),
                      std::numeric_limits<int64_t>::max(), 0, 0);
  std::vector<uint8_t> bytes = encode(VK_FORMAT_R64G64_SINT, wide);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0x80, 0xFF, 0xFF,
                                         0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F}));
  color = decodeColor(format(VK_FORMAT_R64G64_SINT), bytes.data());
  EXPECT_EQ(color.i[0], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(color.i[1], std::numeric_limits<int64_t>::max());
  EXPECT_EQ(color.i[3], 1);
}

TEST(VulkanFormatsTest, HalfFloats) {
  // R16G16_SFLOAT (1.0, -2.0): 1.0 = exponent 15 -> 15 << 10 = 0x3C00;
  // -2.0 = sign | 16 << 10 = 0x8000 | 0x4000 = 0xC000.
  EXPECT_EQ(encode(VK_FORMAT_R16G16_SFLOAT, colorF(1.0, -2.0, 0, 0)),
            (std::vector<uint8_t>{0x00, 0x3C, 0x00, 0xC0}));
  // Ties to even: 1 + 2^-11 is halfway between 0x3C00 and 0x3C01 -> 0x3C00;
  // 1 + 3 * 2^-11 is halfway between 0x3C01 and 0x3C02 -> 0x3C02.
  EXPECT_EQ(half(1 + std::ldexp(1, -11)), 0x3C00);
  EXPECT_EQ(half(1 + 3 * std::ldexp(1, -11)), 0x3C02);
  // One rounding from the double: 1 + 2^-11 + 2^-40 is above the tie, so
  // 0x3C01 (through float it would lose 2^-40 and tie down to 0x3C00).
  EXPECT_EQ(half(1 + std::ldexp(1, -11) + std::ldexp(1, -40)), 0x3C01);
  // Largest finite 65504 = 0x7BFF; 65519 < 65520 (the midpoint to 2^16)
  // rounds down to it; 65520 ties to even, which is 2^16: infinity 0x7C00.
  EXPECT_EQ(half(65504), 0x7BFF);
  EXPECT_EQ(half(65519), 0x7BFF);
  EXPECT_EQ(half(65520), 0x7C00);
  EXPECT_EQ(half(-1e10), 0xFC00);
  EXPECT_EQ(half(std::numeric_limits<double>::infinity()), 0x7C00);
  // Denormals: 2^-24 = 0x0001; 2^-25 ties between 0 and 2^-24 -> 0;
  // 1.5 * 2^-25 -> 0x0001; 2^-14 - 2^-25 ties between 0x03FF and 0x0400
  // -> 0x0400 (even).
  EXPECT_EQ(half(std::ldexp(1, -24)), 0x0001);
  EXPECT_EQ(half(std::ldexp(1, -25)), 0x0000);
  EXPECT_EQ(half(1.5 * std::ldexp(1, -25)), 0x0001);
  EXPECT_EQ(half(std::ldexp(1, -14) - std::ldexp(1, -25)), 0x0400);
  EXPECT_EQ(half(-0.0), 0x8000);
  uint16_t nan = half(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);

  // 0x3555: exponent 13, mantissa 341 -> (1 + 341/1024) * 2^-2 = 1365/4096.
  EXPECT_EQ(decodeHalf(0x3555), 1365 / 4096.0);
  EXPECT_EQ(decodeHalf(0x0001), std::ldexp(1, -24));
  EXPECT_EQ(decodeHalf(0xC000), -2.0);
  EXPECT_EQ(decodeHalf(0x7BFF), 65504.0);
  EXPECT_TRUE(std::isinf(decodeHalf(0xFC00)) && decodeHalf(0xFC00) < 0);
  EXPECT_TRUE(std::isnan(decodeHalf(0x7E00)));
}

TEST(VulkanFormatsTest, SingleAndDoubleFloats) {
  // 0.25 = 0x3E800000; -1.5 = 0xBFC00000.
  std::vector<uint8_t> bytes =
      encode(VK_FORMAT_R32G32_SFLOAT, colorF(0.25, -1.5, 0, 0));
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3E, 0x00, 0x00,
                                         0xC0, 0xBF}));
  Color color = decodeColor(format(VK_FORMAT_R32G32_SFLOAT), bytes.data());
  EXPECT_EQ(color.f[0], 0.25);
  EXPECT_EQ(color.f[1], -1.5);
  EXPECT_EQ(color.f[2], 0.0);
  EXPECT_EQ(color.f[3], 1.0);
  // 0.1 is stored as the nearest float, 0x3DCCCCCD.
  EXPECT_EQ(word32(encode(VK_FORMAT_R32_SFLOAT, colorF(0.1, 0, 0, 0))),
            0x3DCCCCCDu);
  // R64: the double's own bits; 1.0 = 0x3FF0000000000000.
  EXPECT_EQ(encode(VK_FORMAT_R64_SFLOAT, colorF(1.0, 0, 0, 0)),
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  double third = 1 / 3.0;
  bytes = encode(VK_FORMAT_R64_SFLOAT, colorF(third, 0, 0, 0));
  EXPECT_EQ(decodeColor(format(VK_FORMAT_R64_SFLOAT), bytes.data()).f[0],
            third);
}

TEST(VulkanFormatsTest, B10G11R11) {
  // (1, 1, 1): R, bits 0-10, 5-bit exponent (bias 15) over 6-bit mantissa:
  // 1.0 = 15 << 6 = 0x3C0. G, bits 11-21, the same. B, bits 22-31, 5-bit
  // mantissa: 15 << 5 = 0x1E0. Word = 0x3C0 | 0x3C0 << 11 | 0x1E0 << 22
  //   = 0x3C0 | 0x1E0000 | 0x78000000 = 0x781E03C0.
  std::vector<uint8_t> bytes =
      encode(VK_FORMAT_B10G11R11_UFLOAT_PACK32, colorF(1, 1, 1, 1));
  EXPECT_EQ(word32(bytes), 0x781E03C0u);
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0xC0, 0x03, 0x1E, 0x78}));
  Color color =
      decodeColor(format(VK_FORMAT_B10G11R11_UFLOAT_PACK32), bytes.data());
  EXPECT_EQ(color.f[0], 1.0);
  EXPECT_EQ(color.f[1], 1.0);
  EXPECT_EQ(color.f[2], 1.0);
  EXPECT_EQ(color.f[3], 1.0);

  auto r11 = [](double r) {
    return word32(
        encode(VK_FORMAT_B10G11R11_UFLOAT_PACK32, colorF(r, 0, 0, 0)));
  };
  auto b10 = [](double b) {
    return word32(
               encode(VK_FORMAT_B10G11R11_UFLOAT_PACK32, colorF(0, 0, b, 0))) >>
           22;
  };
  // Negative and -Inf -> 0.
  EXPECT_EQ(r11(-1), 0u);
  EXPECT_EQ(r11(-std::numeric_limits<double>::infinity()), 0u);
  // Largest finite: exponent 30, mantissa all ones: 11-bit 30 << 6 | 63 =
  // 0x7BF = (1 + 63/64) * 2^15 = 65024; larger finite values clamp to it.
  EXPECT_EQ(r11(65024), 0x7BFu);
  EXPECT_EQ(r11(1e9), 0x7BFu);
  // 10-bit: 30 << 5 | 31 = 0x3DF = (1 + 31/32) * 2^15 = 64512.
  EXPECT_EQ(b10(1e9), 0x3DFu);
  // +Inf = exponent 31, mantissa 0: 31 << 6 = 0x7C0.
  EXPECT_EQ(r11(std::numeric_limits<double>::infinity()), 0x7C0u);
  // NaN: exponent 31, mantissa not 0.
  uint32_t nan = r11(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(nan & 0x7C0u, 0x7C0u);
  EXPECT_NE(nan & 0x3Fu, 0u);
  // Ties to even: 1 + 2^-7 is halfway between mantissas 0 and 1 -> 0x3C0;
  // 1 + 3 * 2^-7 between 1 and 2 -> 2 -> 0x3C2. 10-bit: 1 + 3 * 2^-6 -> 2.
  EXPECT_EQ(r11(1 + std::ldexp(1, -7)), 0x3C0u);
  EXPECT_EQ(r11(1 + 3 * std::ldexp(1, -7)), 0x3C2u);
  EXPECT_EQ(b10(1 + 3 * std::ldexp(1, -6)), 0x1E2u);
  // Denormal: mantissa 1 with exponent 0 = 2^-14 * 1/64 = 2^-20.
  EXPECT_EQ(r11(std::ldexp(1, -20)), 0x001u);
  const std::vector<uint8_t> tiny = bytesOf32(0x001);
  EXPECT_EQ(
      decodeColor(format(VK_FORMAT_B10G11R11_UFLOAT_PACK32), tiny.data()).f[0],
      std::ldexp(1, -20));
}

TEST(VulkanFormatsTest, E5B9G9R9) {
  // (1, 1, 1): max 1, floor(log2 1) = 0 -> exponent 0 + 1 + 15 = 16;
  // mantissa = floor(1 / 2^(16 - 15 - 9) + 0.5) = 256, below 512, so the
  // exponent stays. Word = 16 << 27 | 256 << 18 | 256 << 9 | 256
  //   = 0x80000000 | 0x04000000 | 0x00020000 | 0x100 = 0x84020100.
  const VulkanFormat &f = format(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32);
  std::vector<uint8_t> bytes =
      encode(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, colorF(1, 1, 1, 1));
  EXPECT_EQ(word32(bytes), 0x84020100u);
  Color color = decodeColor(f, bytes.data());
  EXPECT_EQ(color.f[0], 1.0); // 256 * 2^(16 - 24)
  EXPECT_EQ(color.f[1], 1.0);
  EXPECT_EQ(color.f[2], 1.0);
  EXPECT_EQ(color.f[3], 1.0);

  // (0.5, 0.25, 0): floor(log2 0.5) = -1 -> exponent 15; scale 2^(15-24):
  // R = 0.5 * 2^9 = 256, G = 0.25 * 2^9 = 128, B = 0.
  // Word = 15 << 27 | 128 << 9 | 256 = 0x78000000 | 0x10000 | 0x100.
  bytes = encode(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, colorF(0.5, 0.25, 0, 1));
  EXPECT_EQ(word32(bytes), 0x78010100u);
  color = decodeColor(f, bytes.data());
  EXPECT_EQ(color.f[0], 0.5);
  EXPECT_EQ(color.f[1], 0.25);
  EXPECT_EQ(color.f[2], 0.0);

  // 1.999: exponent 16 gives floor(1.999 * 256 + 0.5) = floor(512.244)
  // = 512 = 2^9, so the exponent becomes 17: R = floor(1.999 * 128 + 0.5)
  // = floor(256.372) = 256 -> 2.0. Negative G clamps to 0.
  bytes = encode(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, colorF(1.999, -5, 0, 1));
  EXPECT_EQ(word32(bytes), (17u << 27) | 256u);
  EXPECT_EQ(decodeColor(f, bytes.data()).f[0], 2.0);

  // Everything zero: floor(log2 0) -> -16, exponent -16 + 1 + 15 = 0.
  EXPECT_EQ(
      word32(encode(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, colorF(0, 0, 0, 1))), 0u);
  // Clamp at (2^9 - 1) / 2^9 * 2^16 = 65408: exponent 15 + 1 + 15 = 31,
  // mantissa 65408 / 2^7 = 511. Word = 31 << 27 | 511 = 0xF80001FF.
  EXPECT_EQ(
      word32(encode(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, colorF(1e9, 0, 0, 1))),
      0xF80001FFu);
}

TEST(VulkanFormatsTest, A2B10G10R10) {
  // UNORM (1, 0, 0.5, 1/3): R = 1023 in bits 0-9; G = 0 in 10-19;
  // B = 0.5 * 1023 = 511.5 -> 512 in 20-29; A = 1/3 * 3 = 1 -> 1.5 -> 1 in
  // 30-31. Word = 1 << 30 | 512 << 20 | 1023 = 0x40000000 | 0x20000000 |
  // 0x3FF = 0x600003FF, little-endian FF 03 00 60.
  std::vector<uint8_t> bytes =
      encode(VK_FORMAT_A2B10G10R10_UNORM_PACK32, colorF(1, 0, 0.5, 1 / 3.0));
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0xFF, 0x03, 0x00, 0x60}));
  Color color =
      decodeColor(format(VK_FORMAT_A2B10G10R10_UNORM_PACK32), bytes.data());
  EXPECT_EQ(color.f[0], 1.0);
  EXPECT_EQ(color.f[1], 0.0);
  EXPECT_EQ(color.f[2], 512 / 1023.0);
  EXPECT_EQ(color.f[3], 1 / 3.0);

  // The same word in A2R10G10B10 swaps R and B: B = 1023, R = 512.
  color = decodeColor(format(VK_FORMAT_A2R10G10B10_UNORM_PACK32), bytes.data());
  EXPECT_EQ(color.f[0], 512 / 1023.0);
  EXPECT_EQ(color.f[2], 1.0);

  // UINT word 3 << 30 | 7 << 20 | 5 << 10 | 1 = 0xC0701401.
  const std::vector<uint8_t> word = bytesOf32(0xC0701401u);
  color = decodeColor(format(VK_FORMAT_A2R10G10B10_UINT_PACK32), word.data());
  EXPECT_EQ(color.i[0], 7); // R: bits 20-29
  EXPECT_EQ(color.i[1], 5);
  EXPECT_EQ(color.i[2], 1); // B: bits 0-9
  EXPECT_EQ(color.i[3], 3);
  color = decodeColor(format(VK_FORMAT_A2B10G10R10_UINT_PACK32), word.data());
  EXPECT_EQ(color.i[0], 1); // R: bits 0-9
  EXPECT_EQ(color.i[2], 7);
  // SINT: 3 in two bits is -1; 7, 5 and 1 are positive.
  color = decodeColor(format(VK_FORMAT_A2B10G10R10_SINT_PACK32), word.data());
  EXPECT_EQ(color.i[3], -1);
  EXPECT_EQ(color.f[3], -1.0);

  // SNORM: R = 0x200 = -512 -> max(-512/511, -1) = -1; G = 0x1FF = 511 ->
  // 1; A: 2 bits, 2^1 - 1 = 1, field 1 -> 1. Word = 1 << 30 | 0x1FF << 10 |
  // 0x200 = 0x40000000 | 0x7FC00 | 0x200 = 0x4007FE00.
  const std::vector<uint8_t> snorm = bytesOf32(0x4007FE00u);
  color = decodeColor(format(VK_FORMAT_A2B10G10R10_SNORM_PACK32), snorm.data());
  EXPECT_EQ(color.f[0], -1.0);
  EXPECT_EQ(color.f[1], 1.0);
  EXPECT_EQ(color.f[2], 0.0);
  EXPECT_EQ(color.f[3], 1.0);
  // Encoding -1 gives -511 = 0x201, and alpha -1 gives 0b11.
  EXPECT_EQ(
      word32(encode(VK_FORMAT_A2B10G10R10_SNORM_PACK32, colorF(-1, 0, 0, -1))),
      (3u << 30) | 0x201u);
}

TEST(VulkanFormatsTest, A8B8G8R8MatchesR8G8B8A8Bytes) {
  // One little-endian word, A in bits 24-31 ... R in bits 0-7: the bytes
  // are R, G, B, A. (1, 0.5, 0, 0.2) -> 255, 128, 0, 0.2 * 255 = 51 -> 51.
  EXPECT_EQ(encode(VK_FORMAT_A8B8G8R8_UNORM_PACK32, colorF(1, 0.5, 0, 0.2)),
            (std::vector<uint8_t>{255, 128, 0, 51}));
  EXPECT_EQ(encode(VK_FORMAT_A8B8G8R8_SINT_PACK32, colorI(-1, 2, -3, 4)),
            (std::vector<uint8_t>{0xFF, 0x02, 0xFD, 0x04}));
  EXPECT_EQ(encode(VK_FORMAT_A8B8G8R8_SRGB_PACK32, colorF(0.5, 0, 0, 0.5)),
            (std::vector<uint8_t>{188, 0, 0, 128}));
}

TEST(VulkanFormatsTest, Packed16BitFormats) {
  // R5G6B5: R bits 11-15, G 5-10, B 0-4. (1, 0, 1) -> 0xF800 | 0x1F.
  EXPECT_EQ(word16(encode(VK_FORMAT_R5G6B5_UNORM_PACK16, colorF(1, 0, 1, 1))),
            0xF81F);
  // B5G6R5: B bits 11-15 = 0; G = 0.5 * 63 = 31.5 -> 32 << 5 = 0x400;
  // R = 31 in bits 0-4.
  EXPECT_EQ(word16(encode(VK_FORMAT_B5G6R5_UNORM_PACK16, colorF(1, 0.5, 0, 1))),
            0x041F);
  // R4G4B4A4: R bits 12-15, A bits 0-3.
  EXPECT_EQ(word16(encode(VK_FORMAT_R4G4B4A4_UNORM_PACK16, colorF(1, 0, 0, 1))),
            0xF00F);
  // B4G4R4A4: B bits 12-15, G 8-11, R 4-7, A 0-3; G = 0.2 * 15 = 3.
  EXPECT_EQ(
      word16(encode(VK_FORMAT_B4G4R4A4_UNORM_PACK16, colorF(1, 0.2, 0, 0))),
      0x03F0);
  // A1R5G5B5: A bit 15, B bits 0-4; A 0.4 -> floor(0.9) = 0.
  EXPECT_EQ(word16(encode(VK_FORMAT_A1R5G5B5_UNORM_PACK16, colorF(0, 0, 1, 1))),
            0x801F);
  EXPECT_EQ(
      word16(encode(VK_FORMAT_A1R5G5B5_UNORM_PACK16, colorF(0, 0, 1, 0.4))),
      0x001F);
  // R5G5B5A1: R bits 11-15, G 6-10, B 1-5, A bit 0.
  EXPECT_EQ(word16(encode(VK_FORMAT_R5G5B5A1_UNORM_PACK16, colorF(0, 1, 0, 1))),
            (31 << 6) | 1);
  // B5G5R5A1 0x0001: A = 1, colour 0; 0x8000: B = 16/31.
  const uint8_t alpha[] = {0x01, 0x00};
  Color color = decodeColor(format(VK_FORMAT_B5G5R5A1_UNORM_PACK16), alpha);
  EXPECT_EQ(color.f[0], 0.0);
  EXPECT_EQ(color.f[3], 1.0);
  const uint8_t blue[] = {0x00, 0x80};
  color = decodeColor(format(VK_FORMAT_B5G5R5A1_UNORM_PACK16), blue);
  EXPECT_EQ(color.f[2], 16 / 31.0);
  EXPECT_EQ(color.f[3], 0.0);
}

TEST(VulkanFormatsTest, D24UnormS8) {
  const VulkanFormat &f = format(VK_FORMAT_D24_UNORM_S8_UINT);
  uint8_t bytes[4] = {0x11, 0x22, 0x33, 0x44};
  // 0.5 * (2^24 - 1) = 8388607.5 -> 8388608 = 0x800000 in bits 0-23; the
  // stencil byte (bits 24-31) stays.
  encodeDepth(f, 0.5, bytes);
  EXPECT_EQ(bytes[0], 0x00);
  EXPECT_EQ(bytes[1], 0x00);
  EXPECT_EQ(bytes[2], 0x80);
  EXPECT_EQ(bytes[3], 0x44);
  encodeStencil(f, 0xAB, bytes);
  EXPECT_EQ(bytes[3], 0xAB);
  EXPECT_EQ(bytes[2], 0x80);
  EXPECT_EQ(decodeStencil(f, bytes), 0xAB);
  EXPECT_EQ(decodeDepth(f, bytes), 8388608 / 16777215.0);
  // Clamped to [0, 1]: 2 -> 0xFFFFFF, -1 -> 0.
  encodeDepth(f, 2, bytes);
  EXPECT_EQ(bytes[0] & bytes[1] & bytes[2], 0xFF);
  EXPECT_EQ(bytes[3], 0xAB);
  encodeDepth(f, -1, bytes);
  EXPECT_EQ(bytes[0] | bytes[1] | bytes[2], 0x00);
  EXPECT_EQ(decodeDepth(f, bytes), 0.0);
}

TEST(VulkanFormatsTest, OtherDepthStencilLayouts) {
  // D16_UNORM: 1/3 * 65535 = 21845 -> 0x5555.
  uint8_t d16[2] = {};
  encodeDepth(format(VK_FORMAT_D16_UNORM), 1 / 3.0, d16);
  EXPECT_EQ(d16[0], 0x55);
  EXPECT_EQ(d16[1], 0x55);
  EXPECT_EQ(decodeDepth(format(VK_FORMAT_D16_UNORM), d16), 21845 / 65535.0);
  EXPECT_EQ(decodeStencil(format(VK_FORMAT_D16_UNORM), d16), 0);

  // D16_UNORM_S8_UINT: depth bytes 0-1, stencil byte 2, byte 3 padding.
  const VulkanFormat &d16s8 = format(VK_FORMAT_D16_UNORM_S8_UINT);
  uint8_t packed[4] = {0, 0, 0, 0x77};
  encodeDepth(d16s8, 1.0, packed);
  encodeStencil(d16s8, 0x5A, packed);
  EXPECT_EQ(packed[0], 0xFF);
  EXPECT_EQ(packed[1], 0xFF);
  EXPECT_EQ(packed[2], 0x5A);
  EXPECT_EQ(packed[3], 0x77);
  EXPECT_EQ(decodeDepth(d16s8, packed), 1.0);
  EXPECT_EQ(decodeStencil(d16s8, packed), 0x5A);

  // X8_D24_UNORM_PACK32: 1.0 -> 0xFFFFFF in bits 0-23, top byte unused.
  uint8_t x8[4] = {0, 0, 0, 0x12};
  encodeDepth(format(VK_FORMAT_X8_D24_UNORM_PACK32), 1.0, x8);
  EXPECT_EQ(x8[0] & x8[1] & x8[2], 0xFF);
  EXPECT_EQ(decodeDepth(format(VK_FORMAT_X8_D24_UNORM_PACK32), x8), 1.0);

  // D32_SFLOAT_S8_UINT: float at bytes 0-3 (0.25 = 0x3E800000), stencil
  // at byte 4, bytes 5-7 padding.
  const VulkanFormat &d32s8 = format(VK_FORMAT_D32_SFLOAT_S8_UINT);
  uint8_t wide[8] = {};
  encodeDepth(d32s8, 0.25, wide);
  encodeStencil(d32s8, 9, wide);
  EXPECT_EQ(std::vector<uint8_t>(wide, wide + 8),
            (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3E, 9, 0, 0, 0}));
  EXPECT_EQ(decodeDepth(d32s8, wide), 0.25);
  EXPECT_EQ(decodeStencil(d32s8, wide), 9);

  // D32_SFLOAT stores the value as is: 2.0 = 0x40000000, not clamped.
  uint8_t d32[4] = {};
  encodeDepth(format(VK_FORMAT_D32_SFLOAT), 2.0, d32);
  EXPECT_EQ(std::vector<uint8_t>(d32, d32 + 4),
            (std::vector<uint8_t>{0, 0, 0, 0x40}));
  EXPECT_EQ(decodeDepth(format(VK_FORMAT_D32_SFLOAT), d32), 2.0);

  // S8_UINT: the stencil is byte 0; no depth.
  uint8_t s8 = 0;
  encodeStencil(format(VK_FORMAT_S8_UINT), 200, &s8);
  encodeDepth(format(VK_FORMAT_S8_UINT), 0.5, &s8);
  EXPECT_EQ(s8, 200);
  EXPECT_EQ(decodeStencil(format(VK_FORMAT_S8_UINT), &s8), 200);
  EXPECT_EQ(decodeDepth(format(VK_FORMAT_S8_UINT), &s8), 0.0);
}

TEST(VulkanFormatsTest, IntegerFormats) {
  EXPECT_TRUE(isIntegerFormat(format(VK_FORMAT_R8_UINT)));
  EXPECT_TRUE(isIntegerFormat(format(VK_FORMAT_R64G64B64A64_SINT)));
  EXPECT_TRUE(isIntegerFormat(format(VK_FORMAT_A2B10G10R10_SINT_PACK32)));
  EXPECT_FALSE(isIntegerFormat(format(VK_FORMAT_R8_USCALED)));
  EXPECT_FALSE(isIntegerFormat(format(VK_FORMAT_R8G8B8A8_UNORM)));
  EXPECT_FALSE(isIntegerFormat(format(VK_FORMAT_R16_SFLOAT)));
  EXPECT_FALSE(isIntegerFormat(format(VK_FORMAT_B10G11R11_UFLOAT_PACK32)));
}

} // namespace
