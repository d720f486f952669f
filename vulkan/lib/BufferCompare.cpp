//===- BufferCompare.cpp - Compare a buffer from two backends -------------===//

#include "spvbridge/vulkan/BufferCompare.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace spvb;
using namespace spvb::vulkan;

namespace {

/// The IEEE format of a float of \p size bytes.
struct FloatFormat {
  unsigned mantissaBits;
  unsigned exponentBits;
};

FloatFormat getFloatFormat(uint32_t size) {
  switch (size) {
  case 2:
    return {10, 5};
  case 8:
    return {52, 11};
  default:
    return {23, 8};
  }
}

double toDouble(uint32_t size, uint64_t bits) {
  if (size == 8) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  if (size == 4) {
    uint32_t word = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &word, sizeof value);
    return value;
  }
  llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  bool losesInfo;
  half.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
               &losesInfo);
  return half.convertToDouble();
}

bool floatsAgree(uint32_t size, uint64_t a, uint64_t b,
                 const Tolerance &tolerance) {
  FloatFormat format = getFloatFormat(size);
  uint64_t signBit = uint64_t(1) << (format.mantissaBits + format.exponentBits);
  uint64_t magnitudeMask = signBit - 1;
  uint64_t exponentMask =
      magnitudeMask & ~((uint64_t(1) << format.mantissaBits) - 1);
  auto isNaN = [&](uint64_t v) {
    return (v & exponentMask) == exponentMask &&
           (v & ~exponentMask & magnitudeMask) != 0;
  };
  auto isInf = [&](uint64_t v) { return (v & magnitudeMask) == exponentMask; };
  if (isNaN(a) || isNaN(b))
    return isNaN(a) && isNaN(b);
  if (isInf(a) || isInf(b))
    return a == b;
  // Vulkan allows flushing denormals to zero, on either side.
  auto flush = [&](uint64_t v) {
    return (v & exponentMask) == 0 ? (v & signBit) : v;
  };
  a = flush(a);
  b = flush(b);
  // Sign-magnitude to a line where neighbours differ by one (+0 = -0 = 0).
  auto ordered = [&](uint64_t v) -> int64_t {
    int64_t magnitude = static_cast<int64_t>(v & magnitudeMask);
    return (v & signBit) ? -magnitude : magnitude;
  };
  int64_t distance = ordered(a) - ordered(b);
  uint64_t ulps = distance < 0 ? uint64_t(-distance) : uint64_t(distance);
  if (ulps <= tolerance.ulp)
    return true;
  return std::fabs(toDouble(size, a) - toDouble(size, b)) <= tolerance.absolute;
}

uint64_t readBits(llvm::ArrayRef<uint8_t> bytes, uint64_t offset,
                  uint32_t size) {
  uint64_t bits = 0;
  for (uint32_t i = 0; i < size; ++i)
    bits |= uint64_t(bytes[offset + i]) << (8 * i);
  return bits;
}

} // namespace

bool spvb::vulkan::scalarsAgree(ScalarKind kind, uint32_t size, uint64_t cpu,
                                uint64_t vulkan, const Tolerance &tolerance) {
  switch (kind) {
  case ScalarKind::Float:
    return floatsAgree(size, cpu, vulkan, tolerance);
  case ScalarKind::Bool:
    // Any non-zero VkBool32 is true.
    return (cpu != 0) == (vulkan != 0);
  default:
    return cpu == vulkan;
  }
}

std::string spvb::vulkan::formatScalar(ScalarKind kind, uint32_t size,
                                       uint64_t bits) {
  unsigned width = 8 * size;
  switch (kind) {
  case ScalarKind::Bool:
    return bits ? "true" : "false";
  case ScalarKind::Unsigned:
    return std::to_string(bits);
  case ScalarKind::Signed:
    return std::to_string(width == 64
                              ? static_cast<int64_t>(bits)
                              : static_cast<int64_t>(bits << (64 - width)) >>
                                    (64 - width));
  case ScalarKind::Float: {
    const char *format = size == 8 ? "%.17g" : size == 4 ? "%.9g" : "%.5g";
    char text[64];
    std::snprintf(text, sizeof text, format, toDouble(size, bits));
    return text;
  }
  }
  return "?";
}

BufferComparison spvb::vulkan::compareBuffer(uint32_t set, uint32_t binding,
                                             const BlockScalarLayout &layout,
                                             llvm::ArrayRef<uint8_t> cpu,
                                             llvm::ArrayRef<uint8_t> vulkan,
                                             const Tolerance &tolerance,
                                             size_t reportLimit) {
  BufferComparison result;
  result.set = set;
  result.binding = binding;
  layout.forEachScalar(
      std::min(cpu.size(), vulkan.size()), [&](const BufferScalar &scalar) {
        const ScalarField &field = *scalar.field;
        ++result.compared;
        uint64_t a = readBits(cpu, scalar.offset, field.size);
        uint64_t b = readBits(vulkan, scalar.offset, field.size);
        if (scalarsAgree(field.kind, field.size, a, b, tolerance))
          return;
        ++result.differing;
        if (result.first.size() < reportLimit)
          result.first.push_back({scalar.index, scalar.offset, scalar.path,
                                  formatScalar(field.kind, field.size, a),
                                  formatScalar(field.kind, field.size, b)});
      });
  return result;
}

namespace {
/// Bits of each component; the packed formats are not byte-aligned.
std::array<unsigned, 4> getComponentBits(const runtime::ImageFormat &format) {
  switch (format.format) {
  case spv::ImageFormatR11fG11fB10f:
    return {11, 11, 10, 0};
  case spv::ImageFormatRgb10A2:
  case spv::ImageFormatRgb10a2ui:
    return {10, 10, 10, 2};
  default: {
    unsigned bits = format.texelBytes * 8 / format.components;
    return {bits, bits, bits, bits};
  }
  }
}

/// r11f_g11f_b10f's unsigned small floats (5-bit exponent, no sign): the
/// bit patterns are ordered as the values, so their difference is the ULP
/// distance.
bool smallFloatsAgree(uint32_t a, uint32_t b, unsigned bits, double decodedA,
                      double decodedB, const Tolerance &tolerance) {
  if (a == b)
    return true;
  unsigned mantissaBits = bits - 5;
  bool specialA = (a >> mantissaBits) == 31,
       specialB = (b >> mantissaBits) == 31;
  if (specialA || specialB)
    return specialA && specialB && (a & ((1u << mantissaBits) - 1)) &&
           (b & ((1u << mantissaBits) - 1)); // both NaN
  return std::fabs(decodedA - decodedB) <= tolerance.absolute ||
         uint64_t(a > b ? a - b : b - a) <= tolerance.ulp;
}

std::string formatDouble(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}
} // namespace

BufferComparison spvb::vulkan::compareImage(const ImageResults &image,
                                            const Tolerance &tolerance,
                                            size_t reportLimit) {
  BufferComparison result;
  result.set = image.set;
  result.binding = image.binding;
  result.element = image.element;
  result.image = true;
  const runtime::ImageFormat *format = runtime::getImageFormat(image.format);
  if (!format)
    return result;
  std::array<unsigned, 4> bits = getComponentBits(*format);
  unsigned bytes = format->texelBytes;
  uint64_t index = 0;
  for (uint32_t level = 0; level < image.levels; ++level) {
    uint32_t size[3];
    for (int d = 0; d < 3; ++d)
      size[d] = std::max(1u, image.extent[d] >> level);
    for (uint32_t layer = 0; layer < image.layers; ++layer)
      for (uint32_t z = 0; z < size[2]; ++z)
        for (uint32_t y = 0; y < size[1]; ++y)
          for (uint32_t x = 0; x < size[0]; ++x, ++index) {
            uint64_t offset = index * bytes;
            if (offset + bytes > image.cpu.size() ||
                offset + bytes > image.vulkan.size())
              return result;
            const uint8_t *cpuBytes = image.cpu.data() + offset;
            const uint8_t *vulkanBytes = image.vulkan.data() + offset;
            runtime::Texel cpu = runtime::decodeTexel(*format, cpuBytes);
            runtime::Texel vulkan = runtime::decodeTexel(*format, vulkanBytes);
            ++result.compared;
            bool texelAgrees = true;
            for (unsigned c = 0; c < format->components; ++c) {
              bool agrees = false;
              std::string cpuText, vulkanText;
              switch (format->kind) {
              case runtime::NumericKind::Float:
                if (format->format == spv::ImageFormatR11fG11fB10f) {
                  uint32_t a, b;
                  std::memcpy(&a, cpuBytes, 4);
                  std::memcpy(&b, vulkanBytes, 4);
                  unsigned shift = c == 0 ? 0 : c == 1 ? 11 : 22;
                  uint32_t mask = (1u << bits[c]) - 1;
                  agrees = smallFloatsAgree((a >> shift) & mask,
                                            (b >> shift) & mask, bits[c],
                                            cpu.f[c], vulkan.f[c], tolerance);
                } else {
                  // Whole bytes per component: compare the stored bits.
                  unsigned size = bits[c] / 8;
                  uint64_t a = 0, b = 0;
                  std::memcpy(&a, cpuBytes + c * size, size);
                  std::memcpy(&b, vulkanBytes + c * size, size);
                  agrees =
                      scalarsAgree(ScalarKind::Float, size, a, b, tolerance);
                }
                cpuText = formatDouble(cpu.f[c]);
                vulkanText = formatDouble(vulkan.f[c]);
                break;
              case runtime::NumericKind::Unorm:
              case runtime::NumericKind::Snorm: {
                double steps = format->kind == runtime::NumericKind::Unorm
                                   ? std::ldexp(1.0, bits[c]) - 1
                                   : std::ldexp(1.0, bits[c] - 1) - 1;
                // One step, with room for the division's rounding.
                agrees = std::fabs(cpu.f[c] - vulkan.f[c]) * steps <= 1.000001;
                cpuText = formatDouble(cpu.f[c]);
                vulkanText = formatDouble(vulkan.f[c]);
                break;
              }
              case runtime::NumericKind::Sint:
                agrees = cpu.i[c] == vulkan.i[c];
                cpuText = std::to_string(static_cast<int64_t>(cpu.i[c]));
                vulkanText = std::to_string(static_cast<int64_t>(vulkan.i[c]));
                break;
              case runtime::NumericKind::Uint:
                agrees = cpu.i[c] == vulkan.i[c];
                cpuText = std::to_string(cpu.i[c]);
                vulkanText = std::to_string(vulkan.i[c]);
                break;
              }
              if (agrees)
                continue;
              texelAgrees = false;
              if (result.first.size() >= reportLimit)
                continue;
              std::string path =
                  llvm::formatv("texel ({0}, {1}, {2}, {3}", x, y, z, layer)
                      .str();
              if (image.levels > 1)
                path += llvm::formatv(", {0}", level).str();
              path += llvm::formatv(") component {0}", c).str();
              result.first.push_back(
                  {index, offset, path, cpuText, vulkanText});
            }
            if (!texelAgrees)
              ++result.differing;
          }
  }
  return result;
}

std::vector<BufferComparison>
spvb::vulkan::compareStorageImages(const ModuleReflection &reflection,
                                   llvm::ArrayRef<ImageResults> results,
                                   const Tolerance &tolerance) {
  std::vector<BufferComparison> comparisons;
  for (const ResourceInfo &resource : reflection.resources) {
    if ((resource.kind != ResourceKind::StorageImage &&
         resource.kind != ResourceKind::StorageTexelBuffer) ||
        resource.nonWritable)
      continue;
    for (const ImageResults &result : results)
      if (result.set == resource.set && result.binding == resource.binding)
        comparisons.push_back(compareImage(result, tolerance));
  }
  return comparisons;
}

std::string BufferComparison::getName() const {
  if (!device.empty())
    return device;
  std::string name = llvm::formatv("{0}:{1}", set, binding).str();
  if (element)
    name += llvm::formatv("[{0}]", *element).str();
  return name;
}

std::string spvb::vulkan::formatComparison(const BufferComparison &comparison) {
  std::string out;
  std::string name = comparison.getName();
  const char *noun = comparison.image ? "texels" : "elements";
  for (const ScalarDifference &difference : comparison.first)
    if (comparison.image)
      out += llvm::formatv("{0} {1}: cpu {2} vs vulkan {3}\n", name,
                           difference.path, difference.cpu, difference.vulkan)
                 .str();
    else
      out += llvm::formatv("{0} element {1} (byte {2}) {3}: cpu {4} vs "
                           "vulkan {5}\n",
                           name, difference.index, difference.offset,
                           difference.path, difference.cpu, difference.vulkan)
                 .str();
  if (comparison.agrees())
    out += llvm::formatv("{0}: all {1} {2} agree\n", name, comparison.compared,
                         noun)
               .str();
  else
    out += llvm::formatv("{0}: {1} of {2} {3} differ\n", name,
                         comparison.differing, comparison.compared, noun)
               .str();
  return out;
}

llvm::Expected<std::vector<BufferComparison>>
spvb::vulkan::compareStorageBuffers(const SpirvBinary &binary,
                                    const ModuleReflection &reflection,
                                    llvm::ArrayRef<BufferResults> results,
                                    const Tolerance &tolerance) {
  std::vector<BufferComparison> comparisons;
  for (const ResourceInfo &resource : reflection.resources) {
    if (resource.kind != ResourceKind::StorageBuffer)
      continue;
    std::optional<BlockScalarLayout> layout;
    for (const BufferResults &result : results) {
      if (result.set != resource.set || result.binding != resource.binding)
        continue;
      if (!layout) {
        llvm::Expected<BlockScalarLayout> found =
            getBlockScalarLayout(binary, resource.variableId);
        if (!found)
          return found.takeError();
        layout = std::move(*found);
      }
      comparisons.push_back(compareBuffer(resource.set, resource.binding,
                                          *layout, result.cpu, result.vulkan,
                                          tolerance));
      comparisons.back().element = result.element;
    }
  }
  return comparisons;
}

llvm::Expected<Tolerance>
spvb::vulkan::parseTolerance(llvm::StringRef ulp, llvm::StringRef absolute) {
  Tolerance tolerance;
  if (ulp.getAsInteger(10, tolerance.ulp))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: --ulp '" + ulp +
                                       "': expected an unsigned integer");
  std::string text = absolute.str();
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !(value >= 0) ||
      std::isinf(value))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: --abs-tolerance '" + absolute +
                                       "': expected a non-negative number");
  tolerance.absolute = value;
  return tolerance;
}

std::string
spvb::vulkan::formatSummary(llvm::ArrayRef<BufferComparison> comparisons) {
  size_t differing = llvm::count_if(
      comparisons, [](const BufferComparison &c) { return !c.agrees(); });
  size_t count = comparisons.size();
  const char *what =
      llvm::any_of(comparisons,
                   [](const BufferComparison &c) { return c.image; })
          ? "storage buffers and images"
          : "storage buffers";
  if (differing == 0)
    return llvm::formatv("compare: all {0} {1} agree", count, what).str();
  return llvm::formatv("compare: {0} of {1} {2} differ", differing, count, what)
      .str();
}

llvm::json::Value
spvb::vulkan::toJSON(llvm::ArrayRef<BufferComparison> comparisons,
                     const Tolerance &tolerance) {
  llvm::json::Array buffers;
  bool agree = true;
  for (const BufferComparison &comparison : comparisons) {
    agree &= comparison.agrees();
    llvm::json::Array first;
    for (const ScalarDifference &difference : comparison.first)
      first.push_back(llvm::json::Object{{"element", difference.index},
                                         {"byte", difference.offset},
                                         {"path", difference.path},
                                         {"cpu", difference.cpu},
                                         {"vulkan", difference.vulkan}});
    llvm::json::Object buffer{{"compared", comparison.compared},
                              {"differing", comparison.differing},
                              {"first", std::move(first)}};
    if (comparison.device.empty()) {
      buffer["set"] = comparison.set;
      buffer["binding"] = comparison.binding;
    } else {
      buffer["device_buffer"] = comparison.device;
    }
    if (comparison.element)
      buffer["array_element"] = *comparison.element;
    if (comparison.image)
      buffer["image"] = true;
    buffers.push_back(std::move(buffer));
  }
  return llvm::json::Object{{"agree", agree},
                            {"ulp", tolerance.ulp},
                            {"abs_tolerance", tolerance.absolute},
                            {"buffers", std::move(buffers)}};
}
