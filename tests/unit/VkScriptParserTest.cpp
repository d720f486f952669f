//===- VkScriptParserTest.cpp - VkScript into the script model ------------===//
//
// Scripts written inline and parsed with parseScriptText under the name
// "t.vkscript" (they have no `#!amber` line, so they are VkScript); line
// numbers in the expected messages count from the string's first line.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/VkScriptParser.h"
#include "AmberTestUtil.h"
#include "TestUtil.h"
#include "spvbridge/amber/ScriptParser.h"

#include "llvm/Support/Casting.h"

using namespace spvb::amber;
using spvb::test::commandAt;
using spvb::test::doubles;
using spvb::test::errorText;
using spvb::test::parseScriptOk;

namespace {

Script parseOk(llvm::StringRef text) {
  return parseScriptOk(text, "t.vkscript");
}

std::string parseError(llvm::StringRef text) {
  return errorText(parseScriptText(text, "t.vkscript"));
}

const char *kComputeScript = R"(# VkScript: no #!amber line.
[require]
shaderInt64
VariablePointerFeatures.variablePointers
VK_KHR_storage_buffer_storage_class
VK_KHR_get_physical_device_properties2
fence_timeout 500

[compute shader]
#version 450
void main() {}

[test]
ssbo 0:1 64
ssbo 0:1 subdata vec3 16 1.0 2.0 3.0
ssbo 2 subdata int 0 -1 2
uniform ubo 1:0 float 4 0.5 \
  0.25
uniform uint 8 7 8
compute entrypoint other
compute 2 1 1
tolerance 0.5% 1 2 3
probe ssbo vec3 0:1 16 ~= 1 2 3
probe ssbo int 2 0 == -1 2
)";

TEST(VkScriptParser, ComputeScript) {
  Script script = parseOk(kComputeScript);
  EXPECT_EQ(script.format, ScriptFormat::VkScript);
  EXPECT_EQ(script.deviceFeatures,
            (std::vector<std::string>{
                "shaderInt64", "VariablePointerFeatures.variablePointers"}));
  EXPECT_EQ(script.deviceExtensions,
            std::vector<std::string>{"VK_KHR_storage_buffer_storage_class"});
  EXPECT_EQ(script.instanceExtensions,
            std::vector<std::string>{"VK_KHR_get_physical_device_properties2"});
  EXPECT_EQ(script.fenceTimeoutMs, 500u);

  ASSERT_EQ(script.shaders.size(), 1u);
  EXPECT_EQ(script.shaders[0].name, "vk_shader_0");
  EXPECT_EQ(script.shaders[0].stage, ShaderStage::Compute);
  EXPECT_EQ(script.shaders[0].format, ShaderFormat::Glsl);
  EXPECT_EQ(script.shaders[0].line, 9u);
  EXPECT_EQ(script.shaders[0].source, "#version 450\nvoid main() {}");

  ASSERT_EQ(script.pipelines.size(), 1u);
  const Pipeline &pipeline = script.pipelines[0];
  EXPECT_EQ(pipeline.name, "vk_pipeline");
  EXPECT_TRUE(pipeline.isCompute());
  ASSERT_EQ(pipeline.shaders.size(), 1u);
  EXPECT_EQ(pipeline.shaders[0].shader, "vk_shader_0");
  EXPECT_EQ(pipeline.pushConstantBuffer, "vk_push_constants");
  ASSERT_EQ(pipeline.bindings.size(), 3u);
  EXPECT_EQ(pipeline.findBinding(0, 1)->buffers,
            std::vector<std::string>{"vk_ssbo_0_1"});
  EXPECT_EQ(pipeline.findBinding(0, 2)->kind, DescriptorKind::StorageBuffer);
  EXPECT_EQ(pipeline.findBinding(1, 0)->kind, DescriptorKind::UniformBuffer);
  EXPECT_EQ(pipeline.findBinding(1, 0)->buffers,
            std::vector<std::string>{"vk_ubo_1_0"});
  // No graphics shader, no framebuffer.
  EXPECT_FALSE(script.findBuffer("framebuffer"));

  const Buffer *vec3s = script.findBuffer("vk_ssbo_0_1");
  ASSERT_TRUE(vec3s);
  EXPECT_EQ(vec3s->type.name, "vec3");
  EXPECT_EQ(vec3s->layout, Layout::Std430);
  EXPECT_EQ(vec3s->init, InitKind::None);
  // `ssbo 0:1 64` counts elements of the type the write gives the buffer,
  // as Amber does: 64 vec3s of 16 bytes.
  EXPECT_EQ(vec3s->byteSize(), 1024u);
  EXPECT_EQ(script.findBuffer("vk_ssbo_0_2")->byteSize(), 8u);
  const Buffer *ubo = script.findBuffer("vk_ubo_1_0");
  EXPECT_EQ(ubo->layout, Layout::Std140);
  EXPECT_EQ(ubo->byteSize(), 12u);
  EXPECT_EQ(script.findBuffer("vk_push_constants")->byteSize(), 16u);

  ASSERT_EQ(script.commands.size(), 8u);
  const BufferWriteCommand *write = commandAt<BufferWriteCommand>(script, 0);
  ASSERT_TRUE(write);
  EXPECT_EQ(write->line, 15u);
  EXPECT_EQ(write->buffer, "vk_ssbo_0_1");
  EXPECT_EQ(write->offset, 16u);
  EXPECT_EQ(write->type.name, "vec3");
  EXPECT_EQ(doubles(write->values), (std::vector<double>{1, 2, 3}));
  const BufferWriteCommand *ints = commandAt<BufferWriteCommand>(script, 1);
  ASSERT_TRUE(ints);
  EXPECT_EQ(ints->values,
            (std::vector<Value>{Value::fromInt(-1), Value::fromInt(2)}));
  const BufferWriteCommand *uniform = commandAt<BufferWriteCommand>(script, 2);
  ASSERT_TRUE(uniform);
  EXPECT_EQ(uniform->layout, Layout::Std140);
  EXPECT_EQ(uniform->offset, 4u);
  EXPECT_EQ(doubles(uniform->values), (std::vector<double>{0.5, 0.25}));
  const BufferWriteCommand *push = commandAt<BufferWriteCommand>(script, 3);
  ASSERT_TRUE(push);
  EXPECT_EQ(push->buffer, "vk_push_constants");
  EXPECT_EQ(push->values,
            (std::vector<Value>{Value::fromUint(7), Value::fromUint(8)}));

  const EntryPointCommand *entry = commandAt<EntryPointCommand>(script, 4);
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->stage, ShaderStage::Compute);
  EXPECT_EQ(entry->entryPoint, "other");
  const RunCommand *run = commandAt<RunCommand>(script, 5);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->pipeline, "vk_pipeline");
  EXPECT_EQ(run->groups, (std::array<uint32_t, 3>{2, 1, 1}));
  EXPECT_EQ(run->line, 21u);

  const ExpectCommand *fuzzy = commandAt<ExpectCommand>(script, 6);
  ASSERT_TRUE(fuzzy);
  EXPECT_EQ(fuzzy->line, 23u);
  EXPECT_EQ(fuzzy->buffer, "vk_ssbo_0_1");
  EXPECT_EQ(fuzzy->offset, 16u);
  EXPECT_EQ(fuzzy->type.name, "vec3");
  EXPECT_EQ(fuzzy->layout, Layout::Std430);
  EXPECT_EQ(fuzzy->comparator, Comparator::FuzzyEqual);
  EXPECT_EQ(fuzzy->tolerances,
            (std::vector<Tolerance>{
                {0.5, true}, {1, false}, {2, false}, {3, false}}));
  EXPECT_EQ(doubles(fuzzy->values), (std::vector<double>{1, 2, 3}));
  const ExpectCommand *exact = commandAt<ExpectCommand>(script, 7);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->comparator, Comparator::Equal);
  EXPECT_TRUE(exact->tolerances.empty());
  EXPECT_EQ(exact->values,
            (std::vector<Value>{Value::fromInt(-1), Value::fromInt(2)}));
}

const char *kGraphicsScript = R"([require]
fbsize 64 32
framebuffer R32G32B32A32_SFLOAT
depthstencil D32_SFLOAT_S8_UINT

[vertex shader passthrough]
[fragment shader spirv]
OpCapability Shader

[vertex data]
0/R32G32_SFLOAT 1/R8G8B8A8_UNORM
-1 -1   255 0 0 255
1 1     0 255 0 255

[indices]
0 1 2

[test]
clear color 1 0.5 0 1
clear
depthTestEnable true
draw rect -1 -1 2 2
draw arrays indexed TRIANGLE_LIST 0 3
probe all rgba 1 0.5 0 1
relative probe rect rgb (0.0, 0.5, 0.5, 0.5) (1, 0, 0)
probe rgba 3 4 0.25 0.5 0.75 1
)";

TEST(VkScriptParser, GraphicsScriptIsRecorded) {
  Script script = parseOk(kGraphicsScript);
  const Pipeline &pipeline = script.pipelines.at(0);
  EXPECT_FALSE(pipeline.isCompute());
  EXPECT_EQ(pipeline.framebufferWidth, 64u);
  EXPECT_EQ(pipeline.framebufferHeight, 32u);
  ASSERT_EQ(script.shaders.size(), 2u);
  EXPECT_TRUE(script.shaders[0].passthrough);
  EXPECT_EQ(script.shaders[0].stage, ShaderStage::Vertex);
  EXPECT_EQ(script.shaders[1].format, ShaderFormat::SpirvAsm);
  EXPECT_EQ(script.shaders[1].source, "OpCapability Shader");

  const Buffer *framebuffer = script.findBuffer("framebuffer");
  ASSERT_TRUE(framebuffer);
  EXPECT_EQ(framebuffer->type.name, "R32G32B32A32_SFLOAT");
  EXPECT_EQ(framebuffer->elementCount, 64u * 32u);
  ASSERT_EQ(pipeline.colorAttachments.size(), 1u);
  EXPECT_EQ(pipeline.colorAttachments[0].buffer, "framebuffer");
  EXPECT_EQ(pipeline.depthStencilBuffer, "depthstencil");
  EXPECT_EQ(script.findBuffer("depthstencil")->type.name, "D32_SFLOAT_S8_UINT");

  const Buffer *positions = script.findBuffer("vk_vertices_0");
  ASSERT_TRUE(positions);
  EXPECT_EQ(doubles(positions->values), (std::vector<double>{-1, -1, 1, 1}));
  EXPECT_EQ(positions->elementCount, 2u);
  const Buffer *colors = script.findBuffer("vk_vertices_1");
  ASSERT_TRUE(colors);
  EXPECT_EQ(colors->values[1], Value::fromUint(0));
  EXPECT_EQ(colors->values[5], Value::fromUint(255));
  ASSERT_EQ(pipeline.vertexData.size(), 2u);
  EXPECT_EQ(pipeline.vertexData[1].location, 1u);
  EXPECT_EQ(pipeline.vertexData[1].format, "R8G8B8A8_UNORM");
  EXPECT_EQ(pipeline.indexBuffer, "vk_indices");
  EXPECT_EQ(script.findBuffer("vk_indices")->values,
            (std::vector<Value>{Value::fromUint(0), Value::fromUint(1),
                                Value::fromUint(2)}));

  ASSERT_EQ(script.commands.size(), 8u);
  const ClearCommand *clearColor = commandAt<ClearCommand>(script, 0);
  ASSERT_TRUE(clearColor);
  EXPECT_EQ(clearColor->target, ClearCommand::Target::Color);
  EXPECT_EQ(clearColor->values, (std::array<double, 4>{1, 0.5, 0, 1}));
  EXPECT_EQ(commandAt<ClearCommand>(script, 1)->target,
            ClearCommand::Target::Attachments);
  EXPECT_EQ(commandAt<GraphicsStateCommand>(script, 2)->text,
            "depthTestEnable true");
  const DrawCommand *rect = commandAt<DrawCommand>(script, 3);
  ASSERT_TRUE(rect);
  EXPECT_EQ(rect->x, -1.0f);
  EXPECT_EQ(rect->width, 2.0f);
  const DrawCommand *arrays = commandAt<DrawCommand>(script, 4);
  ASSERT_TRUE(arrays);
  EXPECT_TRUE(arrays->indexed);
  EXPECT_EQ(arrays->topology, "TRIANGLE_LIST");
  EXPECT_EQ(arrays->vertexCount, 3u);

  const ExpectRectCommand *all = commandAt<ExpectRectCommand>(script, 5);
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->wholeImage);
  EXPECT_TRUE(all->hasAlpha);
  EXPECT_EQ(all->buffer, "framebuffer");
  EXPECT_EQ(all->color, (std::array<double, 4>{1, 0.5, 0, 1}));
  const ExpectRectCommand *relative = commandAt<ExpectRectCommand>(script, 6);
  ASSERT_TRUE(relative);
  EXPECT_TRUE(relative->relative);
  EXPECT_FALSE(relative->hasAlpha);
  EXPECT_EQ(relative->y, 0.5f);
  EXPECT_EQ(relative->width, 0.5f);
  EXPECT_EQ(relative->color, (std::array<double, 4>{1, 0, 0, 1}));
  const ExpectRectCommand *point = commandAt<ExpectRectCommand>(script, 7);
  ASSERT_TRUE(point);
  EXPECT_EQ(point->line, 26u);
  EXPECT_EQ(point->x, 3.0f);
  EXPECT_EQ(point->width, 1.0f);
  EXPECT_EQ(point->color, (std::array<double, 4>{0.25, 0.5, 0.75, 1}));
}

TEST(VkScriptParser, TypeNames) {
  auto check = [](const char *name, ScalarType scalar, uint32_t rows,
                  uint32_t columns) {
    std::optional<Type> type = parseVkScriptTypeName(name);
    ASSERT_TRUE(type) << name;
    EXPECT_EQ(type->scalar, scalar) << name;
    EXPECT_EQ(type->rows, rows) << name;
    EXPECT_EQ(type->columns, columns) << name;
    EXPECT_EQ(type->name, name);
  };
  check("int", ScalarType::sint(32), 1, 1);
  check("uint16_t", ScalarType::uint(16), 1, 1);
  check("vec", ScalarType::sfloat(32), 4, 1);
  check("dvec2", ScalarType::sfloat(64), 2, 1);
  check("i8vec3", ScalarType::sint(8), 3, 1);
  check("u64vec4", ScalarType::uint(64), 4, 1);
  check("mat2x3", ScalarType::sfloat(32), 3, 2);
  check("dmat3", ScalarType::sfloat(64), 3, 3);
  // Amber reads these by their letters: the first picks int, uint, double
  // or float, the next digits the width; "mat" alone is 1x1.
  check("f16vec2", ScalarType::sfloat(16), 2, 1);
  check("bvec2", ScalarType::sfloat(32), 2, 1);
  check("i32vec2", ScalarType::sint(32), 2, 1);
  check("imat2", ScalarType::sfloat(32), 2, 2);
  check("mat", ScalarType::sfloat(32), 1, 1);
  for (const char *bad : {"vec5", "vec22", "mat5", "matrix", "float32"})
    EXPECT_FALSE(parseVkScriptTypeName(bad)) << bad;
}

TEST(VkScriptParser, TestSectionsAsAmberReadsThem) {
  // Push constants of two types (Amber makes each `uniform` write a buffer
  // of its own), `relative probe ssbo` as a plain probe, and a second [test]
  // section replacing the first one's commands.
  Script script = parseOk(R"([compute shader]
void main() {}
[test]
compute 9 9 9
[test]
uniform float 0 1.0
uniform int 4 2
ssbo 0 subdata int 0 7
compute 1 1 1
relative probe ssbo int 0 0 == 7
)");
  ASSERT_EQ(script.commands.size(), 5u);
  const auto *asFloat = commandAt<BufferWriteCommand>(script, 0);
  const auto *asInt = commandAt<BufferWriteCommand>(script, 1);
  ASSERT_TRUE(asFloat && asInt);
  EXPECT_EQ(asFloat->type.name, "float");
  EXPECT_EQ(asInt->type.name, "int");
  EXPECT_EQ(script.findBuffer("vk_push_constants")->byteSize(), 8u);
  const auto *run = commandAt<RunCommand>(script, 3);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->groups, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_TRUE(commandAt<ExpectCommand>(script, 4));
}

TEST(VkScriptParser, EveryPrefixParsesOrFailsCleanly) {
  for (llvm::StringRef full : {kComputeScript, kGraphicsScript}) {
    for (size_t length = 0; length <= full.size(); ++length) {
      llvm::Expected<Script> script =
          parseScriptText(full.take_front(length), "t.vkscript");
      if (!script) {
        std::string message = llvm::toString(script.takeError());
        EXPECT_TRUE(llvm::StringRef(message).starts_with("error: t.vkscript:"))
            << message;
      }
    }
  }
}

TEST(VkScriptParserError, Sections) {
  EXPECT_EQ(parseError("[fragment shaderz]\n"),
            "error: t.vkscript:1: unknown section '[fragment shaderz]'");
  EXPECT_EQ(parseError("# comment\nfoo\n[test]\n"),
            "error: t.vkscript:2: expected a section such as [test], got "
            "'foo'");
  EXPECT_EQ(parseError("[test\n"),
            "error: t.vkscript:1: missing ] in section header '[test'");
  EXPECT_EQ(parseError("[compute shader]\nvoid main() {}\n"
                       "[vertex shader passthrough]\n"),
            "error: t.vkscript:1: a VkScript file cannot mix compute and "
            "graphics shaders: [compute shader]");
  EXPECT_EQ(parseError("[require]\nfbsize 10\n"),
            "error: t.vkscript:2: expected a positive integer for fbsize in "
            "[require], got end of line");
  EXPECT_EQ(parseError("[require]\nnot-a-feature\n"),
            "error: t.vkscript:2: unknown feature or extension "
            "'not-a-feature' in [require]");
}

TEST(VkScriptParserError, TestCommands) {
  EXPECT_EQ(parseError("[test]\nfrobnicate 1\n"),
            "error: t.vkscript:2: unknown command 'frobnicate' in [test]");
  EXPECT_EQ(parseError("[compute shader]\nvoid main() {}\n[test]\n"
                       "probe ssbo int 0:3 0 == 1\n"),
            "error: t.vkscript:4: no buffer at binding 0:3 in probe ssbo");
  EXPECT_EQ(parseError("[test]\nssbo 0 subdata float 0 1.0 abc\n"),
            "error: t.vkscript:2: malformed number 'abc' in ssbo subdata");
  EXPECT_EQ(parseError("[test]\nssbo 0 subdata int 0 1.5\n"),
            "error: t.vkscript:2: '1.5' is not an integer (int32) in ssbo "
            "subdata");
  EXPECT_EQ(parseError("[test]\nssbo 0 subdata vec3 4 1 2 3\n"),
            "error: t.vkscript:2: offset 4 in ssbo subdata is not a multiple "
            "of 16 (the size of vec3)");
  EXPECT_EQ(parseError("[test]\nssbo 0 subdata int 0 1\n"
                       "ssbo 0 subdata float 4 1\n"),
            "error: t.vkscript:3: ssbo subdata writes float to 'vk_ssbo_0_0', "
            "which holds int");
  EXPECT_EQ(parseError("[test]\nssbo 0 subdata vec2 0 1 2 3\n"),
            "error: t.vkscript:2: expected a multiple of 2 values for vec2 in "
            "ssbo subdata, got 3");
  EXPECT_EQ(parseError("[test]\nssbo 0 subdata vec5 0 1\n"),
            "error: t.vkscript:2: unknown type 'vec5' in ssbo subdata");
  EXPECT_EQ(parseError("[test]\nssbo a:b 4\n"),
            "error: t.vkscript:2: expected a binding (B or S:B) in ssbo, got "
            "'a:b'");
  EXPECT_EQ(parseError("[test]\nuniform ubo 0 float 0 1\nssbo 0 4\n"),
            "error: t.vkscript:3: ssbo uses binding 0:0, which is a uniform "
            "buffer");
  EXPECT_EQ(parseError("[compute shader]\nvoid main() {}\n[test]\n"
                       "ssbo 0 subdata int 0 1\nprobe ssbo float 0 0 == 1\n"),
            "error: t.vkscript:5: probe ssbo reads float from 'vk_ssbo_0_0', "
            "which holds int");
  EXPECT_EQ(
      parseError("[test]\nssbo 0 1073741824\nssbo 0 subdata vec4 0 1 2 3 "
                 "4\n"),
      "error: t.vkscript:2: buffer 'vk_ssbo_0_0' needs 17179869184 bytes; "
      "the limit is 1073741824");
  EXPECT_EQ(parseError("[test]\ntolerance 1 2\n"),
            "error: t.vkscript:2: tolerance takes 1 or 4 values, not 2");
  EXPECT_EQ(parseError("[vertex shader passthrough]\n[test]\ncompute 1 1 1\n"),
            "error: t.vkscript:3: compute needs a [compute shader]");
  EXPECT_EQ(parseError("[compute shader]\nvoid main() {}\n[test]\n"
                       "compute 1 1\n"),
            "error: t.vkscript:4: missing workgroup count in compute");
  EXPECT_EQ(parseError("[vertex shader passthrough]\n[test]\n"
                       "probe rect rgba (0, 0, 1, 1 (1, 1, 1, 1)\n"),
            "error: t.vkscript:3: missing ) in probe");
}

} // namespace
