//===- AmberType.h - Element types and values of Amber scripts --*- C++ -*-===//
//
// The types an Amber script gives its buffers (`DATA_TYPE vec3<float>`,
// `DATA_TYPE my_struct`, `FORMAT R8G8B8A8_UNORM`, `float[]`), SPECIALIZE
// and `SET KERNEL` values, and VkScript's `ssbo subdata` / `probe ssbo`, and
// the numbers scripts write. How a type is laid out in memory is
// AmberLayout.h's job.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_AMBERTYPE_H
#define SPVBRIDGE_TOOLS_AMBER_AMBERTYPE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spvb::amber {

/// How the bits of one number are read: Vulkan's numeric formats. Scripts
/// write UNORM, SNORM, SCALED and SRGB components as their raw integers
/// (255 for 1.0 in 8-bit UNORM), as Amber does.
enum class NumericMode : uint8_t {
  SInt,
  UInt,
  SFloat,
  UFloat,
  UNorm,
  SNorm,
  UScaled,
  SScaled,
  SRGB,
};

/// One number of a type: its mode and width in bits (8, 16, 32 or 64; a
/// depth format's 24-bit D and a packed format's word may be others).
struct ScalarType {
  NumericMode mode = NumericMode::SInt;
  uint32_t bits = 32;

  bool isFloat() const {
    return mode == NumericMode::SFloat || mode == NumericMode::UFloat;
  }
  bool isSigned() const {
    return mode == NumericMode::SInt || mode == NumericMode::SFloat ||
           mode == NumericMode::SNorm || mode == NumericMode::SScaled;
  }
  uint32_t sizeInBytes() const { return (bits + 7) / 8; }

  bool operator==(const ScalarType &other) const {
    return mode == other.mode && bits == other.bits;
  }
  bool operator!=(const ScalarType &other) const { return !(*this == other); }

  static ScalarType sint(uint32_t bits) { return {NumericMode::SInt, bits}; }
  static ScalarType uint(uint32_t bits) { return {NumericMode::UInt, bits}; }
  static ScalarType sfloat(uint32_t bits) {
    return {NumericMode::SFloat, bits};
  }
};

/// The scalar's name in AmberScript (int8 ... uint64, float16, float, double)
/// or, for the other modes, "<bits>-bit <MODE>" (e.g. "8-bit UNORM").
std::string scalarTypeName(ScalarType scalar);

/// A number as a script wrote it: integers exactly (negative ones as int64,
/// the others as uint64), floats as double. Which one a value is follows the
/// type it was written for: a float component gets a float even when the
/// script wrote `1`.
class Value {
public:
  enum class Kind : uint8_t { Int, UInt, Float };

  Value() = default;
  static Value fromInt(int64_t value);
  static Value fromUint(uint64_t value);
  static Value fromDouble(double value);

  Kind getKind() const { return kind; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isInteger() const { return kind != Kind::Float; }

  /// The integer's two's-complement bits; a float converted toward zero,
  /// saturating (NaN gives 0).
  uint64_t asUint64() const;
  int64_t asInt64() const { return static_cast<int64_t>(asUint64()); }
  /// The value as a double (integers converted, rounding above 2^53).
  double asDouble() const;

  bool operator==(const Value &other) const;
  bool operator!=(const Value &other) const { return !(*this == other); }

private:
  Kind kind = Kind::UInt;
  uint64_t intBits = 0;
  double floatValue = 0;
};

/// \p value as a number of \p scalar: a double for a float; for an integer
/// mode its low scalar.bits bits (a float converted toward zero first),
/// sign-extended to an int64 for a signed mode, a uint64 otherwise. This is
/// how values are stored in the model and what readScalar gives back, so
/// converted values compare with ==.
Value convertValue(const Value &value, ScalarType scalar);

struct StructType;

/// One component of an image format, in memory order: its channel letter
/// (R, G, B, A, D, S, X or E) and number type.
struct FormatComponent {
  char channel = 'R';
  ScalarType scalar;
};

/// A type of an Amber script.
struct Type {
  enum class Kind : uint8_t {
    /// A scalar, vector (rows > 1) or matrix (columns > 1; column-major,
    /// `matCxR<T>` has C columns of R rows).
    Number,
    /// A STRUCT.
    Struct,
    /// A Vulkan format (`R8G8B8A8_UNORM`): components packed tightly, as
    /// texels are.
    Format,
  };

  Kind kind = Kind::Number;
  /// Number: the component type.
  ScalarType scalar;
  uint32_t rows = 1;
  uint32_t columns = 1;
  /// Struct: the definition, shared by every use.
  std::shared_ptr<const StructType> structType;
  /// Format: the components; packedBits > 0 for a `_PACK8/16/32` format,
  /// whose texel is one word of that many bits (one value in a script).
  std::vector<FormatComponent> components;
  uint32_t packedBits = 0;
  /// `T[]` (arraySize 0: runtime-sized) or `T[N]`. A buffer of `T[]` is a
  /// run of array elements, so each takes the array stride (`float[]` is 16
  /// bytes apart in std140, 4 in std430).
  bool isArray = false;
  uint32_t arraySize = 0;
  /// The name as the script wrote it (`vec3<float>`, `my_data`,
  /// `R8G8B8A8_UNORM`, `float[]`).
  std::string name;

  bool isScalar() const {
    return kind == Kind::Number && rows == 1 && columns == 1;
  }
  bool isVector() const {
    return kind == Kind::Number && rows > 1 && columns == 1;
  }
  bool isMatrix() const { return kind == Kind::Number && columns > 1; }

  /// A scalar, vector or matrix of \p scalar.
  static Type number(ScalarType scalar, uint32_t rows = 1,
                     uint32_t columns = 1);
};

/// The Vulkan format of a buffer of \p type bound as an attachment or as
/// vertex data, as Amber gives one: a format's own name, and for a scalar
/// or vector of `DATA_TYPE` its components in R, G, B, A order (`int32` is
/// R32_SINT, `vec4<float>` R32G32B32A32_SFLOAT); empty for the rest.
std::string getVulkanFormatName(const Type &type);

/// A member of a STRUCT, with the OFFSET, ARRAY_STRIDE and MATRIX_STRIDE
/// the script gave it (in bytes); without them the layout decides.
struct StructMember {
  std::string name;
  Type type;
  std::optional<uint32_t> offset;
  std::optional<uint32_t> arrayStride;
  std::optional<uint32_t> matrixStride;
};

/// `STRUCT name [STRIDE n] ... END`.
struct StructType {
  std::string name;
  std::vector<StructMember> members;
  /// STRIDE: the struct's size, overriding the layout's.
  std::optional<uint32_t> stride;
};

/// AmberScript's number type names: int8, int16, int32, int64, uint8 ...
/// uint64, float16, float, double, `vecN<T>` (N 2..4) and `matCxR<T>` (C, R
/// 2..4) of those scalars. No arrays, structs or formats.
std::optional<Type> parseNumberTypeName(llvm::StringRef name);

/// A Vulkan format name without the VK_FORMAT_ prefix (R32G32B32A32_SFLOAT,
/// B8G8R8A8_UNORM, D32_SFLOAT_S8_UINT, A2B10G10R10_UNORM_PACK32, ...).
/// Compressed, planar and subsampled formats are not accepted.
std::optional<Type> parseFormatName(llvm::StringRef name);

/// How many numbers a script writes for one value of \p type: components
/// of a number type, a struct's members' numbers, a format's components (1
/// for a packed format), times the array size of a sized array.
uint32_t valuesPerElement(const Type &type);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_AMBERTYPE_H
