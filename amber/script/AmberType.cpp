//===- AmberType.cpp - Element types and values of Amber scripts ----------===//

#include "spvbridge/amber/AmberType.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace spvb::amber;
using llvm::StringRef;

std::string spvb::amber::getVulkanFormatName(const Type &type) {
  if (type.kind == Type::Kind::Format)
    return type.name;
  if (type.kind != Type::Kind::Number || type.columns != 1 || type.isArray ||
      type.rows > 4)
    return "";
  const char *suffix;
  switch (type.scalar.mode) {
  case NumericMode::SInt:
    suffix = "_SINT";
    break;
  case NumericMode::UInt:
    suffix = "_UINT";
    break;
  case NumericMode::SFloat:
    suffix = "_SFLOAT";
    break;
  case NumericMode::UNorm:
    suffix = "_UNORM";
    break;
  case NumericMode::SNorm:
    suffix = "_SNORM";
    break;
  default:
    return "";
  }
  std::string name;
  for (uint32_t i = 0; i < type.rows; ++i)
    name += "RGBA"[i] + std::to_string(type.scalar.bits);
  return name + suffix;
}

std::string spvb::amber::scalarTypeName(ScalarType scalar) {
  std::string bits = std::to_string(scalar.bits);
  switch (scalar.mode) {
  case NumericMode::SInt:
    return "int" + bits;
  case NumericMode::UInt:
    return "uint" + bits;
  case NumericMode::SFloat:
    if (scalar.bits == 32)
      return "float";
    if (scalar.bits == 64)
      return "double";
    return "float" + bits;
  case NumericMode::UFloat:
    return bits + "-bit UFLOAT";
  case NumericMode::UNorm:
    return bits + "-bit UNORM";
  case NumericMode::SNorm:
    return bits + "-bit SNORM";
  case NumericMode::UScaled:
    return bits + "-bit USCALED";
  case NumericMode::SScaled:
    return bits + "-bit SSCALED";
  case NumericMode::SRGB:
    return bits + "-bit SRGB";
  }
  return bits + "-bit";
}

Value Value::fromInt(int64_t value) {
  Value result;
  result.kind = Kind::Int;
  result.intBits = static_cast<uint64_t>(value);
  return result;
}

Value Value::fromUint(uint64_t value) {
  Value result;
  result.kind = Kind::UInt;
  result.intBits = value;
  return result;
}

Value Value::fromDouble(double value) {
  Value result;
  result.kind = Kind::Float;
  result.floatValue = value;
  return result;
}

uint64_t Value::asUint64() const {
  if (kind != Kind::Float)
    return intBits;
  // Converting an out-of-range double is undefined behaviour in C++, so
  // saturate first.
  double value = std::trunc(floatValue);
  if (std::isnan(value))
    return 0;
  if (value < 0) {
    if (value <= static_cast<double>(std::numeric_limits<int64_t>::min()))
      return static_cast<uint64_t>(std::numeric_limits<int64_t>::min());
    return static_cast<uint64_t>(static_cast<int64_t>(value));
  }
  if (value >= 18446744073709551616.0)
    return std::numeric_limits<uint64_t>::max();
  return static_cast<uint64_t>(value);
}

double Value::asDouble() const {
  switch (kind) {
  case Kind::Int:
    return static_cast<double>(static_cast<int64_t>(intBits));
  case Kind::UInt:
    return static_cast<double>(intBits);
  case Kind::Float:
    return floatValue;
  }
  return floatValue;
}

bool Value::operator==(const Value &other) const {
  if (kind != other.kind)
    return false;
  if (kind == Kind::Float) {
    // Bitwise, so that a NaN equals itself and -0 differs from +0: this
    // compares what was written, not arithmetic.
    return std::memcmp(&floatValue, &other.floatValue, sizeof floatValue) == 0;
  }
  return intBits == other.intBits;
}

Value spvb::amber::convertValue(const Value &value, ScalarType scalar) {
  if (scalar.isFloat())
    return Value::fromDouble(value.asDouble());
  uint64_t bits = value.asUint64();
  if (scalar.bits == 0 || scalar.bits >= 64)
    return scalar.isSigned() ? Value::fromInt(static_cast<int64_t>(bits))
                             : Value::fromUint(bits);
  uint64_t mask = (uint64_t(1) << scalar.bits) - 1;
  bits &= mask;
  if (!scalar.isSigned())
    return Value::fromUint(bits);
  uint64_t sign = uint64_t(1) << (scalar.bits - 1);
  return Value::fromInt(static_cast<int64_t>((bits ^ sign) - sign));
}

Type Type::number(ScalarType scalar, uint32_t rows, uint32_t columns) {
  Type type;
  type.kind = Kind::Number;
  type.scalar = scalar;
  type.rows = rows;
  type.columns = columns;
  return type;
}

namespace {

std::optional<ScalarType> parseScalarName(StringRef name) {
  return llvm::StringSwitch<std::optional<ScalarType>>(name)
      .Case("int8", ScalarType::sint(8))
      .Case("int16", ScalarType::sint(16))
      .Case("int32", ScalarType::sint(32))
      .Case("int64", ScalarType::sint(64))
      .Case("uint8", ScalarType::uint(8))
      .Case("uint16", ScalarType::uint(16))
      .Case("uint32", ScalarType::uint(32))
      .Case("uint64", ScalarType::uint(64))
      .Case("float16", ScalarType::sfloat(16))
      .Case("float", ScalarType::sfloat(32))
      .Case("double", ScalarType::sfloat(64))
      .Default(std::nullopt);
}

/// A digit 2, 3 or 4 as a number, else 0.
uint32_t dimension(char c) { return c >= '2' && c <= '4' ? c - '0' : 0; }

std::optional<NumericMode> parseModeName(StringRef name) {
  return llvm::StringSwitch<std::optional<NumericMode>>(name)
      .Case("SINT", NumericMode::SInt)
      .Case("UINT", NumericMode::UInt)
      .Case("SFLOAT", NumericMode::SFloat)
      .Case("UFLOAT", NumericMode::UFloat)
      .Case("UNORM", NumericMode::UNorm)
      .Case("SNORM", NumericMode::SNorm)
      .Case("USCALED", NumericMode::UScaled)
      .Case("SSCALED", NumericMode::SScaled)
      .Case("SRGB", NumericMode::SRGB)
      .Default(std::nullopt);
}

/// "R8G8B8A8" as channel letters and widths.
bool parseChannels(StringRef text,
                   llvm::SmallVectorImpl<std::pair<char, uint32_t>> &out) {
  if (text.empty())
    return false;
  while (!text.empty()) {
    char channel = text.front();
    if (!StringRef("RGBADSXE").contains(channel))
      return false;
    text = text.drop_front();
    size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
      ++digits;
    uint32_t bits = 0;
    if (digits == 0 || text.take_front(digits).getAsInteger(10, bits) ||
        bits == 0 || bits > 64)
      return false;
    out.push_back({channel, bits});
    text = text.drop_front(digits);
  }
  return true;
}

} // namespace

std::optional<Type> spvb::amber::parseNumberTypeName(StringRef name) {
  if (std::optional<ScalarType> scalar = parseScalarName(name))
    return Type::number(*scalar);
  if (!name.ends_with(">"))
    return std::nullopt;
  // vecN<T>
  if (name.starts_with("vec") && name.size() > 6 && name[4] == '<') {
    uint32_t rows = dimension(name[3]);
    std::optional<ScalarType> scalar =
        parseScalarName(name.drop_front(5).drop_back());
    if (!rows || !scalar)
      return std::nullopt;
    return Type::number(*scalar, rows);
  }
  // matCxR<T>
  if (name.starts_with("mat") && name.size() > 8 && name[4] == 'x' &&
      name[6] == '<') {
    uint32_t columns = dimension(name[3]);
    uint32_t rows = dimension(name[5]);
    std::optional<ScalarType> scalar =
        parseScalarName(name.drop_front(7).drop_back());
    if (!columns || !rows || !scalar)
      return std::nullopt;
    return Type::number(*scalar, rows, columns);
  }
  return std::nullopt;
}

std::optional<Type> spvb::amber::parseFormatName(StringRef name) {
  llvm::SmallVector<StringRef, 6> parts;
  name.split(parts, '_');
  Type type;
  type.kind = Type::Kind::Format;
  type.name = name.str();
  size_t part = 0;
  // Channel groups, each taking the mode that follows: D32_SFLOAT_S8_UINT
  // has two groups with a mode each, X8_D24_UNORM_PACK32 two sharing one.
  llvm::SmallVector<std::pair<char, uint32_t>, 4> pending;
  for (; part < parts.size() && !parts[part].starts_with("PACK"); ++part) {
    if (std::optional<NumericMode> mode = parseModeName(parts[part])) {
      if (pending.empty())
        return std::nullopt;
      for (auto [channel, bits] : pending)
        type.components.push_back({channel, ScalarType{*mode, bits}});
      pending.clear();
    } else if (!parseChannels(parts[part], pending)) {
      return std::nullopt;
    }
  }
  if (!pending.empty())
    return std::nullopt;
  if (part + 1 == parts.size()) {
    uint32_t packedBits = 0;
    if (!parts[part].consume_front("PACK") ||
        parts[part].getAsInteger(10, packedBits) ||
        (packedBits != 8 && packedBits != 16 && packedBits != 32))
      return std::nullopt;
    type.packedBits = packedBits;
    ++part;
  }
  if (part != parts.size() || type.components.empty())
    return std::nullopt;
  // A packed format's components fill its word; the others are whole
  // bytes each (R5G6B5 exists only as R5G6B5_UNORM_PACK16).
  uint32_t totalBits = 0;
  for (const FormatComponent &component : type.components) {
    totalBits += component.scalar.bits;
    if (!type.packedBits && component.scalar.bits % 8 != 0)
      return std::nullopt;
  }
  if (type.packedBits && totalBits != type.packedBits)
    return std::nullopt;
  return type;
}

uint32_t spvb::amber::valuesPerElement(const Type &type) {
  uint32_t count = 0;
  switch (type.kind) {
  case Type::Kind::Number:
    count = type.rows * type.columns;
    break;
  case Type::Kind::Struct:
    for (const StructMember &member : type.structType->members)
      count += valuesPerElement(member.type);
    break;
  case Type::Kind::Format:
    count = type.packedBits ? 1 : type.components.size();
    break;
  }
  if (type.isArray && type.arraySize > 0)
    count *= type.arraySize;
  return count;
}
