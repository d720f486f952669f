//===- InterfaceConsistencyTest.cpp - Compiler and reflection agree -------===//
//
// The runtime sizes Workgroup and Private storage and fills the binding
// table from reflection; the compiled kernel addresses them by the layout the
// conversion chose. These must agree for every shader, so compile some whose
// layouts are tricky and compare, and compare both with hand-derived values.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "spvbridge/bridge/Compiler.h"

using namespace spvb;
using namespace spvb::test;

namespace {

struct Compiled {
  ModuleReflection reflection;
  InterfaceLayout layout;
};

Compiled compile(llvm::StringRef source, std::vector<std::string> specs = {}) {
  TempDir dir;
  std::string path = dir.write("shader.comp", source);
  CompileOptions options;
  for (const std::string &spec : specs)
    options.specializations.push_back(cantFail(parseSpecArgument(spec)));
  Compiler compiler(options);
  SpirvBinary binary = cantFail(compiler.load(path));
  Compiled result{cantFail(compiler.reflect(binary)), {}};
  auto module = cantFail(compiler.deserialize(binary));
  LoweredModule lowered =
      cantFail(compiler.lower(std::move(module), result.reflection, path));
  result.layout = std::move(lowered.layout);
  return result;
}

TEST(InterfaceConsistency, WorkgroupAndPrivateStorage) {
  Compiled c = compile(R"(
#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
struct S { vec3 p; float w; uint flag; };
shared float tile[8][4];   // 128 bytes at 0
shared S s[3];             // natural: vec3 12 + float 4 + uint 4 = 20 each
shared double d;           // 8-aligned after 128 + 60 = 188 -> 192
vec4 privateScratch[2];    // Private: 32 bytes
void main() {
  uint i = gl_LocalInvocationIndex;
  privateScratch[i & 1u] = vec4(i);
  tile[gl_LocalInvocationID.x][gl_LocalInvocationID.y] = float(i);
  s[i % 3u].p = vec3(i);
  d = double(i);
  barrier();
  v[i] = tile[0][1] + s[1].p.y + float(d) + privateScratch[0].x;
}
)");
  // Hand-derived from the natural layout rule (Layout.h, Reflection.h).
  EXPECT_EQ(c.layout.sharedMemorySize, 200u);
  EXPECT_EQ(c.reflection.workgroupStorage.size, c.layout.sharedMemorySize);
  EXPECT_EQ(c.layout.privateMemorySize, 32u);
  EXPECT_EQ(c.reflection.privateStorage.size, c.layout.privateMemorySize);
  ASSERT_EQ(c.layout.entryPoints.size(), 1u);
  EXPECT_EQ(c.layout.entryPoints[0].workgroupSize[0], 8u);
  EXPECT_EQ(c.layout.entryPoints[0].workgroupSize[1], 4u);
  EXPECT_TRUE(c.layout.entryPoints[0].usesBarriers);
  EXPECT_TRUE(c.reflection.usesBarriers);
}

TEST(InterfaceConsistency, BindingTableOrder) {
  Compiled c = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 3) uniform U { uint u; };
layout(set = 0, binding = 1) buffer C { uint c[]; } arr[3];
void main() { a[0] = u + arr[2].c[0]; }
)");
  // Sorted by (set, binding); the array of 3 takes three slots.
  std::vector<std::pair<uint32_t, uint32_t>> expected = {
      {0, 1}, {0, 1}, {0, 1}, {0, 3}, {1, 0}};
  ASSERT_EQ(c.layout.bindings.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(c.layout.bindings[i].set, expected[i].first) << i;
    EXPECT_EQ(c.layout.bindings[i].binding, expected[i].second) << i;
  }
  EXPECT_EQ(c.reflection.bindingTableSize, expected.size());
  for (const ResourceInfo &resource : c.reflection.resources)
    EXPECT_EQ(c.layout.bindings[resource.slot].binding, resource.binding);
}

TEST(InterfaceConsistency, SpecializedWorkgroupSize) {
  const char *source = R"(
#version 450
layout(local_size_x = 32, local_size_x_id = 3, local_size_y_id = 4) in;
layout(constant_id = 5) const uint N = 16;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint scratch[N];
void main() { scratch[gl_LocalInvocationIndex % N] = 1u; v[0] = scratch[0]; }
)";
  Compiled defaults = compile(source);
  EXPECT_EQ(defaults.layout.entryPoints[0].workgroupSize[0], 32u);
  EXPECT_EQ(defaults.layout.entryPoints[0].workgroupSize[1], 1u);
  EXPECT_EQ(defaults.layout.sharedMemorySize, 64u);

  Compiled specialized = compile(source, {"3:u32:16", "4:u32:2", "5:u32:100"});
  const auto &size = specialized.layout.entryPoints[0].workgroupSize;
  EXPECT_EQ(size[0], 16u);
  EXPECT_EQ(size[1], 2u);
  EXPECT_EQ(size[2], 1u);
  EXPECT_EQ(specialized.reflection.entryPoints[0].workgroupSize[0], 16u);
  EXPECT_EQ(specialized.reflection.entryPoints[0].workgroupSize[1], 2u);
  EXPECT_EQ(specialized.layout.sharedMemorySize, 400u);
  EXPECT_EQ(specialized.reflection.workgroupStorage.size, 400u);
}

} // namespace
