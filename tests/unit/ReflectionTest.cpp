//===- ReflectionTest.cpp - Module reflection -----------------------------===//
//
// Expected offsets and sizes are derived by hand from the std140/std430 rules
// (GLSL 4.60 section 7.6.2.2) and the natural layout rule in Reflection.h.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include "spvbridge/spirv/Reflection.h"
#include "spvbridge/spirv/ShaderSource.h"

using namespace spvb;
using namespace spvb::test;

namespace {

ModuleReflection reflect(llvm::StringRef glsl, const SourceOptions &opts = {}) {
  return unwrap(reflectModule(compileCompute(glsl, opts)));
}

ModuleReflection reflectAsm(llvm::StringRef text) {
  return unwrap(reflectModule(unwrap(assembleSpirv(text, "t.spvasm", {}))));
}

void expectMember(const BlockMember &m, llvm::StringRef name, uint32_t offset,
                  uint64_t size, llvm::StringRef type) {
  EXPECT_EQ(m.name, name);
  EXPECT_EQ(m.offset, offset) << name.str();
  EXPECT_EQ(m.size, size) << name.str();
  EXPECT_EQ(m.type, type) << name.str();
}

const char *const LayoutShader = R"(#version 450
layout(local_size_x = 8, local_size_y = 4) in;
layout(std140, set = 0, binding = 1) uniform Params {
  float a;
  vec3 b;
  float c;
  vec2 d;
  float e[3];
  mat3 m;
  layout(row_major) mat2 r;
  vec4 f;
} params;
struct S { vec3 p; float w; };
layout(std430, set = 0, binding = 0) buffer Data {
  uint count;
  vec2 v;
  float arr[3];
  S s;
  S items[];
} data;
layout(push_constant) uniform PC { uint n; float scale; } pc;
void main() {
  data.items[gl_LocalInvocationIndex].p =
      params.b * params.m * params.r[0].x + params.f.xyz * params.e[2] +
      vec3(params.a, params.c, params.d.x) + vec3(data.v, data.arr[1]) +
      data.s.p * data.s.w * pc.scale;
  data.count = pc.n;
}
)";

TEST(Reflection, Std140UniformBlock) {
  ModuleReflection r = reflect(LayoutShader);
  const ResourceInfo *ubo = r.findResource(0, 1);
  ASSERT_NE(ubo, nullptr);
  EXPECT_EQ(ubo->kind, ResourceKind::UniformBuffer);
  EXPECT_EQ(ubo->name, "params");
  EXPECT_EQ(ubo->blockTypeName, "Params");
  ASSERT_EQ(ubo->members.size(), 8u);
  // std140: vec3 aligns to 16 and a following float packs after it; arrays
  // and matrix columns/rows have a stride rounded up to 16.
  expectMember(ubo->members[0], "a", 0, 4, "f32");
  expectMember(ubo->members[1], "b", 16, 12, "vec3<f32>");
  expectMember(ubo->members[2], "c", 28, 4, "f32");
  expectMember(ubo->members[3], "d", 32, 8, "vec2<f32>");
  expectMember(ubo->members[4], "e", 48, 3 * 16, "array<f32,3,stride=16>");
  expectMember(ubo->members[5], "m", 96, 3 * 16, "mat3x3<f32,stride=16>");
  // Row-major mat2: two rows, each padded to 16 bytes.
  expectMember(ubo->members[6], "r", 144, 2 * 16,
               "mat2x2<f32,stride=16,row_major>");
  expectMember(ubo->members[7], "f", 176, 16, "vec4<f32>");
  EXPECT_EQ(ubo->staticSize, 192u);
  EXPECT_EQ(ubo->runtimeArrayStride, 0u);
}

TEST(Reflection, Std430BlockWithRuntimeArray) {
  ModuleReflection r = reflect(LayoutShader);
  const ResourceInfo *ssbo = r.findResource(0, 0);
  ASSERT_NE(ssbo, nullptr);
  EXPECT_EQ(ssbo->kind, ResourceKind::StorageBuffer);
  EXPECT_EQ(ssbo->name, "data");
  EXPECT_EQ(ssbo->type, "Data");
  ASSERT_EQ(ssbo->members.size(), 5u);
  // std430: arrays of scalars are tightly packed; struct S {vec3 p; float w;}
  // has alignment 16 (from the vec3) and size 16 (w packs at 12).
  expectMember(ssbo->members[0], "count", 0, 4, "u32");
  expectMember(ssbo->members[1], "v", 8, 8, "vec2<f32>");
  expectMember(ssbo->members[2], "arr", 16, 12, "array<f32,3,stride=4>");
  expectMember(ssbo->members[3], "s", 32, 16, "S");
  expectMember(ssbo->members[4], "items", 48, 0, "array<S,stride=16>");
  EXPECT_EQ(ssbo->staticSize, 48u);
  EXPECT_EQ(ssbo->runtimeArrayOffset, 48u);
  EXPECT_EQ(ssbo->runtimeArrayStride, 16u);
  EXPECT_FALSE(ssbo->nonWritable);
}

TEST(Reflection, PushConstants) {
  ModuleReflection r = reflect(LayoutShader);
  ASSERT_TRUE(r.pushConstants.has_value());
  EXPECT_EQ(r.pushConstants->kind, ResourceKind::PushConstant);
  EXPECT_EQ(r.pushConstants->slot, ResourceInfo::NoSlot);
  ASSERT_EQ(r.pushConstants->members.size(), 2u);
  expectMember(r.pushConstants->members[0], "n", 0, 4, "u32");
  expectMember(r.pushConstants->members[1], "scale", 4, 4, "f32");
  EXPECT_EQ(r.pushConstantSize, 8u);
  // Push constants are not in the binding table.
  EXPECT_EQ(r.resources.size(), 2u);
  EXPECT_EQ(r.bindingTableSize, 2u);
}

TEST(Reflection, NoPushConstants) {
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x = 1) in;
void main() {}
)");
  EXPECT_FALSE(r.pushConstants.has_value());
  EXPECT_EQ(r.pushConstantSize, 0u);
  EXPECT_TRUE(r.resources.empty());
  EXPECT_EQ(r.bindingTableSize, 0u);
}

TEST(Reflection, BindingTableOrderAndKinds) {
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, set = 2, binding = 5) buffer Out { float o[]; } outBuf;
layout(std430, set = 1, binding = 0) readonly buffer In { float x[]; } inBufs[2];
layout(set = 0, binding = 3) uniform sampler2D tex;
layout(std430, set = 0, binding = 0) buffer Data { float d[]; } data;
layout(std140, set = 0, binding = 1) uniform Params { vec4 k; } params;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D img;
layout(set = 3, binding = 0) uniform texture2D t;
layout(set = 3, binding = 1) uniform sampler s;
layout(set = 3, binding = 2) uniform samplerBuffer ub;
layout(set = 3, binding = 3, r32f) uniform imageBuffer sb;
void main() {
  vec4 v = texture(tex, vec2(0)) + texture(sampler2D(t, s), vec2(0)) +
           texelFetch(ub, 0) + imageLoad(sb, 0);
  imageStore(img, ivec2(0), v);
  outBuf.o[0] = inBufs[1].x[0] + data.d[0] + params.k.x;
}
)");
  // Sorted by (set, binding); inBufs[2] takes two slots.
  struct Expected {
    const char *name;
    uint32_t set, binding, slot, arraySize;
    ResourceKind kind;
  };
  const Expected expected[] = {
      {"data", 0, 0, 0, 1, ResourceKind::StorageBuffer},
      {"params", 0, 1, 1, 1, ResourceKind::UniformBuffer},
      {"img", 0, 2, 2, 1, ResourceKind::StorageImage},
      {"tex", 0, 3, 3, 1, ResourceKind::CombinedImageSampler},
      {"inBufs", 1, 0, 4, 2, ResourceKind::StorageBuffer},
      {"outBuf", 2, 5, 6, 1, ResourceKind::StorageBuffer},
      {"t", 3, 0, 7, 1, ResourceKind::SampledImage},
      {"s", 3, 1, 8, 1, ResourceKind::Sampler},
      {"ub", 3, 2, 9, 1, ResourceKind::UniformTexelBuffer},
      {"sb", 3, 3, 10, 1, ResourceKind::StorageTexelBuffer},
  };
  ASSERT_EQ(r.resources.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    const ResourceInfo &res = r.resources[i];
    EXPECT_EQ(res.name, expected[i].name) << i;
    EXPECT_EQ(res.set, expected[i].set) << expected[i].name;
    EXPECT_EQ(res.binding, expected[i].binding) << expected[i].name;
    EXPECT_EQ(res.slot, expected[i].slot) << expected[i].name;
    EXPECT_EQ(res.arraySize, expected[i].arraySize) << expected[i].name;
    EXPECT_EQ(res.kind, expected[i].kind) << expected[i].name;
  }
  EXPECT_EQ(r.bindingTableSize, 11u);
  EXPECT_TRUE(r.resources[4].nonWritable);
  EXPECT_TRUE(r.resources[2].nonReadable);
  EXPECT_EQ(getResourceKindName(r.resources[3].kind), "combined-image-sampler");
}

TEST(Reflection, UniformBufferBlockIsStorageBuffer) {
  // SPIR-V 1.0 expresses storage buffers as Uniform + BufferBlock.
  SourceOptions opts;
  opts.targetEnv = "vulkan1.0";
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() { data[0] = 1u; }
)",
                               opts);
  ASSERT_EQ(r.resources.size(), 1u);
  EXPECT_EQ(r.resources[0].kind, ResourceKind::StorageBuffer);
  EXPECT_EQ(r.resources[0].runtimeArrayStride, 4u);
}

TEST(Reflection, AliasedBindingsShareASlot) {
  ModuleReflection r = reflectAsm(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %rta_u ArrayStride 4
               OpDecorate %rta_f ArrayStride 4
               OpMemberDecorate %BU 0 Offset 0
               OpMemberDecorate %BF 0 Offset 0
               OpDecorate %BU Block
               OpDecorate %BF Block
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 0
               OpDecorate %c DescriptorSet 0
               OpDecorate %c Binding 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
      %rta_u = OpTypeRuntimeArray %uint
      %rta_f = OpTypeRuntimeArray %float
         %BU = OpTypeStruct %rta_u
         %BF = OpTypeStruct %rta_f
       %pu = OpTypePointer StorageBuffer %BU
       %pf = OpTypePointer StorageBuffer %BF
          %a = OpVariable %pu StorageBuffer
          %b = OpVariable %pf StorageBuffer
          %c = OpVariable %pu StorageBuffer
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_EQ(r.resources.size(), 3u);
  EXPECT_EQ(r.resources[0].slot, 0u);
  EXPECT_EQ(r.resources[1].slot, 0u);
  EXPECT_EQ(r.resources[2].slot, 1u);
  EXPECT_EQ(r.bindingTableSize, 2u);
}

TEST(Reflection, WorkgroupStorage) {
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x = 64) in;
shared float s[64];
shared uvec3 t;
layout(std430, binding = 0) buffer Buf { float data[]; };
void main() {
  s[gl_LocalInvocationIndex] = 1.0;
  t = uvec3(1u);
  barrier();
  data[0] = s[3] + float(t.y);
}
)");
  // s: 64 floats at 0 (256 bytes); t: uvec3 aligned to 4 at 256, 12 bytes.
  ASSERT_EQ(r.workgroupStorage.variables.size(), 2u);
  const StorageVariable &s = r.workgroupStorage.variables[0];
  const StorageVariable &t = r.workgroupStorage.variables[1];
  EXPECT_EQ(s.name, "s");
  EXPECT_EQ(s.offset, 0u);
  EXPECT_EQ(s.size, 256u);
  EXPECT_EQ(s.type, "array<f32,64>");
  EXPECT_EQ(t.name, "t");
  EXPECT_EQ(t.offset, 256u);
  EXPECT_EQ(t.size, 12u);
  EXPECT_EQ(t.alignment, 4u);
  EXPECT_EQ(r.workgroupStorage.size, 268u);
  EXPECT_EQ(r.privateStorage.size, 0u);
}

TEST(Reflection, WorkgroupStorageMixedAlignment) {
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x = 1) in;
struct S2 { float a; double b; bool c; };
shared bool flag;
shared vec3 v3[2];
shared double d;
shared S2 st;
layout(std430, binding = 0) buffer Buf { double data[]; };
void main() {
  flag = true;
  v3[1] = vec3(2.0);
  d = 3.0;
  st.b = 4.0;
  data[0] = (flag ? 1.0 : 0.0) + v3[1].x + d + st.b;
}
)");
  // flag: bool, 1 byte at 0. v3: vec3 is 12 bytes aligned to 4, so stride
  // 12: 24 bytes at 4. d: 8 bytes aligned to 8 at 32. st: a@0, b@8, c@16,
  // size 17 rounded to its alignment 8 = 24, placed at 40. Total 64.
  const std::vector<StorageVariable> &vars = r.workgroupStorage.variables;
  ASSERT_EQ(vars.size(), 4u);
  EXPECT_EQ(vars[0].name, "flag");
  EXPECT_EQ(vars[0].offset, 0u);
  EXPECT_EQ(vars[0].size, 1u);
  EXPECT_EQ(vars[1].name, "v3");
  EXPECT_EQ(vars[1].offset, 4u);
  EXPECT_EQ(vars[1].size, 24u);
  EXPECT_EQ(vars[2].name, "d");
  EXPECT_EQ(vars[2].offset, 32u);
  EXPECT_EQ(vars[2].size, 8u);
  EXPECT_EQ(vars[3].name, "st");
  EXPECT_EQ(vars[3].offset, 40u);
  EXPECT_EQ(vars[3].size, 24u);
  EXPECT_EQ(vars[3].alignment, 8u);
  EXPECT_EQ(r.workgroupStorage.size, 64u);
  EXPECT_EQ(r.workgroupStorage.alignment, 8u);
}

TEST(Reflection, PrivateStorage) {
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x = 1) in;
float counter;
vec3 acc[2];
layout(std430, binding = 0) buffer Buf { float data[]; };
void main() {
  counter = 1.0;
  acc[1] = vec3(counter);
  data[0] = acc[1].y;
}
)");
  // counter: 4 bytes at 0; acc: 2 x vec3 (stride 12) at 4.
  ASSERT_EQ(r.privateStorage.variables.size(), 2u);
  EXPECT_EQ(r.privateStorage.variables[0].offset, 0u);
  EXPECT_EQ(r.privateStorage.variables[1].offset, 4u);
  EXPECT_EQ(r.privateStorage.variables[1].size, 24u);
  EXPECT_EQ(r.privateStorage.size, 28u);
  EXPECT_EQ(r.workgroupStorage.size, 0u);
}

TEST(Reflection, Flags) {
  ModuleReflection plain = reflect(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() { memoryBarrierShared(); data[0] = 1u; }
)");
  EXPECT_FALSE(plain.usesBarriers);
  EXPECT_FALSE(plain.usesAtomics);
  EXPECT_FALSE(plain.usesSubgroupOps);

  ModuleReflection all = reflect(R"(#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() {
  barrier();
  atomicAdd(data[0], 1u);
  data[1] = subgroupAdd(1u);
}
)");
  EXPECT_TRUE(all.usesBarriers);
  EXPECT_TRUE(all.usesAtomics);
  EXPECT_TRUE(all.usesSubgroupOps);

  // A subgroup builtin alone counts as a subgroup operation.
  ModuleReflection builtin = reflect(R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 32) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() { data[gl_LocalInvocationIndex] = gl_SubgroupInvocationID; }
)");
  EXPECT_FALSE(builtin.usesBarriers);
  EXPECT_TRUE(builtin.usesSubgroupOps);
}

TEST(Reflection, SpecConstants) {
  ModuleReflection r = reflect(R"(#version 450
layout(local_size_x_id = 3, local_size_y = 2) in;
layout(constant_id = 1) const uint N = 4;
layout(constant_id = 0) const float F = 1.5;
layout(constant_id = 2) const bool B = true;
layout(constant_id = 4) const int I = -3;
layout(std430, binding = 0) buffer Buf { float data[]; };
void main() { data[0] = B ? F * float(N) : float(I); }
)");
  ASSERT_EQ(r.specConstants.size(), 5u);
  // Sorted by SpecId.
  EXPECT_EQ(r.specConstants[0].specId, 0u);
  EXPECT_EQ(r.specConstants[0].name, "F");
  EXPECT_EQ(r.specConstants[0].type, "f32");
  EXPECT_EQ(r.specConstants[0].defaultWords,
            (std::vector<uint32_t>{0x3fc00000}));
  EXPECT_EQ(r.specConstants[1].name, "N");
  EXPECT_EQ(r.specConstants[1].type, "u32");
  EXPECT_EQ(r.specConstants[1].defaultWords, (std::vector<uint32_t>{4}));
  EXPECT_EQ(r.specConstants[2].type, "bool");
  EXPECT_EQ(r.specConstants[2].defaultWords, (std::vector<uint32_t>{1}));
  // local_size_x_id = 3 defaults to 1.
  EXPECT_EQ(r.specConstants[3].specId, 3u);
  EXPECT_EQ(r.specConstants[3].type, "u32");
  EXPECT_EQ(r.specConstants[4].type, "i32");
  EXPECT_EQ(r.specConstants[4].defaultWords,
            (std::vector<uint32_t>{0xfffffffd}));
  EXPECT_NE(r.findSpecConstant(4), nullptr);
  EXPECT_EQ(r.findSpecConstant(9), nullptr);

  ASSERT_EQ(r.entryPoints.size(), 1u);
  const EntryPointInfo &entry = r.entryPoints[0];
  EXPECT_EQ(entry.workgroupSize, (std::array<uint32_t, 3>{1, 2, 1}));
  EXPECT_EQ(entry.workgroupSizeSource,
            WorkgroupSizeSource::WorkgroupSizeBuiltin);
  EXPECT_EQ(entry.workgroupSizeSpecIds[0], std::optional<uint32_t>(3));
  EXPECT_EQ(entry.workgroupSizeSpecIds[1], std::nullopt);

  std::vector<SpecConstantInfo> listed = unwrap(
      listSpecConstants(compileCompute("#version 450\n"
                                       "layout(local_size_x = 1) in;\n"
                                       "layout(constant_id = 7) const uint "
                                       "K = 2;\n"
                                       "shared uint s[K];\n"
                                       "void main() { s[0] = K; }\n")));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].specId, 7u);
  EXPECT_EQ(listed[0].name, "K");
}

TEST(Reflection, LocalSizeIdThroughSpecConstantOp) {
  // z = x * 2 with x's default 4: resolved through the defaults.
  ModuleReflection r = reflectAsm(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionModeId %main LocalSizeId %x %one %z
               OpDecorate %x SpecId 5
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
          %x = OpSpecConstant %uint 4
        %one = OpConstant %uint 1
        %two = OpConstant %uint 2
          %z = OpSpecConstantOp %uint IMul %x %two
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_EQ(r.entryPoints.size(), 1u);
  EXPECT_EQ(r.entryPoints[0].workgroupSize, (std::array<uint32_t, 3>{4, 1, 8}));
  EXPECT_EQ(r.entryPoints[0].workgroupSizeSource,
            WorkgroupSizeSource::LocalSizeId);
  EXPECT_EQ(r.entryPoints[0].workgroupSizeSpecIds[0],
            std::optional<uint32_t>(5));
  EXPECT_EQ(r.entryPoints[0].workgroupSizeSpecIds[2], std::nullopt);
}

TEST(Reflection, WorkgroupSizeBuiltinOverridesLocalSize) {
  ModuleReflection r = reflectAsm(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %wgs BuiltIn WorkgroupSize
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
      %eight = OpConstant %uint 8
       %four = OpConstant %uint 4
        %two = OpConstant %uint 2
        %wgs = OpConstantComposite %v3uint %eight %four %two
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_EQ(r.entryPoints.size(), 1u);
  EXPECT_EQ(r.entryPoints[0].workgroupSize, (std::array<uint32_t, 3>{8, 4, 2}));
  EXPECT_EQ(r.entryPoints[0].workgroupSizeSource,
            WorkgroupSizeSource::WorkgroupSizeBuiltin);
}

TEST(Reflection, UnresolvableWorkgroupSize) {
  SpirvBinary binary = unwrap(assembleSpirv(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionModeId %main LocalSizeId %one %one %7
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %one = OpConstant %uint 1
          %7 = OpUndef %uint
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)",
                                            "u.spvasm", {}));
  EXPECT_EQ(errorText(reflectModule(binary)),
            "error: u.spvasm: cannot resolve the workgroup size of entry "
            "point 'main': %7 is not an integer constant");
}

TEST(Reflection, EntryPoints) {
  ModuleReflection r = reflectAsm(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %a "first"
               OpEntryPoint GLCompute %b "second"
               OpExecutionMode %a LocalSize 16 1 1
               OpExecutionMode %b LocalSize 2 3 4
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %a = OpFunction %void None %fn
         %la = OpLabel
               OpReturn
               OpFunctionEnd
          %b = OpFunction %void None %fn
         %lb = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_EQ(r.entryPoints.size(), 2u);
  const EntryPointInfo *second = r.findEntryPoint("second");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->workgroupSize, (std::array<uint32_t, 3>{2, 3, 4}));
  EXPECT_EQ(second->stage, std::optional<ShaderStage>(ShaderStage::Compute));
  EXPECT_EQ(r.findEntryPoint("first")->workgroupSize[0], 16u);
  EXPECT_EQ(r.findEntryPoint("third"), nullptr);
  EXPECT_EQ(errorText(r.getEntryPoint("third")),
            "error: t.spvasm: no entry point named 'third' (available: "
            "first, second)");
  llvm::Expected<const EntryPointInfo *> found = r.getEntryPoint("first");
  ASSERT_TRUE(static_cast<bool>(found));
  EXPECT_EQ((*found)->name, "first");
}

TEST(Reflection, ModuleFacts) {
  ModuleReflection r = reflect(R"(#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_debug_printf : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { uint64_t data[]; };
void main() { data[0] = 1ul; debugPrintfEXT("hi"); }
)");
  EXPECT_EQ(r.spirvVersion, 0x00010500u);
  EXPECT_EQ(r.sourceName, "test.comp");
  ASSERT_EQ(r.capabilities.size(), r.capabilityNames.size());
  EXPECT_NE(llvm::find(r.capabilityNames, "Shader"), r.capabilityNames.end());
  EXPECT_NE(llvm::find(r.capabilityNames, "Int64"), r.capabilityNames.end());
  EXPECT_NE(llvm::find(r.capabilities, spv::CapabilityInt64),
            r.capabilities.end());
  EXPECT_NE(llvm::find(r.extensions, "SPV_KHR_non_semantic_info"),
            r.extensions.end());
  EXPECT_NE(llvm::find(r.extInstImports, "NonSemantic.DebugPrintf"),
            r.extInstImports.end());
  EXPECT_EQ(r.memoryModel, spv::MemoryModelGLSL450);
}

TEST(Reflection, RejectsMalformedBinary) {
  SpirvBinary binary;
  binary.name = "bad.spv";
  // A header announcing an instruction longer than the module.
  binary.words = {0x07230203, 0x00010000, 0, 10, 0, (9u << 16) | 17u, 1};
  std::string message = errorText(reflectModule(binary));
  EXPECT_EQ(message.rfind("error: bad.spv: not a valid SPIR-V binary: ", 0), 0u)
      << message;
}

} // namespace
