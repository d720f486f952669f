//===- ShaderSourceTest.cpp - Loading, compiling and assembling shaders ---===//

#include "TestUtil.h"

#include "spvbridge/spirv/Reflection.h"
#include "spvbridge/spirv/ShaderSource.h"
#include "spvbridge/spirv/Validator.h"

#include "llvm/ADT/bit.h"

#include <cstring>
#include <thread>

using namespace spvb;
using namespace spvb::test;

namespace {

const char *const TrivialAsm = R"(; a do-nothing compute shader
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 4 2 1
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
       %main = OpFunction %void None %3
          %5 = OpLabel
               OpReturn
               OpFunctionEnd
)";

const char *const SimpleCompute = R"(#version 450
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() { data[gl_GlobalInvocationID.x] += 1u; }
)";

std::string bytesOf(const std::vector<uint32_t> &words, bool swap) {
  std::string bytes(words.size() * 4, '\0');
  for (size_t i = 0; i < words.size(); ++i) {
    uint32_t word = swap ? llvm::byteswap(words[i]) : words[i];
    std::memcpy(&bytes[i * 4], &word, 4);
  }
  return bytes;
}

TEST(ShaderSource, LoadsBinaryInHostOrder) {
  TempDir dir;
  SpirvBinary assembled = unwrap(assembleSpirv(TrivialAsm, "<inline>", {}));
  ASSERT_FALSE(assembled.words.empty());
  std::string path = dir.write("le.spv", bytesOf(assembled.words, false));
  SpirvBinary loaded = unwrap(loadShaderFile(path, {}));
  EXPECT_EQ(loaded.words, assembled.words);
  EXPECT_EQ(loaded.name, path);
}

TEST(ShaderSource, LoadsByteSwappedBinary) {
  TempDir dir;
  SpirvBinary assembled = unwrap(assembleSpirv(TrivialAsm, "<inline>", {}));
  std::string path = dir.write("be.spv", bytesOf(assembled.words, true));
  SpirvBinary loaded = unwrap(loadShaderFile(path, {}));
  EXPECT_EQ(loaded.words, assembled.words);
  EXPECT_EQ(loaded.words[0], 0x07230203u);
}

TEST(ShaderSource, RejectsBadMagic) {
  TempDir dir;
  // "garb" read as a little-endian word is 0x62726167.
  std::string path = dir.write("bad.spv", "garbage!");
  EXPECT_EQ(errorText(loadShaderFile(path, {})),
            "error: " + path +
                ": not a SPIR-V binary (bad magic number 0x62726167)");
}

TEST(ShaderSource, RejectsTruncatedBinaries) {
  TempDir dir;
  std::string shortPath = dir.write("short.spv", "ab");
  EXPECT_EQ(errorText(loadShaderFile(shortPath, {})),
            "error: " + shortPath +
                ": not a SPIR-V binary (file is too short: 2 bytes)");

  std::string odd = bytesOf({0x07230203, 0x00010000}, false) + "xyz";
  std::string oddPath = dir.write("odd.spv", odd);
  EXPECT_EQ(errorText(loadShaderFile(oddPath, {})),
            "error: " + oddPath +
                ": not a SPIR-V binary (size 11 bytes is not a multiple of "
                "4)");

  std::string headerPath =
      dir.write("header.spv", bytesOf({0x07230203, 0x00010000}, false));
  EXPECT_EQ(errorText(loadShaderFile(headerPath, {})),
            "error: " + headerPath +
                ": not a SPIR-V binary (truncated header: 8 bytes)");
}

TEST(ShaderSource, MissingFile) {
  TempDir dir;
  std::string path = dir.path("nothere.comp");
  EXPECT_EQ(errorText(loadShaderFile(path, {})),
            "error: " + path + ": cannot open file: No such file or directory");
}

TEST(ShaderSource, UnknownExtension) {
  EXPECT_EQ(
      errorText(loadShaderFile("shader.xyz", {})),
      "error: shader.xyz: unknown shader file extension '.xyz' "
      "(expected .spv, .spvasm, .comp, .vert, .tesc, .tese, .geom, .frag, "
      ".glsl or .hlsl)");
  EXPECT_EQ(errorText(loadShaderFile("noext", {})),
            "error: noext: unknown shader file extension '' (expected .spv, "
            ".spvasm, .comp, .vert, .tesc, .tese, .geom, .frag, .glsl or "
            ".hlsl)");
}

TEST(ShaderSource, AssemblesSpvasmFile) {
  TempDir dir;
  std::string path = dir.write("t.spvasm", TrivialAsm);
  SpirvBinary binary = unwrap(loadShaderFile(path, {}));
  EXPECT_FALSE(validateSpirv(binary));
  // Numeric ids written in the text survive assembly.
  EXPECT_NE(disassemble(binary).find("%5 = OpLabel"), std::string::npos);
  ModuleReflection r = unwrap(reflectModule(binary));
  ASSERT_EQ(r.entryPoints.size(), 1u);
  EXPECT_EQ(r.entryPoints[0].workgroupSize, (std::array<uint32_t, 3>{4, 2, 1}));
}

TEST(ShaderSource, AssemblerTargetEnvSetsVersion) {
  SourceOptions opts;
  opts.targetEnv = "vulkan1.0";
  EXPECT_EQ(unwrap(assembleSpirv(TrivialAsm, "<inline>", opts)).words[1],
            0x00010000u);
  opts.targetEnv = "spv1.4";
  EXPECT_EQ(unwrap(assembleSpirv(TrivialAsm, "<inline>", opts)).words[1],
            0x00010400u);
}

TEST(ShaderSource, AssemblerErrorHasLineAndColumn) {
  TempDir dir;
  std::string text = TrivialAsm;
  // Line 10 of the file; "OpBogus" starts in column 16 (1-based).
  text.replace(text.find("OpReturn\n"), 8, "OpBogus");
  std::string path = dir.write("e.spvasm", text);
  EXPECT_EQ(errorText(loadShaderFile(path, {})),
            "error: " + path + ":10:16: Invalid Opcode name 'OpBogus'");
}

TEST(ShaderSource, CompilesGlslWithDebugInfo) {
  TempDir dir;
  std::string path = dir.write("simple.comp", SimpleCompute);
  SpirvBinary binary = unwrap(loadShaderFile(path, {}));
  EXPECT_EQ(binary.name, path);
  EXPECT_EQ(binary.words[1], 0x00010500u) << "vulkan1.2 means SPIR-V 1.5";
  EXPECT_EQ(errorText(validateSpirv(binary)), "<success>");
  std::string text = disassemble(binary);
  EXPECT_NE(text.find("OpString \"" + path + "\""), std::string::npos);
  EXPECT_NE(text.find("OpSource GLSL 450"), std::string::npos);
  // The statement in main() is on line 4.
  EXPECT_NE(text.find("OpLine %1 4 "), std::string::npos) << text;
}

TEST(ShaderSource, GlslDefinesAndIncludes) {
  TempDir dir;
  dir.write("src/inc/common.h", "#include <other.h>\n"
                                "uint helper(uint v) { return v + OTHER; }\n");
  dir.write("sys/other.h", "#define OTHER 5u\n");
  std::string path = dir.write("src/main.comp", R"(#version 450
#include "inc/common.h"
layout(local_size_x = WG) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() {
#if FLAG
  data[gl_GlobalInvocationID.x] = helper(SCALE);
#endif
}
)");
  SourceOptions opts;
  opts.defines = {"WG=32", "SCALE=7u", "FLAG"};
  opts.includeDirs = {dir.path("sys")};
  SpirvBinary binary = unwrap(loadShaderFile(path, opts));
  EXPECT_EQ(errorText(validateSpirv(binary)), "<success>");
  ModuleReflection r = unwrap(reflectModule(binary));
  ASSERT_EQ(r.entryPoints.size(), 1u);
  EXPECT_EQ(r.entryPoints[0].workgroupSize[0], 32u);
  std::string text = disassemble(binary);
  // helper() is called only when the bare FLAG is defined (as 1).
  EXPECT_NE(text.find("OpFunctionCall"), std::string::npos);
  // Both headers are recorded for line info.
  EXPECT_NE(text.find("OpString \"" + dir.path("src/inc/common.h") + "\""),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("OpString \"" + dir.path("sys/other.h") + "\""),
            std::string::npos);
  EXPECT_NE(text.find("OpModuleProcessed \"define-macro WG=32\""),
            std::string::npos);
}

TEST(ShaderSource, GlslExplicitIncludeExtension) {
  TempDir dir;
  dir.write("defs.h", "#define VALUE 3u\n");
  std::string path = dir.write("ext.comp", R"(#version 450
#extension GL_GOOGLE_include_directive : require
#include "defs.h"
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Buf { uint data[]; };
void main() { data[0] = VALUE; }
)");
  SpirvBinary binary = unwrap(loadShaderFile(path, {}));
  EXPECT_EQ(errorText(validateSpirv(binary)), "<success>");
}

TEST(ShaderSource, GlslMissingInclude) {
  TempDir dir;
  std::string path = dir.write("inc.comp", R"(#version 450
#include "missing.h"
layout(local_size_x = 1) in;
void main() {}
)");
  EXPECT_EQ(errorText(loadShaderFile(path, {})),
            "error: " + path + ": GLSL compilation failed:\n" +
                "ERROR: " + path +
                ":2: '#include' : Could not process include directive for "
                "header name: missing.h\n" +
                "ERROR: " + path + ":3: '' : compilation terminated\n" +
                "ERROR: 2 compilation errors.  No code generated.");
}

TEST(ShaderSource, GlslCompileErrorCarriesLineNumbers) {
  TempDir dir;
  std::string path = dir.write("bad.comp", R"(#version 450
layout(local_size_x = 1) in;
void main() {
  float y = undefined_thing;
}
)");
  EXPECT_EQ(errorText(loadShaderFile(path, {})),
            "error: " + path + ": GLSL compilation failed:\n" + "ERROR: " +
                path + ":4: 'undefined_thing' : undeclared identifier\n" +
                "ERROR: " + path + ":4: '' : compilation terminated\n" +
                "ERROR: 2 compilation errors.  No code generated.");
}

TEST(ShaderSource, GlslStagesByExtension) {
  TempDir dir;
  std::string vert = dir.write("v.vert", R"(#version 450
layout(location = 0) in vec4 pos;
void main() { gl_Position = pos; }
)");
  std::string frag = dir.write("f.frag", R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(1.0); }
)");
  std::string glsl = dir.write("c.glsl", SimpleCompute);
  struct Case {
    std::string path;
    spv::ExecutionModel model;
    ShaderStage stage;
  };
  for (const Case &c :
       {Case{vert, spv::ExecutionModelVertex, ShaderStage::Vertex},
        Case{frag, spv::ExecutionModelFragment, ShaderStage::Fragment},
        Case{glsl, spv::ExecutionModelGLCompute, ShaderStage::Compute}}) {
    SpirvBinary binary = unwrap(loadShaderFile(c.path, {}));
    EXPECT_EQ(errorText(validateSpirv(binary)), "<success>") << c.path;
    ModuleReflection r = unwrap(reflectModule(binary));
    ASSERT_EQ(r.entryPoints.size(), 1u) << c.path;
    EXPECT_EQ(r.entryPoints[0].executionModel, c.model) << c.path;
    EXPECT_EQ(r.entryPoints[0].stage, c.stage) << c.path;
  }
}

TEST(ShaderSource, CompilesHlslCompute) {
  TempDir dir;
  std::string path =
      dir.write("k.hlsl", R"(RWStructuredBuffer<float> buf : register(u0);
#ifndef FACTOR
#define FACTOR 1.0
#endif
[numthreads(32, 2, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
  buf[id.x] = buf[id.x] * FACTOR;
}
)");
  SourceOptions opts;
  opts.entry = "CSMain";
  opts.defines = {"FACTOR=2.0"};
  SpirvBinary binary = unwrap(loadShaderFile(path, opts));
  // Validated for the default target, vulkan1.2, despite glslang 12 emitting
  // BufferBlock for HLSL storage buffers.
  EXPECT_EQ(errorText(validateSpirv(binary)), "<success>");
  ModuleReflection r = unwrap(reflectModule(binary));
  ASSERT_EQ(r.entryPoints.size(), 1u);
  EXPECT_EQ(r.entryPoints[0].name, "CSMain");
  EXPECT_EQ(r.entryPoints[0].workgroupSize,
            (std::array<uint32_t, 3>{32, 2, 1}));
  ASSERT_EQ(r.resources.size(), 1u);
  EXPECT_EQ(r.resources[0].kind, ResourceKind::StorageBuffer);
  EXPECT_EQ(r.resources[0].runtimeArrayStride, 4u);
  EXPECT_NE(disassemble(binary).find("OpLine"), std::string::npos);
}

TEST(ShaderSource, HlslMissingEntryPoint) {
  TempDir dir;
  std::string path = dir.write("k.hlsl", R"([numthreads(1, 1, 1)]
void CSMain() {}
)");
  EXPECT_EQ(errorText(loadShaderFile(path, {})),
            "error: " + path +
                ": HLSL compilation failed: entry point 'main' not found");
}

TEST(ShaderSource, BadTargetEnv) {
  SourceOptions opts;
  opts.targetEnv = "vulkan9";
  EXPECT_EQ(errorText(compileGlsl(SimpleCompute, "<inline>",
                                  ShaderStage::Compute, opts)),
            "error: unknown target environment 'vulkan9' (expected "
            "vulkan1.0, vulkan1.1, vulkan1.1spv1.4, vulkan1.2, vulkan1.3, "
            "spv1.0, spv1.1, spv1.2, spv1.3, spv1.4, spv1.5 or spv1.6)");
}

TEST(ShaderSource, GlslTargetEnvSetsVersion) {
  SourceOptions opts;
  opts.targetEnv = "vulkan1.0";
  SpirvBinary v10 = unwrap(
      compileGlsl(SimpleCompute, "<inline>", ShaderStage::Compute, opts));
  EXPECT_EQ(v10.words[1], 0x00010000u);
  EXPECT_EQ(errorText(validateSpirv(v10, "vulkan1.0")), "<success>");
  opts.targetEnv = "vulkan1.3";
  SpirvBinary v13 = unwrap(
      compileGlsl(SimpleCompute, "<inline>", ShaderStage::Compute, opts));
  EXPECT_EQ(v13.words[1], 0x00010600u);
  EXPECT_EQ(errorText(validateSpirv(v13, "vulkan1.3")), "<success>");
}

TEST(ShaderSource, CompilesConcurrently) {
  // Tools compile many shaders at once; glslang's process-wide setup must
  // happen once and parsing must not share state between threads.
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&results, i] {
      SourceOptions opts;
      opts.defines = {"WG=" + std::to_string(8 * (i + 1))};
      llvm::Expected<SpirvBinary> binary =
          compileGlsl("#version 450\nlayout(local_size_x = WG) in;\n"
                      "void main() {}\n",
                      "<inline>", ShaderStage::Compute, opts);
      if (!binary) {
        results[i] = llvm::toString(binary.takeError());
        return;
      }
      llvm::Expected<ModuleReflection> r = reflectModule(*binary);
      results[i] = r ? std::to_string(r->entryPoints[0].workgroupSize[0])
                     : llvm::toString(r.takeError());
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(results, (std::vector<std::string>{"8", "16", "24", "32"}));
}

TEST(ShaderSource, DisassemblyRoundTrips) {
  SpirvBinary binary = compileCompute(SimpleCompute);
  std::string text = disassemble(binary);
  EXPECT_NE(text.find("OpEntryPoint GLCompute %main \"main\""),
            std::string::npos);
  SpirvBinary again = unwrap(assembleSpirv(text, "<inline>", {}));
  EXPECT_EQ(errorText(validateSpirv(again)), "<success>");
}

TEST(ShaderSource, DisassembleRejectsGarbage) {
  SpirvBinary binary;
  binary.name = "junk.spv";
  binary.words = {0x07230203, 0x00010000, 0, 10, 0, 0xffffffff};
  std::string message = errorText(disassembleSpirv(binary));
  EXPECT_EQ(message.rfind("error: junk.spv: cannot disassemble", 0), 0u)
      << message;
}

} // namespace
