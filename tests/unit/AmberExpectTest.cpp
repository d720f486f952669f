//===- AmberExpectTest.cpp - EXPECT and buffer comparisons ----------------===//
//
// Amber's checks on bytes written by hand: floats compare after rounding
// the expected value to the stored type, tolerances are absolute or a
// percentage of the expected value, comparisons follow the signedness of
// the type, vec3 elements skip their padding, and the RMSE and histogram
// distances below are worked out in the comments.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/AmberLayout.h"
#include "spvbridge/amber/ExpectChecks.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace spvb::amber;

namespace {

Type typeNamed(llvm::StringRef name) {
  std::optional<Type> type = parseNumberTypeName(name);
  if (!type)
    type = parseFormatName(name);
  EXPECT_TRUE(type) << name.str();
  return type ? *type : Type();
}

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

ExpectCommand makeExpect(llvm::StringRef type, Comparator comparator,
                         std::vector<Value> values, uint64_t offset = 0) {
  ExpectCommand expect;
  expect.buffer = "buf";
  expect.type = typeNamed(type);
  expect.comparator = comparator;
  expect.values = std::move(values);
  expect.offset = offset;
  return expect;
}

TEST(AmberExpect, FloatEqualityRoundsTheExpectedValueToTheStoredType) {
  std::vector<uint8_t> bytes = bytesOf<float>({3.7f, -0.5f});
  EXPECT_FALSE(
      checkExpect(makeExpect("float", Comparator::Equal,
                             {Value::fromDouble(3.7), Value::fromDouble(-0.5)}),
                  bytes));
  std::optional<std::string> failure = checkExpect(
      makeExpect("float", Comparator::Equal,
                 {Value::fromDouble(3.71), Value::fromDouble(-0.5)}),
      bytes);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "EXPECT buf IDX 0 EQ: 1 of 2 values fail: value 0 "
                      "(byte 0) is 3.70000005, expected EQ 3.71000004");
  EXPECT_FALSE(checkExpect(
      makeExpect("float", Comparator::NotEqual, {Value::fromDouble(3.71)}),
      bytes));
}

TEST(AmberExpect, TolerancesAreAbsoluteOrPercent) {
  std::vector<uint8_t> bytes = bytesOf<float>({1.005f, 101.0f});
  ExpectCommand absolute =
      makeExpect("float", Comparator::FuzzyEqual, {Value::fromDouble(1.0)});
  absolute.tolerances = {{0.01, false}};
  EXPECT_FALSE(checkExpect(absolute, bytes));
  absolute.tolerances = {{0.001, false}};
  EXPECT_TRUE(checkExpect(absolute, bytes));
  // 1% of 100 is 1: 101 is inside, 102 would not be.
  ExpectCommand percent = makeExpect("float", Comparator::FuzzyEqual,
                                     {Value::fromDouble(100.0)}, 4);
  percent.tolerances = {{1, true}};
  EXPECT_FALSE(checkExpect(percent, bytes));
  percent.tolerances = {{0.5, true}};
  EXPECT_TRUE(checkExpect(percent, bytes));
}

TEST(AmberExpect, OrderingFollowsTheSignednessOfTheType) {
  std::vector<uint8_t> signedBytes = bytesOf<int32_t>({-5});
  EXPECT_FALSE(checkExpect(
      makeExpect("int32", Comparator::Less, {Value::fromInt(0)}), signedBytes));
  // The same bits as uint32 are 4294967291, above 1.
  EXPECT_FALSE(checkExpect(
      makeExpect("uint32", Comparator::Greater, {Value::fromUint(1)}),
      signedBytes));
  EXPECT_TRUE(checkExpect(
      makeExpect("int32", Comparator::GreaterOrEqual, {Value::fromInt(0)}),
      signedBytes));
}

TEST(AmberExpect, Vec3ElementsSkipTheirPadding) {
  // std430 vec3<float>: 16 bytes per element, the fourth float padding
  // (here 99, never compared).
  std::vector<uint8_t> bytes = bytesOf<float>({1, 2, 3, 99, 4, 5, 6, 99});
  ExpectCommand expect = makeExpect(
      "vec3<float>", Comparator::Equal,
      {Value::fromDouble(1), Value::fromDouble(2), Value::fromDouble(3),
       Value::fromDouble(4), Value::fromDouble(5), Value::fromDouble(6)});
  EXPECT_FALSE(checkExpect(expect, bytes));
  expect.values[4] = Value::fromDouble(7);
  std::optional<std::string> failure = checkExpect(expect, bytes);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("value 4 (byte 20) is 5, expected EQ 7"),
            std::string::npos)
      << *failure;
}

TEST(AmberExpect, ReadingPastTheEndIsAFailure) {
  std::vector<uint8_t> bytes = bytesOf<uint32_t>({1, 2});
  std::optional<std::string> failure =
      checkExpect(makeExpect("uint32", Comparator::Equal,
                             {Value::fromUint(2), Value::fromUint(3)}, 4),
                  bytes);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "EXPECT buf IDX 4: value 1 is at byte 8, past the end "
                      "of the buffer (8 bytes)");
}

Buffer bufferOf(llvm::StringRef type) {
  Buffer buffer;
  buffer.type = typeNamed(type);
  return buffer;
}

/// EXPECT a <method> b [TOLERANCE tolerance].
CompareBuffersCommand makeComparison(CompareBuffersCommand::Method method,
                                     double tolerance = 0) {
  CompareBuffersCommand compare;
  compare.buffer = "a";
  compare.other = "b";
  compare.method = method;
  compare.tolerance = tolerance;
  return compare;
}

TEST(AmberExpect, EqualBuffersCompareBytes) {
  CompareBuffersCommand compare =
      makeComparison(CompareBuffersCommand::Method::Equal);
  Buffer info = bufferOf("uint8");
  std::vector<uint8_t> a = {1, 2, 3, 4}, b = {1, 2, 9, 8};
  EXPECT_FALSE(checkBufferComparison(compare, info, a, info, a));
  std::optional<std::string> failure =
      checkBufferComparison(compare, info, a, info, b);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "EXPECT a EQ_BUFFER b: 2 of 4 bytes differ, the first "
                      "at byte 2: 3 != 9");
}

TEST(AmberExpect, RootMeanSquareError) {
  // Differences 3, 4, 0, 0: sqrt((9 + 16) / 4) = 2.5.
  CompareBuffersCommand compare =
      makeComparison(CompareBuffersCommand::Method::Rmse, 2.5);
  Buffer info = bufferOf("uint8");
  std::vector<uint8_t> a = {0, 0, 0, 0}, b = {3, 4, 0, 0};
  EXPECT_FALSE(checkBufferComparison(compare, info, a, info, b));
  compare.tolerance = 2.4;
  std::optional<std::string> failure =
      checkBufferComparison(compare, info, a, info, b);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "EXPECT a RMSE_BUFFER b: root mean square error 2.5 "
                      "is above the tolerance 2.4");
}

TEST(AmberExpect, HistogramEarthMoversDistance) {
  // Two texels; red is {0, 0} in one and {0, 1} in the other: histograms
  // {1} and {0.5, 0.5}, cumulative differences 0.5 then 0, so the distance
  // is 0.5 / 256 = 0.001953125; the other channels agree.
  CompareBuffersCommand compare =
      makeComparison(CompareBuffersCommand::Method::HistogramEmd, 0.002);
  Buffer info = bufferOf("R8G8B8A8_UNORM");
  std::vector<uint8_t> a = {0, 7, 7, 255, 0, 9, 9, 255};
  std::vector<uint8_t> b = {0, 7, 7, 255, 1, 9, 9, 255};
  EXPECT_FALSE(checkBufferComparison(compare, info, a, info, b));
  compare.tolerance = 0.0019;
  std::optional<std::string> failure =
      checkBufferComparison(compare, info, a, info, b);
  ASSERT_TRUE(failure);
  EXPECT_NE(failure->find("distance 0.001953125 is above"), std::string::npos)
      << *failure;
}

TEST(AmberExpect, ColourProbesScaleNormalizedTexels) {
  // A 2x1 R8G8B8A8_UNORM image: (255, 0, 128, 255) and (0, 255, 64, 255);
  // 128 / 255 = 0.50196 and 64 / 255 = 0.25098.
  Buffer image = bufferOf("R8G8B8A8_UNORM");
  image.name = "img";
  image.width = 2;
  image.height = 1;
  std::vector<uint8_t> bytes = {255, 0, 128, 255, 0, 255, 64, 255};
  ExpectRectCommand probe;
  probe.buffer = "img";
  probe.width = 1;
  probe.height = 1;
  probe.hasAlpha = true;
  probe.color = {1.0, 0.0, 128 / 255.0, 1.0};
  EXPECT_FALSE(checkExpectRect(probe, image, bytes));
  // 127 / 255 is 0.0039 away: beyond the default 0.002, within 0.005.
  probe.color[2] = 127 / 255.0;
  EXPECT_TRUE(checkExpectRect(probe, image, bytes));
  probe.tolerances = {{0.005, false}};
  EXPECT_FALSE(checkExpectRect(probe, image, bytes));
  // The whole image against the first colour: the second pixel differs.
  probe.tolerances.clear();
  probe.color[2] = 128 / 255.0;
  probe.wholeImage = true;
  std::optional<std::string> failure = checkExpectRect(probe, image, bytes);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "EXPECT img EQ_RGBA: 1 of 2 pixels differ from 1 0 "
                      "0.501960784 1, the first at (1, 0): 0 1 0.250980392 "
                      "1");
  // A rectangle past the image is an error, not a pass.
  probe.wholeImage = false;
  probe.x = 1;
  probe.width = 2;
  failure = checkExpectRect(probe, image, bytes);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "EXPECT img EQ_RGBA: the rectangle (1, 0) 2x1 is not "
                      "inside the 2x1 image");
}

TEST(AmberExpect, FailedProbeDifferenceImage) {
  // A 3x1 image: (255, 0, 128, 255), (0, 255, 64, 255), (0, 0, 0, 255);
  // probing (1, 0, 0.50196, 1) over x = 0..1 passes at x = 0 only.
  Buffer image = bufferOf("R8G8B8A8_UNORM");
  image.name = "img";
  image.width = 3;
  image.height = 1;
  std::vector<uint8_t> bytes = {255, 0,   128, 255, 0, 255,
                                64,  255, 0,   0,   0, 255};
  ExpectRectCommand probe;
  probe.buffer = "img";
  probe.width = 2;
  probe.height = 1;
  probe.hasAlpha = true;
  probe.color = {1.0, 0.0, 128 / 255.0, 1.0};
  ProbedTexels probed;
  ASSERT_TRUE(checkExpectRect(probe, image, bytes, &probed));
  EXPECT_EQ(probed.x, 0u);
  EXPECT_EQ(probed.width, 2u);
  EXPECT_EQ(probed.height, 1u);
  EXPECT_EQ(probed.failing, std::vector<bool>({false, true}));
  // Passing: luma (77 * 255 + 29 * 128) / 256 = 23347 / 256 = 91, grey
  // 64 + 91 / 2 = 109; failing: red; outside the rectangle: transparent.
  PngImage actual{3, 1, bytes};
  PngImage difference = makeProbeDifferenceImage(actual, probed);
  EXPECT_EQ(difference.width, 3u);
  EXPECT_EQ(difference.height, 1u);
  EXPECT_EQ(difference.rgba, std::vector<uint8_t>({109, 109, 109, 255, 255, 0,
                                                   0, 255, 0, 0, 0, 0}));
  // A rectangle outside the image compares no texels: nothing to show.
  probe.x = 2;
  ProbedTexels none;
  ASSERT_TRUE(checkExpectRect(probe, image, bytes, &none));
  EXPECT_TRUE(none.failing.empty());
}

} // namespace
