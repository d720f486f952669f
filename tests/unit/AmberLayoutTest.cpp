//===- AmberLayoutTest.cpp - Amber types, values and memory layout --------===//
//
// Strides, offsets and bytes worked out by hand from the GLSL std140/std430
// rules and VK_EXT_scalar_block_layout (e.g. a float[] element in std140
// takes a 16-byte slot; a mat3x3<float> column is a vec3 padded to 16), and
// IEEE-754 encodings written out (1.0f16 is 0x3C00).
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/AmberLayout.h"
#include "spvbridge/amber/AmberType.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace spvb::amber;

namespace {

Type typeNamed(llvm::StringRef name) {
  std::optional<Type> type = parseNumberTypeName(name);
  EXPECT_TRUE(type) << name.str();
  return type ? *type : Type();
}

Type arrayOf(Type element) {
  element.isArray = true;
  return element;
}

Type structOf(std::vector<StructMember> members,
              std::optional<uint32_t> stride = std::nullopt) {
  auto structType = std::make_shared<StructType>();
  structType->name = "s";
  structType->members = std::move(members);
  structType->stride = stride;
  Type type;
  type.kind = Type::Kind::Struct;
  type.structType = std::move(structType);
  type.name = "s";
  return type;
}

StructMember member(const char *name, Type type,
                    std::optional<uint32_t> offset = std::nullopt) {
  StructMember result;
  result.name = name;
  result.type = std::move(type);
  result.offset = offset;
  return result;
}

std::vector<uint64_t> offsetsOf(const Type &type, Layout layout) {
  std::vector<uint64_t> offsets;
  for (const ScalarSlot &slot : scalarSlots(type, layout))
    offsets.push_back(slot.offset);
  return offsets;
}

std::vector<Value> floats(std::initializer_list<double> values) {
  std::vector<Value> result;
  for (double value : values)
    result.push_back(Value::fromDouble(value));
  return result;
}

float floatAt(const std::vector<uint8_t> &bytes, size_t offset) {
  float value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

TEST(AmberType, NumberTypeNames) {
  Type vec3 = typeNamed("vec3<float>");
  EXPECT_TRUE(vec3.isVector());
  EXPECT_EQ(vec3.rows, 3u);
  EXPECT_EQ(vec3.scalar, ScalarType::sfloat(32));

  // matCxR: 2 columns of 3 rows.
  Type mat = typeNamed("mat2x3<int32>");
  EXPECT_TRUE(mat.isMatrix());
  EXPECT_EQ(mat.columns, 2u);
  EXPECT_EQ(mat.rows, 3u);
  EXPECT_EQ(mat.scalar, ScalarType::sint(32));

  EXPECT_EQ(typeNamed("float16").scalar, ScalarType::sfloat(16));
  EXPECT_EQ(typeNamed("uint64").scalar, ScalarType::uint(64));
  EXPECT_EQ(typeNamed("double").scalar, ScalarType::sfloat(64));

  for (const char *bad :
       {"vec5<float>", "vec1<float>", "vec3<vec2<float>>", "mat1x2<float>",
        "mat2x5<float>", "vec3", "float3", "vec3<float", "int"})
    EXPECT_FALSE(parseNumberTypeName(bad)) << bad;
}

TEST(AmberType, FormatNames) {
  std::optional<Type> rgba = parseFormatName("R8G8B8A8_UNORM");
  ASSERT_TRUE(rgba);
  ASSERT_EQ(rgba->components.size(), 4u);
  EXPECT_EQ(rgba->components[2].channel, 'B');
  EXPECT_EQ(rgba->components[2].scalar, (ScalarType{NumericMode::UNorm, 8}));
  EXPECT_EQ(rgba->packedBits, 0u);

  // Two groups with their own modes.
  std::optional<Type> depthStencil = parseFormatName("D32_SFLOAT_S8_UINT");
  ASSERT_TRUE(depthStencil);
  ASSERT_EQ(depthStencil->components.size(), 2u);
  EXPECT_EQ(depthStencil->components[0].scalar, ScalarType::sfloat(32));
  EXPECT_EQ(depthStencil->components[1].channel, 'S');
  EXPECT_EQ(depthStencil->components[1].scalar, ScalarType::uint(8));

  // Two groups sharing one mode, packed into a 32-bit word.
  std::optional<Type> x8d24 = parseFormatName("X8_D24_UNORM_PACK32");
  ASSERT_TRUE(x8d24);
  EXPECT_EQ(x8d24->packedBits, 32u);
  EXPECT_EQ(x8d24->components[1].scalar, (ScalarType{NumericMode::UNorm, 24}));

  std::optional<Type> packed = parseFormatName("A2B10G10R10_UNORM_PACK32");
  ASSERT_TRUE(packed);
  EXPECT_EQ(packed->packedBits, 32u);
  EXPECT_EQ(valuesPerElement(*packed), 1u);

  for (const char *bad :
       {"R8G8_FOO", "BC1_RGB_UNORM_BLOCK", "R8G8B8A8", "UNORM",
        "R8G8_UNORM_PACK32", "R5G6B5_UNORM", "R8__UNORM", ""})
    EXPECT_FALSE(parseFormatName(bad)) << bad;
}

// The formats Amber gives attachments declared with DATA_TYPE.
TEST(AmberType, VulkanFormatNamesOfNumberTypes) {
  EXPECT_EQ(getVulkanFormatName(typeNamed("int32")), "R32_SINT");
  EXPECT_EQ(getVulkanFormatName(typeNamed("vec2<uint8>")), "R8G8_UINT");
  EXPECT_EQ(getVulkanFormatName(typeNamed("vec3<float16>")),
            "R16G16B16_SFLOAT");
  EXPECT_EQ(getVulkanFormatName(typeNamed("vec4<float>")),
            "R32G32B32A32_SFLOAT");
  EXPECT_EQ(getVulkanFormatName(typeNamed("double")), "R64_SFLOAT");
  EXPECT_EQ(getVulkanFormatName(*parseFormatName("B8G8R8A8_UNORM")),
            "B8G8R8A8_UNORM");
  // Matrices have no image format.
  EXPECT_EQ(getVulkanFormatName(typeNamed("mat2x2<float>")), "");
}

TEST(AmberType, ValuesPerElement) {
  EXPECT_EQ(valuesPerElement(typeNamed("mat3x2<float>")), 6u);
  EXPECT_EQ(valuesPerElement(typeNamed("vec4<uint8>")), 4u);
  Type sized = typeNamed("float");
  sized.isArray = true;
  sized.arraySize = 4;
  EXPECT_EQ(valuesPerElement(sized), 4u);
  // A runtime array's element is one value.
  EXPECT_EQ(valuesPerElement(arrayOf(typeNamed("vec2<float>"))), 2u);
  Type nested = structOf(
      {member("a", typeNamed("float")), member("b", typeNamed("vec3<int32>"))});
  EXPECT_EQ(valuesPerElement(nested), 4u);
}

TEST(AmberType, ValueConversions) {
  // FILL -1 into uint32 is all ones; 0xFF into int8 is -1.
  Value allOnes = convertValue(Value::fromInt(-1), ScalarType::uint(32));
  EXPECT_EQ(allOnes.getKind(), Value::Kind::UInt);
  EXPECT_EQ(allOnes.asUint64(), 0xFFFFFFFFu);
  Value minusOne = convertValue(Value::fromUint(0xFF), ScalarType::sint(8));
  EXPECT_EQ(minusOne.getKind(), Value::Kind::Int);
  EXPECT_EQ(minusOne.asInt64(), -1);
  EXPECT_EQ(convertValue(Value::fromUint(3), ScalarType::sfloat(32)),
            Value::fromDouble(3.0));

  // Floats to integers: toward zero, saturating, NaN to 0.
  EXPECT_EQ(Value::fromDouble(-1.5).asInt64(), -1);
  EXPECT_EQ(Value::fromDouble(1e30).asUint64(),
            std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(Value::fromDouble(-1e30).asInt64(),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Value::fromDouble(std::nan("")).asUint64(), 0u);
  EXPECT_DOUBLE_EQ(Value::fromInt(-7).asDouble(), -7.0);
}

TEST(AmberLayout, ScalarArraysDifferBetweenStd140AndStd430) {
  Type floatType = typeNamed("float");
  // A lone float is 4 bytes in every layout; as an array element std140
  // rounds its slot up to 16.
  EXPECT_EQ(elementStride(floatType, Layout::Std140), 4u);
  EXPECT_EQ(elementStride(floatType, Layout::Std430), 4u);
  EXPECT_EQ(elementStride(arrayOf(floatType), Layout::Std140), 16u);
  EXPECT_EQ(elementStride(arrayOf(floatType), Layout::Std430), 4u);
  EXPECT_EQ(elementStride(arrayOf(floatType), Layout::Scalar), 4u);
  EXPECT_EQ(arrayStride(typeNamed("vec2<float>"), Layout::Std140), 16u);
  EXPECT_EQ(arrayStride(typeNamed("vec2<float>"), Layout::Std430), 8u);
  EXPECT_EQ(arrayStride(typeNamed("double"), Layout::Std140), 16u);
  EXPECT_EQ(arrayStride(typeNamed("int8"), Layout::Std430), 1u);
}

TEST(AmberLayout, Vec3IsPaddedToFourComponents) {
  Type vec3 = typeNamed("vec3<float>");
  EXPECT_EQ(valueSize(vec3, Layout::Std430), 12u);
  EXPECT_EQ(baseAlignment(vec3, Layout::Std430), 16u);
  EXPECT_EQ(elementStride(vec3, Layout::Std430), 16u);
  EXPECT_EQ(elementStride(vec3, Layout::Std140), 16u);
  EXPECT_EQ(elementStride(arrayOf(vec3), Layout::Std140), 16u);
  EXPECT_EQ(elementStride(arrayOf(vec3), Layout::Std430), 16u);
  // Scalar layout: three floats back to back.
  EXPECT_EQ(elementStride(vec3, Layout::Scalar), 12u);
  // dvec3: 24 bytes aligned to 32; i8vec3: 3 bytes aligned to 4; f16vec3:
  // 6 bytes aligned to 8.
  EXPECT_EQ(elementStride(typeNamed("vec3<double>"), Layout::Std430), 32u);
  EXPECT_EQ(elementStride(typeNamed("vec3<int8>"), Layout::Std430), 4u);
  EXPECT_EQ(elementStride(typeNamed("vec3<float16>"), Layout::Std430), 8u);
}

TEST(AmberLayout, MatrixColumnPadding) {
  Type mat3 = typeNamed("mat3x3<float>");
  EXPECT_EQ(matrixStride(mat3, Layout::Std430), 16u);
  EXPECT_EQ(matrixStride(mat3, Layout::Std140), 16u);
  EXPECT_EQ(elementStride(mat3, Layout::Std430), 48u);
  EXPECT_EQ(matrixStride(mat3, Layout::Scalar), 12u);
  EXPECT_EQ(elementStride(mat3, Layout::Scalar), 36u);
  EXPECT_EQ(offsetsOf(mat3, Layout::Std430),
            (std::vector<uint64_t>{0, 4, 8, 16, 20, 24, 32, 36, 40}));

  // Two-row columns: 8 bytes in std430, a 16-byte slot in std140.
  Type mat2 = typeNamed("mat2x2<float>");
  EXPECT_EQ(elementStride(mat2, Layout::Std430), 16u);
  EXPECT_EQ(elementStride(mat2, Layout::Std140), 32u);
  EXPECT_EQ(offsetsOf(mat2, Layout::Std140),
            (std::vector<uint64_t>{0, 4, 16, 20}));

  // mat4x3: four columns of vec3.
  EXPECT_EQ(elementStride(typeNamed("mat4x3<float>"), Layout::Std430), 64u);
  // mat2x3<double>: dvec3 columns, 32 bytes apart.
  EXPECT_EQ(matrixStride(typeNamed("mat2x3<double>"), Layout::Std430), 32u);
  EXPECT_EQ(elementStride(typeNamed("mat2x3<double>"), Layout::Std140), 64u);
}

TEST(AmberLayout, StructMembers) {
  // { float a; vec3 b; float c; }: b aligns to 16, c follows b's 12 bytes.
  Type layoutStruct = structOf({member("a", typeNamed("float")),
                                member("b", typeNamed("vec3<float>")),
                                member("c", typeNamed("float"))});
  EXPECT_EQ(offsetsOf(layoutStruct, Layout::Std430),
            (std::vector<uint64_t>{0, 16, 20, 24, 28}));
  EXPECT_EQ(elementStride(layoutStruct, Layout::Std430), 32u);
  EXPECT_EQ(elementStride(layoutStruct, Layout::Std140), 32u);
  EXPECT_EQ(offsetsOf(layoutStruct, Layout::Scalar),
            (std::vector<uint64_t>{0, 4, 8, 12, 16}));
  EXPECT_EQ(elementStride(layoutStruct, Layout::Scalar), 20u);

  // A nested struct is aligned to 16 in std140 (corpus struct_embedded).
  Type inner = structOf(
      {member("d", typeNamed("float")), member("e", typeNamed("float"))});
  Type outer = structOf({member("a", typeNamed("float")),
                         member("b", typeNamed("float")), member("c", inner)});
  EXPECT_EQ(offsetsOf(outer, Layout::Std140),
            (std::vector<uint64_t>{0, 4, 16, 20}));
  EXPECT_EQ(elementStride(outer, Layout::Std140), 32u);
  EXPECT_EQ(offsetsOf(outer, Layout::Std430),
            (std::vector<uint64_t>{0, 4, 8, 12}));
  EXPECT_EQ(elementStride(outer, Layout::Std430), 16u);
}

TEST(AmberLayout, StructOffsetsAndStrides) {
  // Corpus struct_embedded_padded_430: s { int32 d OFFSET 8; int32 e
  // OFFSET 16 } is 20 bytes; my_data { float a OFFSET 8; int32 b OFFSET 16;
  // s c } puts c right after b, at 20.
  Type inner = structOf({member("d", typeNamed("int32"), 8),
                         member("e", typeNamed("int32"), 16)});
  Type outer =
      structOf({member("a", typeNamed("float"), 8),
                member("b", typeNamed("int32"), 16), member("c", inner)});
  EXPECT_EQ(offsetsOf(outer, Layout::Std430),
            (std::vector<uint64_t>{8, 16, 28, 36}));
  EXPECT_EQ(elementStride(outer, Layout::Std430), 40u);

  // STRIDE sets the size; ARRAY_STRIDE and MATRIX_STRIDE the members'.
  StructMember array = member("v", typeNamed("float"));
  array.type.isArray = true;
  array.type.arraySize = 3;
  array.arrayStride = 8;
  StructMember matrix = member("m", typeNamed("mat2x2<float>"), 32);
  matrix.matrixStride = 12;
  Type strided = structOf({array, matrix}, 64);
  EXPECT_EQ(offsetsOf(strided, Layout::Std430),
            (std::vector<uint64_t>{0, 8, 16, 32, 36, 44, 48}));
  EXPECT_EQ(elementStride(strided, Layout::Std430), 64u);
}

TEST(AmberLayout, FormatsArePackedTexels) {
  std::optional<Type> rgb = parseFormatName("R32G32B32_SFLOAT");
  ASSERT_TRUE(rgb);
  // Components back to back, but three of them padded to four as Amber's
  // Format::NeedsPadding pads a vec3, whatever the layout.
  EXPECT_EQ(elementStride(*rgb, Layout::Std430), 16u);
  EXPECT_EQ(elementStride(*rgb, Layout::Std140), 16u);
  EXPECT_EQ(offsetsOf(*rgb, Layout::Std430), (std::vector<uint64_t>{0, 4, 8}));
  std::optional<Type> rgb8 = parseFormatName("R8G8B8_UNORM");
  ASSERT_TRUE(rgb8);
  EXPECT_EQ(elementStride(*rgb8, Layout::Std430), 4u);
  std::optional<Type> depth = parseFormatName("D24_UNORM_S8_UINT");
  ASSERT_TRUE(depth);
  EXPECT_EQ(elementStride(*depth, Layout::Std430), 4u);
  EXPECT_EQ(offsetsOf(*depth, Layout::Std430), (std::vector<uint64_t>{0, 3}));
}

TEST(AmberLayout, PackVec3Std430) {
  std::vector<uint8_t> bytes = packValues(
      typeNamed("vec3<float>"), Layout::Std430, floats({1, 2, 3, 4, 5, 6}));
  ASSERT_EQ(bytes.size(), 32u);
  EXPECT_EQ(floatAt(bytes, 0), 1.0f);
  EXPECT_EQ(floatAt(bytes, 8), 3.0f);
  EXPECT_EQ(floatAt(bytes, 12), 0.0f);
  EXPECT_EQ(floatAt(bytes, 16), 4.0f);
  EXPECT_EQ(floatAt(bytes, 24), 6.0f);
  // 1.0f is 0x3F800000, little endian.
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 4),
            (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F}));
}

TEST(AmberLayout, PackFloatArrayStd140) {
  std::vector<uint8_t> bytes = packValues(arrayOf(typeNamed("float")),
                                          Layout::Std140, floats({1, 64, 128}));
  // Whole elements: three 16-byte slots.
  ASSERT_EQ(bytes.size(), 48u);
  EXPECT_EQ(floatAt(bytes, 0), 1.0f);
  EXPECT_EQ(floatAt(bytes, 16), 64.0f);
  EXPECT_EQ(floatAt(bytes, 32), 128.0f);
  EXPECT_EQ(floatAt(bytes, 4), 0.0f);
}

TEST(AmberLayout, PackMat2Std140) {
  std::vector<uint8_t> bytes = packValues(typeNamed("mat2x2<float>"),
                                          Layout::Std140, floats({1, 2, 3, 4}));
  ASSERT_EQ(bytes.size(), 32u);
  EXPECT_EQ(floatAt(bytes, 4), 2.0f);
  EXPECT_EQ(floatAt(bytes, 16), 3.0f);
  EXPECT_EQ(floatAt(bytes, 20), 4.0f);
  EXPECT_EQ(floatAt(bytes, 8), 0.0f);
}

TEST(AmberLayout, PackIntegers) {
  EXPECT_EQ(packValues(typeNamed("int16"), Layout::Std430,
                       {Value::fromInt(-1), Value::fromUint(2)}),
            (std::vector<uint8_t>{0xFF, 0xFF, 0x02, 0x00}));
  EXPECT_EQ(packValues(typeNamed("int8"), Layout::Std430,
                       {Value::fromInt(-128), Value::fromUint(127)}),
            (std::vector<uint8_t>{0x80, 0x7F}));
  EXPECT_EQ(packValues(typeNamed("uint32"), Layout::Std430,
                       {Value::fromUint(0x01020304)}),
            (std::vector<uint8_t>{0x04, 0x03, 0x02, 0x01}));
  EXPECT_EQ(
      packValues(typeNamed("uint64"), Layout::Std430, {Value::fromInt(-2)}),
      (std::vector<uint8_t>{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
}

TEST(AmberLayout, PackFloat16) {
  // 1.0 = 0x3C00, -2.0 = 0xC000, 65504 = 0x7BFF (the largest), 0.1 rounds
  // to 0x2E66.
  EXPECT_EQ(
      packValues(typeNamed("float16"), Layout::Std430,
                 floats({1.0, -2.0, 65504.0, 0.1})),
      (std::vector<uint8_t>{0x00, 0x3C, 0x00, 0xC0, 0xFF, 0x7B, 0x66, 0x2E}));
}

TEST(AmberLayout, PackFloat16AsAmberDoes) {
  // Buffer data is cut toward zero, as Amber's FloatToHexFloat16 does:
  // 1.9999 has mantissa 0.9999 * 1024 = 1023.9, kept as 1023 (exponent
  // 15: 0x3C00 | 0x3FF = 0x3FFF; to nearest it would be 2.0, 0x4000); 3e-5 is
  // below 2^-14 and flushes to zero (to nearest: the denormal 3e-5 * 2^24 =
  // 503.3, 0x01F7); 70000 is past the largest half and stays 65504 (0x7BFF; to
  // nearest: infinity).
  EXPECT_EQ(
      packValues(typeNamed("float16"), Layout::Std430,
                 floats({1.9999, -1.9999, 3e-5, 70000.0})),
      (std::vector<uint8_t>{0xFF, 0x3F, 0xFF, 0xBF, 0x00, 0x00, 0xFF, 0x7B}));
  auto nearest = [](double value) {
    uint8_t out[2] = {};
    writeScalar(out, ScalarType::sfloat(16), Value::fromDouble(value),
                HalfRounding::NearestEven);
    return out[0] | out[1] << 8;
  };
  EXPECT_EQ(nearest(1.9999), 0x4000);
  EXPECT_EQ(nearest(3e-5), 0x01F7);
  EXPECT_EQ(nearest(70000.0), 0x7C00);
}

TEST(AmberLayout, PackStructAndPartialElement) {
  // { int32 i; float f; } std430: 8 bytes per element; three values fill
  // one element and half of the next.
  Type mixed = structOf(
      {member("i", typeNamed("int32")), member("f", typeNamed("float"))});
  std::vector<uint8_t> bytes = packValues(
      mixed, Layout::Std430,
      {Value::fromInt(-2), Value::fromDouble(0.5), Value::fromUint(7)});
  ASSERT_EQ(bytes.size(), 16u);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 4),
            (std::vector<uint8_t>{0xFE, 0xFF, 0xFF, 0xFF}));
  EXPECT_EQ(floatAt(bytes, 4), 0.5f);
  EXPECT_EQ(bytes[8], 7);
  EXPECT_EQ(floatAt(bytes, 12), 0.0f);
  EXPECT_TRUE(packValues(mixed, Layout::Std430, {}).empty());
}

TEST(AmberLayout, ReadScalarInvertsWriteScalar) {
  uint8_t bytes[8] = {0x80, 0xFF, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(readScalar(bytes, ScalarType::sint(8)), Value::fromInt(-128));
  EXPECT_EQ(readScalar(bytes, ScalarType::uint(8)), Value::fromUint(0x80));
  EXPECT_EQ(readScalar(bytes, ScalarType::sint(16)), Value::fromInt(-128));
  uint8_t half[2] = {0x00, 0x3C};
  EXPECT_EQ(readScalar(half, ScalarType::sfloat(16)), Value::fromDouble(1.0));
  for (ScalarType scalar :
       {ScalarType::sint(32), ScalarType::uint(16), ScalarType::sfloat(32),
        ScalarType::sfloat(64), ScalarType::sint(64)}) {
    Value value = convertValue(Value::fromInt(-3), scalar);
    uint8_t out[8] = {};
    writeScalar(out, scalar, value);
    EXPECT_EQ(readScalar(out, scalar), value) << scalarTypeName(scalar);
  }
}

} // namespace
