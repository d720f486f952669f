//===- ExpectChecks.cpp - EXPECT and buffer comparisons -------------------===//
#include "spvbridge/amber/ExpectChecks.h"

#include "spvbridge/amber/AmberLayout.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace spvb::amber;

/// Amber's float equality: within 1e-6 percent of the expected value.
static constexpr double kFloatEqualPercent = 0.000001;
/// How many differing values a failure lists.
static constexpr unsigned kShownDifferences = 4;

static bool isEqualWithTolerance(double actual, double expected,
                                 const Tolerance &tolerance) {
  double difference = std::fabs(actual - expected);
  double allowed = tolerance.percent
                       ? tolerance.value / 100.0 * std::fabs(expected)
                       : tolerance.value;
  return difference <= allowed;
}

static const char *getComparatorName(Comparator comparator) {
  switch (comparator) {
  case Comparator::Equal:
    return "EQ";
  case Comparator::NotEqual:
    return "NE";
  case Comparator::Less:
    return "LT";
  case Comparator::LessOrEqual:
    return "LE";
  case Comparator::Greater:
    return "GT";
  case Comparator::GreaterOrEqual:
    return "GE";
  case Comparator::FuzzyEqual:
    return "EQ with TOLERANCE";
  }
  return "?";
}

static std::string formatDouble(double value) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.9g", value);
  return text;
}

static std::string formatValue(const Value &value) {
  switch (value.getKind()) {
  case Value::Kind::Float:
    return formatDouble(value.asDouble());
  case Value::Kind::Int:
    return std::to_string(value.asInt64());
  case Value::Kind::UInt:
    return std::to_string(value.asUint64());
  }
  return "?";
}

/// -1, 0 or 1 as \p actual is below, equal to or above \p expected (both
/// of the same scalar type).
static int compareValues(const Value &actual, const Value &expected) {
  if (actual.isFloat() || expected.isFloat()) {
    double a = actual.asDouble(), e = expected.asDouble();
    return a < e ? -1 : a > e ? 1 : 0;
  }
  if (actual.getKind() == Value::Kind::Int) {
    int64_t a = actual.asInt64(), e = expected.asInt64();
    return a < e ? -1 : a > e ? 1 : 0;
  }
  uint64_t a = actual.asUint64(), e = expected.asUint64();
  return a < e ? -1 : a > e ? 1 : 0;
}

static bool holds(const ExpectCommand &expect, const Value &actual,
                  const Value &expected, unsigned component) {
  bool isFloat = actual.isFloat();
  auto equal = [&] {
    if (!isFloat)
      return actual.asUint64() == expected.asUint64();
    return isEqualWithTolerance(actual.asDouble(), expected.asDouble(),
                                {kFloatEqualPercent, true});
  };
  switch (expect.comparator) {
  case Comparator::Equal:
    return equal();
  case Comparator::NotEqual:
    return !equal();
  case Comparator::Less:
    return compareValues(actual, expected) < 0;
  case Comparator::LessOrEqual:
    return compareValues(actual, expected) <= 0;
  case Comparator::Greater:
    return compareValues(actual, expected) > 0;
  case Comparator::GreaterOrEqual:
    return compareValues(actual, expected) >= 0;
  case Comparator::FuzzyEqual: {
    // One tolerance for every component, or one per vector component.
    Tolerance tolerance{kFloatEqualPercent, true};
    if (!expect.tolerances.empty())
      tolerance = expect.tolerances[component % expect.tolerances.size()];
    return isEqualWithTolerance(actual.asDouble(), expected.asDouble(),
                                tolerance);
  }
  }
  return false;
}

std::optional<std::string>
spvb::amber::checkExpect(const ExpectCommand &expect,
                         llvm::ArrayRef<uint8_t> bytes) {
  std::vector<ScalarSlot> slots = scalarSlots(expect.type, expect.layout);
  if (slots.empty())
    return "EXPECT " + expect.buffer + ": its type has no values to compare";
  uint64_t stride = elementStride(expect.type, expect.layout);
  unsigned differing = 0;
  std::string shown;
  for (size_t i = 0; i < expect.values.size(); ++i) {
    const ScalarSlot &slot = slots[i % slots.size()];
    uint64_t offset = expect.offset + i / slots.size() * stride + slot.offset;
    uint32_t size = slot.scalar.sizeInBytes();
    if (offset + size > bytes.size())
      return llvm::formatv("EXPECT {0} IDX {1}: value {2} is at byte {3}, "
                           "past the end of the buffer ({4} bytes)",
                           expect.buffer, expect.offset, i, offset,
                           bytes.size())
          .str();
    Value actual = readScalar(bytes.slice(offset, size), slot.scalar);
    // The expected value as the buffer stores it (floats rounded to
    // nearest, as Amber's verifier converts them).
    std::array<uint8_t, 8> stored{};
    writeScalar(stored, slot.scalar, expect.values[i],
                HalfRounding::NearestEven);
    Value expected = readScalar(stored, slot.scalar);
    if (holds(expect, actual, expected, i % slots.size()))
      continue;
    if (differing++ < kShownDifferences)
      shown += llvm::formatv(
                   "{0}value {1} (byte {2}) is {3}, expected {4} {5}",
                   shown.empty() ? "" : "; ", i, offset, formatValue(actual),
                   getComparatorName(expect.comparator), formatValue(expected))
                   .str();
  }
  if (!differing)
    return std::nullopt;
  return llvm::formatv("EXPECT {0} IDX {1} {2}: {3} of {4} values fail: {5}",
                       expect.buffer, expect.offset,
                       getComparatorName(expect.comparator), differing,
                       expect.values.size(), shown)
      .str();
}

/// Amber's default tolerance of a colour probe, in [0, 1] units.
static constexpr double kDefaultTexelTolerance = 0.002;

/// A texel component as a probe compares it: normalized formats in [0, 1]
/// (sRGB colour channels linearized), others as stored.
static double scaleComponent(const FormatComponent &component, double raw) {
  const ScalarType &scalar = component.scalar;
  switch (scalar.mode) {
  case NumericMode::UNorm:
    return raw / double((uint64_t(1) << scalar.bits) - 1);
  case NumericMode::SNorm:
    return raw / double((uint64_t(1) << (scalar.bits - 1)) - 1);
  case NumericMode::SRGB: {
    double value = raw / double((uint64_t(1) << scalar.bits) - 1);
    if (component.channel == 'A')
      return value;
    return value <= 0.04045 ? value / 12.92
                            : std::pow((value + 0.055) / 1.055, 2.4);
  }
  default:
    return raw;
  }
}

std::optional<std::string>
spvb::amber::checkExpectRect(const ExpectRectCommand &expect,
                             const Buffer &image, llvm::ArrayRef<uint8_t> bytes,
                             ProbedTexels *probed) {
  const Type &type = image.type;
  std::string what = "EXPECT " + expect.buffer + " " +
                     (expect.hasAlpha ? "EQ_RGBA" : "EQ_RGB") + ": ";
  if (type.kind != Type::Kind::Format || type.packedBits || image.width == 0)
    return what + "'" + expect.buffer +
           "' is no image of an unpacked format with a width";
  uint32_t width = image.width, height = std::max(1u, image.height);
  uint64_t texelBytes = 0;
  for (const FormatComponent &component : type.components)
    texelBytes += component.scalar.sizeInBytes();
  uint32_t x = 0, y = 0, w = width, h = height;
  if (!expect.wholeImage) {
    auto scale = [&](float value, uint32_t extent) {
      return static_cast<uint32_t>(expect.relative ? value * extent : value);
    };
    x = scale(expect.x, width);
    y = scale(expect.y, height);
    w = expect.point ? 1 : scale(expect.width, width);
    h = expect.point ? 1 : scale(expect.height, height);
  }
  if (uint64_t(x) + w > width || uint64_t(y) + h > height ||
      uint64_t(width) * height * texelBytes > bytes.size())
    return what + llvm::formatv("the rectangle ({0}, {1}) {2}x{3} is not "
                                "inside the {4}x{5} image",
                                x, y, w, h, width, height)
                      .str();
  auto tolerance = [&](unsigned channel) {
    if (expect.tolerances.empty())
      return Tolerance{kDefaultTexelTolerance, false};
    return expect.tolerances[expect.tolerances.size() == 4 ? channel : 0];
  };
  if (probed)
    *probed = {x, y, w, h, std::vector<bool>(uint64_t(w) * h)};
  unsigned differing = 0;
  std::string first;
  for (uint32_t row = y; row < y + h; ++row)
    for (uint32_t column = x; column < x + w; ++column) {
      uint64_t offset = (uint64_t(row) * width + column) * texelBytes;
      std::array<double, 4> actual = {0, 0, 0, 0};
      bool equal = true;
      for (const FormatComponent &component : type.components) {
        size_t size = component.scalar.sizeInBytes();
        double value = scaleComponent(
            component,
            readScalar(bytes.slice(offset, size), component.scalar).asDouble());
        offset += size;
        size_t channel = llvm::StringRef("RGBA").find(component.channel);
        if (channel == llvm::StringRef::npos ||
            (channel == 3 && !expect.hasAlpha))
          continue;
        actual[channel] = value;
        // Amber's verifier takes the colour as the reference value.
        equal &= isEqualWithTolerance(expect.color[channel], value,
                                      tolerance(channel));
      }
      if (!equal && probed)
        probed->failing[uint64_t(row - y) * w + (column - x)] = true;
      if (equal || differing++)
        continue;
      first = llvm::formatv("the first at ({0}, {1}): {2} {3} {4}", column, row,
                            formatDouble(actual[0]), formatDouble(actual[1]),
                            formatDouble(actual[2]))
                  .str();
      if (expect.hasAlpha)
        first += " " + formatDouble(actual[3]);
    }
  if (!differing)
    return std::nullopt;
  std::string expected = formatDouble(expect.color[0]) + " " +
                         formatDouble(expect.color[1]) + " " +
                         formatDouble(expect.color[2]);
  if (expect.hasAlpha)
    expected += " " + formatDouble(expect.color[3]);
  return what + llvm::formatv("{0} of {1} pixels differ from {2}, {3}",
                              differing, uint64_t(w) * h, expected, first)
                    .str();
}

PngImage spvb::amber::makeProbeDifferenceImage(const PngImage &actual,
                                               const ProbedTexels &probed) {
  PngImage difference;
  difference.width = actual.width;
  difference.height = actual.height;
  difference.rgba.assign(actual.rgba.size(), 0);
  for (uint32_t row = 0; row < probed.height; ++row)
    for (uint32_t column = 0; column < probed.width; ++column) {
      uint64_t texel =
          uint64_t(probed.y + row) * actual.width + probed.x + column;
      if (texel * 4 + 4 > actual.rgba.size())
        continue;
      uint8_t *out = &difference.rgba[texel * 4];
      if (probed.failing[uint64_t(row) * probed.width + column]) {
        const uint8_t red[4] = {255, 0, 0, 255};
        std::copy(red, red + 4, out);
        continue;
      }
      const uint8_t *in = &actual.rgba[texel * 4];
      unsigned luma = (77u * in[0] + 150u * in[1] + 29u * in[2]) / 256;
      out[0] = out[1] = out[2] = static_cast<uint8_t>(64 + luma / 2);
      out[3] = 255;
    }
  return difference;
}

/// Every number of every element of a buffer, as doubles.
static std::vector<double> decodeAll(const Buffer &info,
                                     llvm::ArrayRef<uint8_t> bytes) {
  std::vector<ScalarSlot> slots = scalarSlots(info.type, info.layout);
  uint64_t stride = info.stride();
  std::vector<double> values;
  if (slots.empty() || stride == 0)
    return values;
  for (uint64_t base = 0; base + stride <= bytes.size(); base += stride)
    for (const ScalarSlot &slot : slots)
      values.push_back(
          readScalar(bytes.slice(base + slot.offset, slot.scalar.sizeInBytes()),
                     slot.scalar)
              .asDouble());
  return values;
}

static std::optional<std::string> compareEqual(llvm::ArrayRef<uint8_t> first,
                                               llvm::ArrayRef<uint8_t> second) {
  if (first.size() != second.size())
    return llvm::formatv("the buffers have different sizes ({0} and {1} "
                         "bytes)",
                         first.size(), second.size())
        .str();
  unsigned differing = 0;
  size_t firstIndex = 0;
  for (size_t i = 0; i < first.size(); ++i)
    if (first[i] != second[i] && differing++ == 0)
      firstIndex = i;
  if (!differing)
    return std::nullopt;
  return llvm::formatv("{0} of {1} bytes differ, the first at byte {2}: {3} "
                       "!= {4}",
                       differing, first.size(), firstIndex, first[firstIndex],
                       second[firstIndex])
      .str();
}

/// Amber's EMD: per channel of an 8-bit four-channel format, the sum of the
/// absolute cumulative differences of the normalized 256-bin histograms,
/// divided by 256; the largest channel's.
static std::optional<double> histogramDistance(const Buffer &info,
                                               llvm::ArrayRef<uint8_t> first,
                                               llvm::ArrayRef<uint8_t> second) {
  const Type &type = info.type;
  if (type.kind != Type::Kind::Format || type.components.size() != 4 ||
      type.packedBits != 0)
    return std::nullopt;
  for (const FormatComponent &component : type.components)
    if (component.scalar.bits != 8)
      return std::nullopt;
  size_t texels = first.size() / 4;
  if (texels == 0)
    return 0.0;
  double largest = 0;
  for (unsigned channel = 0; channel < 4; ++channel) {
    std::array<double, 256> a{}, b{};
    for (size_t t = 0; t < texels; ++t) {
      a[first[t * 4 + channel]] += 1.0 / texels;
      b[second[t * 4 + channel]] += 1.0 / texels;
    }
    double accumulated = 0, total = 0;
    for (unsigned bin = 0; bin < 256; ++bin) {
      accumulated += a[bin] - b[bin];
      total += std::fabs(accumulated);
    }
    largest = std::max(largest, total / 256);
  }
  return largest;
}

std::optional<std::string> spvb::amber::checkBufferComparison(
    const CompareBuffersCommand &compare, const Buffer &firstInfo,
    llvm::ArrayRef<uint8_t> first, const Buffer &secondInfo,
    llvm::ArrayRef<uint8_t> second) {
  std::string what =
      "EXPECT " + compare.buffer + " " +
      (compare.method == CompareBuffersCommand::Method::Equal ? "EQ_BUFFER"
       : compare.method == CompareBuffersCommand::Method::Rmse
           ? "RMSE_BUFFER"
           : "EQ_HISTOGRAM_EMD_BUFFER") +
      " " + compare.other + ": ";
  if (compare.method == CompareBuffersCommand::Method::Equal) {
    if (std::optional<std::string> problem = compareEqual(first, second))
      return what + *problem;
    return std::nullopt;
  }
  if (first.size() != second.size() ||
      firstInfo.type.name != secondInfo.type.name)
    return what + "the buffers differ in type or size";
  if (compare.method == CompareBuffersCommand::Method::Rmse) {
    std::vector<double> a = decodeAll(firstInfo, first);
    std::vector<double> b = decodeAll(secondInfo, second);
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i)
      sum += (a[i] - b[i]) * (a[i] - b[i]);
    double rmse = a.empty() ? 0 : std::sqrt(sum / a.size());
    if (rmse <= compare.tolerance)
      return std::nullopt;
    return what + "root mean square error " + formatDouble(rmse) +
           " is above the tolerance " + formatDouble(compare.tolerance);
  }
  std::optional<double> emd = histogramDistance(firstInfo, first, second);
  if (!emd)
    return what + "histograms need an 8-bit format with four channels, not " +
           firstInfo.type.name;
  if (*emd <= compare.tolerance)
    return std::nullopt;
  return what + "histogram earth mover's distance " + formatDouble(*emd) +
         " is above the tolerance " + formatDouble(compare.tolerance);
}
