//===- AmberLayout.h - Memory layout of Amber types -------------*- C++ -*-===//
//
// Where the numbers of a value of an Amber type go in memory under the
// std140, std430 and scalar layouts, and the bytes of a list of values.
//
// The rules are GLSL's (and VK_EXT_scalar_block_layout's), with a buffer
// being a run of elements:
//   - a scalar is aligned to its size; vec2 to twice that; vec3 and vec4 to
//     four times (scalar layout: every vector to its component);
//   - a matrix is an array of its columns: column stride is the column
//     vector's size rounded to its alignment (std140: then to 16), so
//     mat3x3<float> is 3 x 16 bytes in both;
//   - an array's stride is its element's size rounded to the element's
//     alignment; std140 rounds that alignment up to 16 (`float[]` has stride
//     16 in std140 and 4 in std430);
//   - a struct's members follow each other at their alignment unless OFFSET
//     places them; its alignment is its largest member's (std140: rounded
//     up to 16) and its size is rounded up to that (or is its STRIDE);
//   - a format type (R8G8B8A8_UNORM) is a texel: components back to back,
//     no padding, whatever the layout; but a three-component one is padded
//     with a fourth, as Amber pads it (R32G32B32_SFLOAT: 16 bytes).
// The elements of a buffer are elementStride() apart: a vec3<float> buffer
// has 16 bytes per element, a float buffer 4 even in std140 (only `float[]`
// is padded), a struct buffer the struct's size.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_AMBER_AMBERLAYOUT_H
#define SPVBRIDGE_TOOLS_AMBER_AMBERLAYOUT_H

#include "spvbridge/amber/AmberType.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace spvb::amber {

enum class Layout : uint8_t { Std140, Std430, Scalar };

/// "std140", "std430" or "scalar".
llvm::StringRef layoutName(Layout layout);

/// The base alignment of a value of \p type (an array's, if it is one).
uint64_t baseAlignment(const Type &type, Layout layout);

/// The size of a value of \p type as a struct member: vec3<float> is 12, a
/// struct is rounded up to its alignment, `T[N]` is N array strides (`T[]`
/// one).
uint64_t valueSize(const Type &type, Layout layout);

/// The stride of an array of \p type's values (its array-ness ignored).
uint64_t arrayStride(const Type &type, Layout layout);

/// The stride between a matrix type's columns (0 for other types).
uint64_t matrixStride(const Type &type, Layout layout);

/// The distance between consecutive elements of a buffer of \p type: the
/// value size rounded up to the alignment, or the array stride for `T[]`.
uint64_t elementStride(const Type &type, Layout layout);

/// Where one number of an element lives, relative to the element's start.
struct ScalarSlot {
  uint64_t offset = 0;
  ScalarType scalar;
};

/// The numbers of one element of \p type in the order a script writes them
/// (struct members in order, matrices column by column, a packed format as
/// one unsigned word), with their offsets.
std::vector<ScalarSlot> scalarSlots(const Type &type, Layout layout);

/// The bytes of \p values written one after another into elements of
/// \p type: value i goes to slot i % slots of element i / slots. As many
/// elements as the values start; padding and the slots of a last,
/// incomplete element are zero. No values give no bytes.
std::vector<uint8_t> packValues(const Type &type, Layout layout,
                                llvm::ArrayRef<Value> values);

/// How a value becomes a float16.
enum class HalfRounding {
  /// As Amber fills buffers (FloatToHexFloat16): the value as a float, its
  /// mantissa cut to 10 bits (toward zero), magnitudes below 2^-14 flushed
  /// to zero. The CTS's expected results were computed from such inputs.
  AmberTowardZero,
  /// IEEE round to nearest even.
  NearestEven,
};

/// Writes \p value as \p scalar into the first scalar.sizeInBytes() bytes
/// of \p out (little endian): 32- and 64-bit floats rounded to nearest even,
/// float16 as \p half says, integers truncated to their low bits, a float
/// written to an integer converted toward zero.
void writeScalar(llvm::MutableArrayRef<uint8_t> out, ScalarType scalar,
                 const Value &value,
                 HalfRounding half = HalfRounding::AmberTowardZero);

/// The value in the first scalar.sizeInBytes() bytes of \p bytes: a double
/// for a float, a sign-extended int64 for a signed mode, else a uint64.
Value readScalar(llvm::ArrayRef<uint8_t> bytes, ScalarType scalar);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_AMBERLAYOUT_H
