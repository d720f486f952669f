//===- AmberLayout.cpp - Memory layout of Amber types ---------------------===//

#include "spvbridge/amber/AmberLayout.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace spvb::amber;

namespace {

uint64_t roundUp(uint64_t value, uint64_t alignment) {
  return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

/// A member's strides given in its STRUCT definition.
struct StrideOverrides {
  std::optional<uint32_t> arrayStride;
  std::optional<uint32_t> matrixStride;
};

/// The alignment of a vector of \p rows components of \p scalar.
uint64_t vectorAlignment(ScalarType scalar, uint32_t rows, Layout layout) {
  uint64_t component = scalar.sizeInBytes();
  if (layout == Layout::Scalar || rows == 1)
    return component;
  return rows == 2 ? 2 * component : 4 * component;
}

uint64_t columnStride(const Type &type, Layout layout,
                      const StrideOverrides &overrides) {
  if (overrides.matrixStride)
    return *overrides.matrixStride;
  uint64_t alignment = vectorAlignment(type.scalar, type.rows, layout);
  uint64_t stride =
      roundUp(uint64_t(type.rows) * type.scalar.sizeInBytes(), alignment);
  return layout == Layout::Std140 ? roundUp(stride, 16) : stride;
}

uint64_t alignmentOf(const Type &type, Layout layout);
uint64_t plainSize(const Type &type, Layout layout,
                   const StrideOverrides &overrides);
uint64_t fullSize(const Type &type, Layout layout,
                  const StrideOverrides &overrides);

/// The alignment of a value of \p type, its array-ness ignored.
uint64_t plainAlignment(const Type &type, Layout layout) {
  switch (type.kind) {
  case Type::Kind::Number: {
    uint64_t alignment = vectorAlignment(type.scalar, type.rows, layout);
    if (type.columns > 1 && layout == Layout::Std140)
      alignment = roundUp(alignment, 16);
    return alignment;
  }
  case Type::Kind::Struct: {
    uint64_t alignment = 1;
    for (const StructMember &member : type.structType->members)
      alignment = std::max(alignment, alignmentOf(member.type, layout));
    return layout == Layout::Std140 ? roundUp(alignment, 16) : alignment;
  }
  case Type::Kind::Format:
    return 1;
  }
  return 1;
}

/// The alignment of a value of \p type, an array's if it is one.
uint64_t alignmentOf(const Type &type, Layout layout) {
  uint64_t alignment = plainAlignment(type, layout);
  if (type.isArray && layout == Layout::Std140)
    alignment = roundUp(alignment, 16);
  return alignment;
}

uint64_t strideOfArray(const Type &type, Layout layout,
                       const StrideOverrides &overrides) {
  if (overrides.arrayStride)
    return *overrides.arrayStride;
  uint64_t alignment = plainAlignment(type, layout);
  if (layout == Layout::Std140)
    alignment = roundUp(alignment, 16);
  return roundUp(plainSize(type, layout, overrides), alignment);
}

/// Calls \p visit(member, offset) for each member of \p structType and
/// returns the end of the last one.
template <typename Visit>
uint64_t placeMembers(const StructType &structType, Layout layout,
                      Visit visit) {
  uint64_t end = 0;
  for (const StructMember &member : structType.members) {
    uint64_t offset = member.offset
                          ? *member.offset
                          : roundUp(end, alignmentOf(member.type, layout));
    visit(member, offset);
    end = offset + fullSize(member.type, layout,
                            {member.arrayStride, member.matrixStride});
  }
  return end;
}

/// The size of a value of \p type, its array-ness ignored.
uint64_t plainSize(const Type &type, Layout layout,
                   const StrideOverrides &overrides) {
  switch (type.kind) {
  case Type::Kind::Number:
    if (type.columns > 1)
      return type.columns * columnStride(type, layout, overrides);
    return uint64_t(type.rows) * type.scalar.sizeInBytes();
  case Type::Kind::Struct: {
    const StructType &structType = *type.structType;
    if (structType.stride)
      return *structType.stride;
    uint64_t end =
        placeMembers(structType, layout, [](const StructMember &, uint64_t) {});
    return roundUp(end, plainAlignment(type, layout));
  }
  case Type::Kind::Format: {
    if (type.packedBits)
      return type.packedBits / 8;
    uint64_t bits = 0;
    for (const FormatComponent &component : type.components)
      bits += component.scalar.bits;
    // Amber pads a three-component format like a vec3 (Format::NeedsPadding):
    // R32G32B32_SFLOAT takes 16 bytes, R8G8B8_UNORM 4.
    if (type.components.size() == 3)
      bits += type.components.back().scalar.bits;
    return (bits + 7) / 8;
  }
  }
  return 0;
}

/// The size of a value of \p type: a runtime array counts one element.
uint64_t fullSize(const Type &type, Layout layout,
                  const StrideOverrides &overrides) {
  if (!type.isArray)
    return plainSize(type, layout, overrides);
  return std::max<uint64_t>(type.arraySize, 1) *
         strideOfArray(type, layout, overrides);
}

void appendSlots(const Type &type, Layout layout, uint64_t base,
                 const StrideOverrides &overrides,
                 std::vector<ScalarSlot> &slots);

void appendPlainSlots(const Type &type, Layout layout, uint64_t base,
                      const StrideOverrides &overrides,
                      std::vector<ScalarSlot> &slots) {
  switch (type.kind) {
  case Type::Kind::Number: {
    uint64_t stride =
        type.columns > 1 ? columnStride(type, layout, overrides) : 0;
    for (uint32_t column = 0; column < type.columns; ++column)
      for (uint32_t row = 0; row < type.rows; ++row)
        slots.push_back(
            {base + column * stride + uint64_t(row) * type.scalar.sizeInBytes(),
             type.scalar});
    return;
  }
  case Type::Kind::Struct:
    placeMembers(*type.structType, layout,
                 [&](const StructMember &member, uint64_t offset) {
                   appendSlots(member.type, layout, base + offset,
                               {member.arrayStride, member.matrixStride},
                               slots);
                 });
    return;
  case Type::Kind::Format: {
    if (type.packedBits) {
      slots.push_back({base, ScalarType::uint(type.packedBits)});
      return;
    }
    uint64_t bit = 0;
    for (const FormatComponent &component : type.components) {
      slots.push_back({base + bit / 8, component.scalar});
      bit += component.scalar.bits;
    }
    return;
  }
  }
}

void appendSlots(const Type &type, Layout layout, uint64_t base,
                 const StrideOverrides &overrides,
                 std::vector<ScalarSlot> &slots) {
  if (!type.isArray) {
    appendPlainSlots(type, layout, base, overrides, slots);
    return;
  }
  uint64_t stride = strideOfArray(type, layout, overrides);
  for (uint64_t i = 0; i < std::max<uint64_t>(type.arraySize, 1); ++i)
    appendPlainSlots(type, layout, base + i * stride, overrides, slots);
}

} // namespace

llvm::StringRef spvb::amber::layoutName(Layout layout) {
  switch (layout) {
  case Layout::Std140:
    return "std140";
  case Layout::Std430:
    return "std430";
  case Layout::Scalar:
    return "scalar";
  }
  return "std430";
}

uint64_t spvb::amber::baseAlignment(const Type &type, Layout layout) {
  return alignmentOf(type, layout);
}

uint64_t spvb::amber::valueSize(const Type &type, Layout layout) {
  return fullSize(type, layout, {});
}

uint64_t spvb::amber::arrayStride(const Type &type, Layout layout) {
  return strideOfArray(type, layout, {});
}

uint64_t spvb::amber::matrixStride(const Type &type, Layout layout) {
  return type.isMatrix() ? columnStride(type, layout, {}) : 0;
}

uint64_t spvb::amber::elementStride(const Type &type, Layout layout) {
  if (type.isArray)
    return fullSize(type, layout, {});
  return roundUp(plainSize(type, layout, {}), plainAlignment(type, layout));
}

std::vector<ScalarSlot> spvb::amber::scalarSlots(const Type &type,
                                                 Layout layout) {
  std::vector<ScalarSlot> slots;
  appendSlots(type, layout, 0, {}, slots);
  return slots;
}

std::vector<uint8_t> spvb::amber::packValues(const Type &type, Layout layout,
                                             llvm::ArrayRef<Value> values) {
  std::vector<ScalarSlot> slots = scalarSlots(type, layout);
  if (slots.empty() || values.empty())
    return {};
  uint64_t stride = elementStride(type, layout);
  // OFFSET and STRIDE in a STRUCT may put a member past the stride; the
  // last element still needs all of its bytes.
  uint64_t extent = stride;
  for (const ScalarSlot &slot : slots)
    extent = std::max(extent, slot.offset + slot.scalar.sizeInBytes());
  uint64_t elements = (values.size() + slots.size() - 1) / slots.size();
  std::vector<uint8_t> bytes((elements - 1) * stride + extent, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const ScalarSlot &slot = slots[i % slots.size()];
    uint64_t offset = (i / slots.size()) * stride + slot.offset;
    writeScalar(llvm::MutableArrayRef<uint8_t>(bytes).slice(
                    offset, slot.scalar.sizeInBytes()),
                slot.scalar, values[i]);
  }
  return bytes;
}

void spvb::amber::writeScalar(llvm::MutableArrayRef<uint8_t> out,
                              ScalarType scalar, const Value &value,
                              HalfRounding rounding) {
  uint64_t bits = value.asUint64();
  if (scalar.isFloat() && scalar.bits == 16) {
    bool towardZero = rounding == HalfRounding::AmberTowardZero;
    // Amber goes through float first: a double rounds to nearest there.
    llvm::APFloat half(towardZero
                           ? llvm::APFloat(static_cast<float>(value.asDouble()))
                           : llvm::APFloat(value.asDouble()));
    bool losesInfo = false;
    half.convert(llvm::APFloat::IEEEhalf(),
                 towardZero ? llvm::APFloat::rmTowardZero
                            : llvm::APFloat::rmNearestTiesToEven,
                 &losesInfo);
    if (towardZero && half.isDenormal())
      half =
          llvm::APFloat::getZero(llvm::APFloat::IEEEhalf(), half.isNegative());
    bits = half.bitcastToAPInt().getZExtValue();
  } else if (scalar.isFloat() && scalar.bits == 32) {
    float single = static_cast<float>(value.asDouble());
    uint32_t word;
    std::memcpy(&word, &single, sizeof word);
    bits = word;
  } else if (scalar.isFloat() && scalar.bits == 64) {
    double dbl = value.asDouble();
    std::memcpy(&bits, &dbl, sizeof bits);
  }
  for (uint32_t i = 0; i < scalar.sizeInBytes() && i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(i < 8 ? bits >> (8 * i) : 0);
}

Value spvb::amber::readScalar(llvm::ArrayRef<uint8_t> bytes,
                              ScalarType scalar) {
  uint32_t size = std::min<uint32_t>(scalar.sizeInBytes(), 8);
  uint64_t bits = 0;
  for (uint32_t i = 0; i < size && i < bytes.size(); ++i)
    bits |= uint64_t(bytes[i]) << (8 * i);
  if (scalar.isFloat() && scalar.bits == 16) {
    llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    return Value::fromDouble(half.convertToFloat());
  }
  if (scalar.isFloat() && scalar.bits == 32) {
    uint32_t word = static_cast<uint32_t>(bits);
    float single;
    std::memcpy(&single, &word, sizeof single);
    return Value::fromDouble(single);
  }
  if (scalar.isFloat() && scalar.bits == 64) {
    double dbl;
    std::memcpy(&dbl, &bits, sizeof dbl);
    return Value::fromDouble(dbl);
  }
  if (scalar.isSigned() && scalar.bits < 64 && scalar.bits > 0) {
    uint64_t sign = uint64_t(1) << (scalar.bits - 1);
    bits &= (sign << 1) - 1;
    return Value::fromInt(static_cast<int64_t>((bits ^ sign) - sign));
  }
  if (scalar.isSigned())
    return Value::fromInt(static_cast<int64_t>(bits));
  if (scalar.bits < 64)
    bits &= (uint64_t(1) << scalar.bits) - 1;
  return Value::fromUint(bits);
}
