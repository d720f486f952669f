//===- BufferCompareTest.cpp - spv-run --compare's comparison -------------===//
//
// Synthetic buffers and layouts: the two backends cannot be made to
// disagree on purpose, so the comparison rule and the report are checked
// here. Float bit patterns are built from IEEE-754 by hand (0x3f800000 is
// 1.0f; neighbouring patterns are one ULP apart).
//
//===----------------------------------------------------------------------===//

#include "spvbridge/vulkan/BufferCompare.h"
#include "TestUtil.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace spvb;
using namespace spvb::vulkan;
using namespace spvb::test;

namespace {

uint64_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

uint64_t bitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

bool f32Agree(uint64_t a, uint64_t b, Tolerance tolerance = {}) {
  return scalarsAgree(ScalarKind::Float, 4, a, b, tolerance);
}

TEST(BufferCompare, DefaultTolerance) {
  Tolerance tolerance;
  EXPECT_EQ(tolerance.ulp, 4u);
  EXPECT_EQ(tolerance.absolute, std::ldexp(1.0, -21));
}

TEST(BufferCompare, FloatUlpDistance) {
  const uint64_t one = 0x3f800000;
  EXPECT_TRUE(f32Agree(one, one));
  EXPECT_TRUE(f32Agree(one, one + 4));
  EXPECT_TRUE(f32Agree(one + 4, one));
  EXPECT_FALSE(f32Agree(one, one + 5));
  // 1.0 and the float just below it (0x3f7fffff) are one ULP apart across
  // the exponent boundary.
  EXPECT_TRUE(f32Agree(one, 0x3f7fffff, {1, 0}));
  EXPECT_FALSE(f32Agree(one, 0x3f7ffffe, {1, 0}));
  // Negative values: -1.0 and the next one towards -inf.
  EXPECT_TRUE(f32Agree(0xbf800000, 0xbf800003));
  // The ULP bound is a flag.
  EXPECT_TRUE(f32Agree(one, one + 5, {5, 0}));
  EXPECT_FALSE(f32Agree(one, one + 1, {0, 0}));
}

TEST(BufferCompare, FloatSpecialValues) {
  const uint64_t nan = 0x7fc00000, otherNan = 0xffc00001;
  const uint64_t inf = 0x7f800000, maxFloat = 0x7f7fffff;
  EXPECT_TRUE(f32Agree(nan, otherNan));
  EXPECT_FALSE(f32Agree(nan, 0x3f800000));
  EXPECT_FALSE(f32Agree(0, nan));
  EXPECT_TRUE(f32Agree(inf, inf));
  EXPECT_FALSE(f32Agree(inf, inf | 0x80000000));
  // One ULP apart as bit patterns, but an infinity is not a rounding error.
  EXPECT_FALSE(f32Agree(inf, maxFloat));
  // +0 and -0 are equal even without any tolerance.
  EXPECT_TRUE(f32Agree(0, 0x80000000, {0, 0}));
  // Subnormals may be flushed to zero on either side.
  EXPECT_TRUE(f32Agree(0x00000001, 0, {0, 0}));
  EXPECT_TRUE(f32Agree(0x807fffff, 0, {0, 0}));
  EXPECT_FALSE(f32Agree(0x00800000, 0, {0, 0})); // FLT_MIN is normal
}

TEST(BufferCompare, FloatAbsoluteToleranceNearZero) {
  // 1e-7 and -1e-7 are far apart in ULPs but 2e-7 < 2^-21 (4.77e-7) apart.
  EXPECT_TRUE(f32Agree(bitsOf(1e-7f), bitsOf(-1e-7f)));
  EXPECT_FALSE(f32Agree(bitsOf(1e-6f), 0));
  EXPECT_TRUE(f32Agree(bitsOf(1e-6f), 0, {4, 1e-6}));
  // The absolute bound does not make large values agree.
  EXPECT_FALSE(f32Agree(bitsOf(1000.0f), bitsOf(1000.001f)));
}

TEST(BufferCompare, HalfAndDoubleUlps) {
  Tolerance tolerance;
  // f16 1.0 is 0x3c00; its ULP is 2^-10, far above the absolute bound.
  EXPECT_TRUE(scalarsAgree(ScalarKind::Float, 2, 0x3c00, 0x3c04, tolerance));
  EXPECT_FALSE(scalarsAgree(ScalarKind::Float, 2, 0x3c00, 0x3c05, tolerance));
  EXPECT_TRUE(scalarsAgree(ScalarKind::Float, 2, 0x7e00, 0xfe01, tolerance));
  // An f64 ULP at 1.0 is 2^-52, well inside the absolute bound; without it
  // the ULP count decides.
  uint64_t one = bitsOf(1.0);
  EXPECT_TRUE(scalarsAgree(ScalarKind::Float, 8, one, one + 5, tolerance));
  EXPECT_TRUE(scalarsAgree(ScalarKind::Float, 8, one, one + 4, {4, 0}));
  EXPECT_FALSE(scalarsAgree(ScalarKind::Float, 8, one, one + 5, {4, 0}));
}

TEST(BufferCompare, IntegersAndBoolsExactly) {
  Tolerance loose{1000, 1000.0};
  EXPECT_TRUE(
      scalarsAgree(ScalarKind::Signed, 4, 0xffffffff, 0xffffffff, loose));
  EXPECT_FALSE(scalarsAgree(ScalarKind::Signed, 4, 1, 2, loose));
  EXPECT_FALSE(scalarsAgree(ScalarKind::Unsigned, 8, 1, 2, loose));
  EXPECT_TRUE(scalarsAgree(ScalarKind::Bool, 4, 1, 7, loose));
  EXPECT_FALSE(scalarsAgree(ScalarKind::Bool, 4, 1, 0, loose));
}

TEST(BufferCompare, FormatScalar) {
  EXPECT_EQ(formatScalar(ScalarKind::Signed, 4, 0xffffffff), "-1");
  EXPECT_EQ(formatScalar(ScalarKind::Signed, 1, 0x80), "-128");
  EXPECT_EQ(formatScalar(ScalarKind::Unsigned, 1, 0xff), "255");
  EXPECT_EQ(formatScalar(ScalarKind::Bool, 4, 1), "true");
  EXPECT_EQ(formatScalar(ScalarKind::Float, 4, 0x3fc00000), "1.5");
  EXPECT_EQ(formatScalar(ScalarKind::Float, 4, 0x3dcccccd), "0.100000001");
  EXPECT_EQ(formatScalar(ScalarKind::Float, 2, 0x3c00), "1");
  EXPECT_EQ(formatScalar(ScalarKind::Float, 8, bitsOf(0.1)),
            "0.10000000000000001");
  EXPECT_EQ(formatScalar(ScalarKind::Float, 4, 0x7f800000), "inf");
}

/// struct { uint count; (pad) float data[]; } with data at 16.
BlockScalarLayout countAndFloats() {
  BlockScalarLayout layout;
  layout.fields.push_back({0, ScalarKind::Unsigned, 4, "count"});
  layout.runtimeArrayPath = "data";
  layout.runtimeArrayOffset = 16;
  layout.runtimeArrayStride = 4;
  layout.elementFields.push_back({0, ScalarKind::Float, 4, ""});
  return layout;
}

void putWord(std::vector<uint8_t> &bytes, size_t offset, uint32_t word) {
  std::memcpy(bytes.data() + offset, &word, sizeof word);
}

TEST(BufferCompare, ReportsTheFirstEightAndCountsAll) {
  std::vector<uint8_t> cpu(16 + 4 * 20, 0), vulkan(16 + 4 * 20, 0);
  putWord(cpu, 0, 20);
  putWord(vulkan, 0, 20);
  // Padding (bytes 4..15) differs but is no member's: not compared.
  putWord(vulkan, 8, 0xdeadbeef);
  for (size_t i = 0; i < 20; ++i) {
    putWord(cpu, 16 + 4 * i, 0x3f800000); // 1.0
    putWord(vulkan, 16 + 4 * i,
            i % 2 ? 0x40000000 : // 2.0 at odd i
                0x3f800001);     // 1 ULP off at even i
  }
  BufferComparison result =
      compareBuffer(0, 1, countAndFloats(), cpu, vulkan, Tolerance());
  EXPECT_EQ(result.compared, 21u);
  EXPECT_EQ(result.differing, 10u);
  ASSERT_EQ(result.first.size(), 8u);
  // data[1] is the third scalar (count, data[0], data[1]) at byte 16 + 4.
  EXPECT_EQ(result.first[0].index, 2u);
  EXPECT_EQ(result.first[0].offset, 20u);
  EXPECT_EQ(result.first[0].path, "data[1]");
  EXPECT_EQ(result.first[7].path, "data[15]");
  std::string report = formatComparison(result);
  EXPECT_EQ(report.substr(0, report.find('\n')),
            "0:1 element 2 (byte 20) data[1]: cpu 1 vs vulkan 2");
  EXPECT_NE(report.find("\n0:1 element 16 (byte 76) data[15]: cpu 1 vs "
                        "vulkan 2\n0:1: 10 of 21 elements differ\n"),
            std::string::npos)
      << report;
  EXPECT_EQ(formatSummary({result}), "compare: 1 of 1 storage buffers differ");
}

TEST(BufferCompare, AgreeingBuffers) {
  std::vector<uint8_t> bytes(16 + 8, 0);
  putWord(bytes, 0, 7);
  BufferComparison result =
      compareBuffer(2, 3, countAndFloats(), bytes, bytes, Tolerance());
  EXPECT_TRUE(result.agrees());
  EXPECT_EQ(formatComparison(result), "2:3: all 3 elements agree\n");
  EXPECT_EQ(formatSummary({result, result}),
            "compare: all 2 storage buffers agree");
}

TEST(BufferCompare, ParseTolerance) {
  Tolerance tolerance = unwrap(parseTolerance("2", "1e-3"));
  EXPECT_EQ(tolerance.ulp, 2u);
  EXPECT_EQ(tolerance.absolute, 1e-3);
  EXPECT_EQ(unwrap(parseTolerance("0", "0x1p-11")).absolute,
            std::ldexp(1.0, -11));
  EXPECT_EQ(errorText(parseTolerance("-1", "0")),
            "error: --ulp '-1': expected an unsigned integer");
  EXPECT_EQ(errorText(parseTolerance("1.5", "0")),
            "error: --ulp '1.5': expected an unsigned integer");
  EXPECT_EQ(errorText(parseTolerance("4", "-1e-3")),
            "error: --abs-tolerance '-1e-3': expected a non-negative number");
  EXPECT_EQ(errorText(parseTolerance("4", "nan")),
            "error: --abs-tolerance 'nan': expected a non-negative number");
  EXPECT_EQ(errorText(parseTolerance("4", "")),
            "error: --abs-tolerance '': expected a non-negative number");
}

} // namespace
