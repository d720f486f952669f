//===- ScalarLayoutTest.cpp - The scalar at each byte of a buffer block ---===//
//
// Expected offsets are derived by hand from the std140/std430 rules (GLSL
// 4.60 section 7.6.2.2), as in ReflectionTest.cpp, down to every scalar.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "spvbridge/spirv/Reflection.h"
#include "spvbridge/spirv/ScalarLayout.h"

using namespace spvb;
using namespace spvb::test;

namespace {

struct ExpectedField {
  uint64_t offset;
  const char *path;
  const char *type;
};

void expectFields(const std::vector<ScalarField> &fields,
                  const std::vector<ExpectedField> &expected) {
  ASSERT_EQ(fields.size(), expected.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    EXPECT_EQ(fields[i].offset, expected[i].offset) << expected[i].path;
    EXPECT_EQ(fields[i].path, expected[i].path) << i;
    EXPECT_EQ(fields[i].getTypeName(), expected[i].type) << expected[i].path;
  }
}

/// The layout of the buffer at (set, binding) of \p binary.
BlockScalarLayout layoutOf(const SpirvBinary &binary, uint32_t set,
                           uint32_t binding) {
  ModuleReflection reflection = unwrap(reflectModule(binary));
  const ResourceInfo *resource = reflection.findResource(set, binding);
  EXPECT_NE(resource, nullptr);
  if (!resource)
    return {};
  return unwrap(getBlockScalarLayout(binary, resource->variableId));
}

const char *const LayoutShader = R"(#version 450
layout(local_size_x = 1) in;
layout(std140, set = 0, binding = 1) uniform Params {
  float a;
  vec3 b;
  float c;
  vec2 d;
  float e[3];
  mat3 m;
  layout(row_major) mat2 r;
  ivec4 f;
} params;
struct S { vec3 p; float w; };
layout(std430, set = 0, binding = 0) buffer Data {
  uint count;
  vec2 v;
  float arr[3];
  S s;
  S items[];
} data;
void main() {
  data.items[0].p = params.b * params.m * params.r[0].x + vec3(params.f.xyz) *
      params.e[2] + vec3(params.a, params.c, params.d.x) +
      vec3(data.v, data.arr[1]) + data.s.p * data.s.w;
  data.count = 1u;
}
)";

TEST(ScalarLayout, Std140EveryScalar) {
  BlockScalarLayout layout = layoutOf(compileCompute(LayoutShader), 0, 1);
  // vec3 aligns to 16 and c packs after it; array elements and matrix
  // columns (rows when row-major) are 16 bytes apart. Row-major mat2 at 144:
  // r[column][row] is at 144 + 16 * row + 4 * column.
  expectFields(layout.fields, {{0, "a", "f32"},         {16, "b[0]", "f32"},
                               {20, "b[1]", "f32"},     {24, "b[2]", "f32"},
                               {28, "c", "f32"},        {32, "d[0]", "f32"},
                               {36, "d[1]", "f32"},     {48, "e[0]", "f32"},
                               {64, "e[1]", "f32"},     {80, "e[2]", "f32"},
                               {96, "m[0][0]", "f32"},  {100, "m[0][1]", "f32"},
                               {104, "m[0][2]", "f32"}, {112, "m[1][0]", "f32"},
                               {116, "m[1][1]", "f32"}, {120, "m[1][2]", "f32"},
                               {128, "m[2][0]", "f32"}, {132, "m[2][1]", "f32"},
                               {136, "m[2][2]", "f32"}, {144, "r[0][0]", "f32"},
                               {148, "r[1][0]", "f32"}, {160, "r[0][1]", "f32"},
                               {164, "r[1][1]", "f32"}, {176, "f[0]", "i32"},
                               {180, "f[1]", "i32"},    {184, "f[2]", "i32"},
                               {188, "f[3]", "i32"}});
  EXPECT_EQ(layout.runtimeArrayStride, 0u);
  EXPECT_TRUE(layout.elementFields.empty());
}

TEST(ScalarLayout, Std430StaticPartAndRuntimeElement) {
  BlockScalarLayout layout = layoutOf(compileCompute(LayoutShader), 0, 0);
  // std430: vec2 aligns to 8, float arrays are packed, S {vec3 p; float w;}
  // aligns to 16 with w at 12.
  expectFields(layout.fields, {{0, "count", "u32"},
                               {8, "v[0]", "f32"},
                               {12, "v[1]", "f32"},
                               {16, "arr[0]", "f32"},
                               {20, "arr[1]", "f32"},
                               {24, "arr[2]", "f32"},
                               {32, "s.p[0]", "f32"},
                               {36, "s.p[1]", "f32"},
                               {40, "s.p[2]", "f32"},
                               {44, "s.w", "f32"}});
  EXPECT_EQ(layout.runtimeArrayPath, "items");
  EXPECT_EQ(layout.runtimeArrayOffset, 48u);
  EXPECT_EQ(layout.runtimeArrayStride, 16u);
  expectFields(layout.elementFields, {{0, ".p[0]", "f32"},
                                      {4, ".p[1]", "f32"},
                                      {8, ".p[2]", "f32"},
                                      {12, ".w", "f32"}});
}

TEST(ScalarLayout, ForEachScalarStopsAtTheBufferEnd) {
  BlockScalarLayout layout = layoutOf(compileCompute(LayoutShader), 0, 0);
  // 48 static bytes, two whole elements (16 each) and 8 bytes of a third:
  // its p[0] (80..83) and p[1] (84..87) fit, p[2] (88..91) does not.
  std::vector<BufferScalar> seen;
  layout.forEachScalar(48 + 2 * 16 + 8, [&](const BufferScalar &scalar) {
    seen.push_back(scalar);
  });
  ASSERT_EQ(seen.size(), 10u + 4 + 4 + 2);
  EXPECT_EQ(seen[9].path, "s.w");
  EXPECT_EQ(seen[10].path, "items[0].p[0]");
  EXPECT_EQ(seen[10].offset, 48u);
  EXPECT_EQ(seen[17].path, "items[1].w");
  EXPECT_EQ(seen[17].offset, 48u + 16 + 12);
  EXPECT_EQ(seen[19].path, "items[2].p[1]");
  EXPECT_EQ(seen[19].offset, 84u);
  for (size_t i = 0; i < seen.size(); ++i)
    EXPECT_EQ(seen[i].index, i);

  // A buffer shorter than the static part: only the scalars inside it.
  seen.clear();
  layout.forEachScalar(
      14, [&](const BufferScalar &scalar) { seen.push_back(scalar); });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].path, "v[0]");
}

TEST(ScalarLayout, ScalarTypesAndWidths) {
  BlockScalarLayout layout = layoutOf(compileCompute(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(std430, set = 1, binding = 2) buffer T {
  int8_t a;
  uint16_t b;
  float16_t h;
  int64_t l;
  double d;
  u8vec2 c;
  bool flag;
  uint64_t u[];
} t;
void main() { t.a = int8_t(1); }
)"),
                                      1, 2);
  // std430: each scalar aligned to its size; a bool in a block is stored
  // as a 32-bit uint by glslang.
  expectFields(layout.fields, {{0, "a", "i8"},
                               {2, "b", "u16"},
                               {4, "h", "f16"},
                               {8, "l", "i64"},
                               {16, "d", "f64"},
                               {24, "c[0]", "u8"},
                               {25, "c[1]", "u8"},
                               {28, "flag", "u32"}});
  EXPECT_EQ(layout.runtimeArrayPath, "u");
  EXPECT_EQ(layout.runtimeArrayOffset, 32u);
  EXPECT_EQ(layout.runtimeArrayStride, 8u);
  expectFields(layout.elementFields, {{0, "", "u64"}});
}

TEST(ScalarLayout, DescriptorArrayElementBlock) {
  BlockScalarLayout layout = layoutOf(compileCompute(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer B { int x; float y[]; } bufs[2];
void main() { bufs[1].x = 1; }
)"),
                                      0, 0);
  expectFields(layout.fields, {{0, "x", "i32"}});
  EXPECT_EQ(layout.runtimeArrayOffset, 4u);
  EXPECT_EQ(layout.runtimeArrayStride, 4u);
}

// PhysicalStorageBuffer pointers are 8 bytes each (std430 aligns them to
// 8) and no scalar field; each names the type it points to.
const char *const PointerShader = R"(#version 450
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node {
  vec2 v;
  Node next;
  float data[];
};
layout(buffer_reference, std430) buffer Floats { float f[]; };
layout(push_constant) uniform P { uint n; Node head; Floats result; } p;
layout(std430, set = 0, binding = 0) buffer B {
  uint k;
  Node nodes[2];
  Node items[];
} b;
void main() {
  p.result.f[0] = p.head.next.v.x + b.nodes[1].data[2] + b.items[0].v.y;
}
)";

TEST(ScalarLayout, PhysicalStorageBufferPointers) {
  SpirvBinary binary = compileCompute(PointerShader);
  ModuleReflection reflection = unwrap(reflectModule(binary));
  ASSERT_TRUE(reflection.pushConstants);
  BlockScalarLayout push = unwrap(
      getBlockScalarLayout(binary, reflection.pushConstants->variableId));
  // n at 0, head at 8, result at 16 (each pointer aligned to 8).
  expectFields(push.fields, {{0, "n", "u32"}});
  EXPECT_EQ(push.staticSize, 24u);
  ASSERT_EQ(push.pointers.size(), 2u);
  EXPECT_EQ(push.pointers[0].offset, 8u);
  EXPECT_EQ(push.pointers[0].path, "head");
  EXPECT_EQ(push.pointers[1].offset, 16u);
  EXPECT_EQ(push.pointers[1].path, "result");

  // Node: v at 0 (8 bytes), next at 8, data[] from 16 in steps of 4.
  BlockScalarLayout node =
      unwrap(getPointeeScalarLayout(binary, push.pointers[0].pointeeTypeId));
  EXPECT_EQ(node.typeName, "Node");
  expectFields(node.fields, {{0, "v[0]", "f32"}, {4, "v[1]", "f32"}});
  EXPECT_EQ(node.staticSize, 16u);
  ASSERT_EQ(node.pointers.size(), 1u);
  EXPECT_EQ(node.pointers[0].offset, 8u);
  EXPECT_EQ(node.pointers[0].path, "next");
  // next points to Node itself.
  EXPECT_EQ(node.pointers[0].pointeeTypeId, push.pointers[0].pointeeTypeId);
  EXPECT_EQ(node.runtimeArrayPath, "data");
  EXPECT_EQ(node.runtimeArrayOffset, 16u);
  EXPECT_EQ(node.runtimeArrayStride, 4u);
  expectFields(node.elementFields, {{0, "", "f32"}});

  BlockScalarLayout floats =
      unwrap(getPointeeScalarLayout(binary, push.pointers[1].pointeeTypeId));
  EXPECT_EQ(floats.typeName, "Floats");
  EXPECT_TRUE(floats.fields.empty());
  EXPECT_EQ(floats.staticSize, 0u);
  EXPECT_EQ(floats.runtimeArrayOffset, 0u);
  EXPECT_EQ(floats.runtimeArrayStride, 4u);

  // B: k at 0, nodes[0] at 8 and nodes[1] at 16 (ArrayStride 8), items[]
  // from 24 in steps of 8, each element one pointer.
  BlockScalarLayout buffer = layoutOf(binary, 0, 0);
  expectFields(buffer.fields, {{0, "k", "u32"}});
  EXPECT_EQ(buffer.staticSize, 24u);
  ASSERT_EQ(buffer.pointers.size(), 2u);
  EXPECT_EQ(buffer.pointers[0].offset, 8u);
  EXPECT_EQ(buffer.pointers[0].path, "nodes[0]");
  EXPECT_EQ(buffer.pointers[1].offset, 16u);
  EXPECT_EQ(buffer.pointers[1].path, "nodes[1]");
  EXPECT_EQ(buffer.runtimeArrayOffset, 24u);
  EXPECT_EQ(buffer.runtimeArrayStride, 8u);
  EXPECT_TRUE(buffer.elementFields.empty());
  ASSERT_EQ(buffer.elementPointers.size(), 1u);
  EXPECT_EQ(buffer.elementPointers[0].offset, 0u);
  EXPECT_EQ(buffer.elementPointers[0].path, "");
}

TEST(ScalarLayout, PhysicalPointeeTypesOfTheModule) {
  SpirvBinary binary = compileCompute(PointerShader);
  ModuleReflection reflection = unwrap(reflectModule(binary));
  BlockScalarLayout push = unwrap(
      getBlockScalarLayout(binary, reflection.pushConstants->variableId));
  // Node, Floats, and float (result.f[0] goes through a pointer to a float):
  // glslang declares a PhysicalStorageBuffer pointer for each access chain
  // result type too.
  std::vector<uint32_t> pointees = unwrap(getPhysicalPointeeTypes(binary));
  EXPECT_TRUE(llvm::is_contained(pointees, push.pointers[0].pointeeTypeId));
  EXPECT_TRUE(llvm::is_contained(pointees, push.pointers[1].pointeeTypeId));
  EXPECT_TRUE(llvm::is_sorted(pointees));
  bool hasFloat = false;
  for (uint32_t pointee : pointees) {
    BlockScalarLayout layout = unwrap(getPointeeScalarLayout(binary, pointee));
    hasFloat |= layout.fields.size() == 1 && layout.fields[0].path.empty() &&
                layout.fields[0].getTypeName() == "f32";
  }
  EXPECT_TRUE(hasFloat);
}

TEST(ScalarLayout, PointeeMustBeAType) {
  SpirvBinary binary = compileCompute(PointerShader);
  ModuleReflection reflection = unwrap(reflectModule(binary));
  ASSERT_TRUE(reflection.pushConstants);
  uint32_t variable = reflection.pushConstants->variableId;
  EXPECT_EQ(errorText(getPointeeScalarLayout(binary, variable)),
            "error: test.comp: id " + std::to_string(variable) +
                " is not a type");
}

TEST(ScalarLayout, NotABlockVariable) {
  SpirvBinary binary = compileCompute(R"(#version 450
layout(local_size_x = 1) in;
void main() {}
)");
  EXPECT_EQ(errorText(getBlockScalarLayout(binary, 1)),
            "error: test.comp: id 1 is not a variable of a block type");
}

} // namespace
