//===- GraphicsSettingsTest.cpp - Amber pipeline state as runtime state ---===//
//
// Scripts are parsed with the real parsers, then their recorded settings
// are applied to a runtime::GraphicsState and compared field by field with
// hand-written expectations.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/GraphicsSettings.h"
#include "AmberTestUtil.h"
#include "TestUtil.h"
#include "spvbridge/amber/ScriptParser.h"

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <string>

using namespace spvb::amber;
using spvb::runtime::BlendState;
using spvb::runtime::GraphicsState;
using spvb::runtime::StencilState;
using spvb::test::errorText;
using spvb::test::parseScriptOk;

namespace {

/// The line of \p text on which \p needle first appears (1-based).
unsigned lineOf(llvm::StringRef text, llvm::StringRef needle) {
  size_t at = text.find(needle);
  EXPECT_NE(at, llvm::StringRef::npos) << needle.str();
  return 1 + text.take_front(at).count('\n');
}

/// A graphics pipeline `g` whose body ends with \p settings.
std::string amberScript(llvm::StringRef settings) {
  return (R"(#!amber
SHADER vertex vert PASSTHROUGH
SHADER fragment frag GLSL
void main() {}
END
BUFFER color0 FORMAT B8G8R8A8_UNORM
BUFFER color2 FORMAT B8G8R8A8_UNORM
PIPELINE graphics g
  ATTACH vert
  ATTACH frag
  BIND BUFFER color0 AS color LOCATION 0
  BIND BUFFER color2 AS color LOCATION 2
)" + settings +
          "END\n")
      .str();
}

/// \p name's settings applied to Amber's default state.
GraphicsState applyOk(const Script &script, llvm::StringRef name = "g") {
  GraphicsState state = defaultGraphicsState();
  const Pipeline *pipeline = script.findPipeline(name);
  EXPECT_TRUE(pipeline);
  if (pipeline) {
    EXPECT_EQ(errorText(applyGraphicsSettings(script, *pipeline, state)),
              "<success>");
  }
  return state;
}

std::string applyError(llvm::StringRef text) {
  Script script = parseScriptOk(text, "t.amber");
  GraphicsState state = defaultGraphicsState();
  return errorText(
      applyGraphicsSettings(script, script.pipelines.at(0), state));
}

void expectStencil(const StencilState &actual, const StencilState &expected) {
  EXPECT_EQ(actual.failOp, expected.failOp);
  EXPECT_EQ(actual.passOp, expected.passOp);
  EXPECT_EQ(actual.depthFailOp, expected.depthFailOp);
  EXPECT_EQ(actual.compareOp, expected.compareOp);
  EXPECT_EQ(actual.compareMask, expected.compareMask);
  EXPECT_EQ(actual.writeMask, expected.writeMask);
  EXPECT_EQ(actual.reference, expected.reference);
}

void expectBlend(const BlendState &actual, const BlendState &expected) {
  EXPECT_EQ(actual.enable, expected.enable);
  EXPECT_EQ(actual.srcColor, expected.srcColor);
  EXPECT_EQ(actual.dstColor, expected.dstColor);
  EXPECT_EQ(actual.colorOp, expected.colorOp);
  EXPECT_EQ(actual.srcAlpha, expected.srcAlpha);
  EXPECT_EQ(actual.dstAlpha, expected.dstAlpha);
  EXPECT_EQ(actual.alphaOp, expected.alphaOp);
  EXPECT_EQ(actual.writeMask, expected.writeMask);
}

TEST(GraphicsSettings, AmberDefaults) {
  GraphicsState state = defaultGraphicsState();
  EXPECT_EQ(state.depthCompare, VK_COMPARE_OP_ALWAYS);
  EXPECT_EQ(state.maxDepthBounds, 0.0f);
  EXPECT_EQ(state.front.compareMask, 0xffffffffu);
  EXPECT_EQ(state.back.writeMask, 0xffffffffu);
  EXPECT_FALSE(state.depthTest);
  EXPECT_TRUE(state.blend.empty());

  // A pipeline without settings keeps them.
  Script script = parseScriptOk(amberScript(""), "t.amber");
  GraphicsState applied = applyOk(script);
  EXPECT_EQ(applied.depthCompare, VK_COMPARE_OP_ALWAYS);
  EXPECT_TRUE(applied.blend.empty());
  EXPECT_FALSE(applied.viewport);
}

TEST(GraphicsSettings, AmberScriptSettings) {
  Script script = parseScriptOk(amberScript(R"(
  DEPTH
    TEST on
    WRITE on
    COMPARE_OP less_or_equal
    CLAMP on
    BOUNDS min 0.25 max 0.75
    BIAS constant 1 clamp 2.5 slope -0.5
  END
  STENCIL front
    TEST on
    FAIL_OP replace
    PASS_OP increment_and_wrap
    DEPTH_FAIL_OP invert
    COMPARE_OP greater
    COMPARE_MASK 0x0f
    WRITE_MASK 3
    REFERENCE 32
  END
  STENCIL back
    FAIL_OP zero
    COMPARE_OP never
  END
  BLEND
    SRC_COLOR_FACTOR src_alpha
    DST_COLOR_FACTOR one_minus_src_alpha
    COLOR_OP subtract
    SRC_ALPHA_FACTOR costant_alpha
    DST_ALPHA_FACTOR one_minus_src1_alpha
    ALPHA_OP reverse_substract
  END
  VIEWPORT 10.0 -5 SIZE 100.0 50 MIN_DEPTH 0.3 MAX_DEPTH 0.9
  POLYGON_MODE line
  LINE_WIDTH 2.5
  PATCH_CONTROL_POINTS 4
)"),
                                "t.amber");
  GraphicsState state = applyOk(script);

  GraphicsState expected = defaultGraphicsState();
  expected.depthTest = true;
  expected.depthWrite = true;
  expected.depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL;
  expected.depthClamp = true;
  expected.minDepthBounds = 0.25f;
  expected.maxDepthBounds = 0.75f;
  expected.depthBias = true;
  expected.depthBiasConstant = 1;
  expected.depthBiasClamp = 2.5f;
  expected.depthBiasSlope = -0.5f;
  expected.stencilTest = true;
  expected.front.failOp = VK_STENCIL_OP_REPLACE;
  expected.front.passOp = VK_STENCIL_OP_INCREMENT_AND_WRAP;
  expected.front.depthFailOp = VK_STENCIL_OP_INVERT;
  expected.front.compareOp = VK_COMPARE_OP_GREATER;
  expected.front.compareMask = 0x0f;
  expected.front.writeMask = 3;
  expected.front.reference = 32;
  expected.back.failOp = VK_STENCIL_OP_ZERO;
  expected.back.compareOp = VK_COMPARE_OP_NEVER;
  BlendState blend;
  blend.enable = true;
  blend.srcColor = VK_BLEND_FACTOR_SRC_ALPHA;
  blend.dstColor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  blend.colorOp = VK_BLEND_OP_SUBTRACT;
  blend.srcAlpha = VK_BLEND_FACTOR_CONSTANT_ALPHA;
  blend.dstAlpha = VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
  blend.alphaOp = VK_BLEND_OP_REVERSE_SUBTRACT;

  EXPECT_EQ(state.depthTest, expected.depthTest);
  EXPECT_EQ(state.depthWrite, expected.depthWrite);
  EXPECT_EQ(state.depthCompare, expected.depthCompare);
  EXPECT_EQ(state.depthClamp, expected.depthClamp);
  // BOUNDS sets the bounds only, as in Amber.
  EXPECT_FALSE(state.depthBoundsTest);
  EXPECT_EQ(state.minDepthBounds, expected.minDepthBounds);
  EXPECT_EQ(state.maxDepthBounds, expected.maxDepthBounds);
  EXPECT_EQ(state.depthBias, expected.depthBias);
  EXPECT_EQ(state.depthBiasConstant, expected.depthBiasConstant);
  EXPECT_EQ(state.depthBiasClamp, expected.depthBiasClamp);
  EXPECT_EQ(state.depthBiasSlope, expected.depthBiasSlope);
  EXPECT_EQ(state.stencilTest, expected.stencilTest);
  expectStencil(state.front, expected.front);
  expectStencil(state.back, expected.back);
  // Locations 0 and 2, and the unused 1 between them: one blend state.
  ASSERT_EQ(state.blend.size(), 3u);
  for (const BlendState &actual : state.blend)
    expectBlend(actual, blend);
  ASSERT_TRUE(state.viewport);
  EXPECT_EQ(state.viewport->x, 10.0f);
  EXPECT_EQ(state.viewport->y, -5.0f);
  EXPECT_EQ(state.viewport->width, 100.0f);
  EXPECT_EQ(state.viewport->height, 50.0f);
  EXPECT_EQ(state.viewport->minDepth, 0.3f);
  EXPECT_EQ(state.viewport->maxDepth, 0.9f);
  EXPECT_EQ(state.polygonMode, VK_POLYGON_MODE_LINE);
  EXPECT_EQ(state.lineWidth, 2.5f);
  // Untouched.
  EXPECT_EQ(state.cullMode, VkCullModeFlags(VK_CULL_MODE_NONE));
  EXPECT_EQ(state.frontFace, VK_FRONT_FACE_COUNTER_CLOCKWISE);
  EXPECT_EQ(state.topology, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
}

TEST(GraphicsSettings, FrontAndBackAndOptionsOnTheBlockLine) {
  // Amber reads a block as words up to END, so options may share the
  // block's line; a later block changes only what it names.
  Script script = parseScriptOk(amberScript(R"(
  STENCIL front_and_back TEST on
    FAIL_OP decrement_and_clamp PASS_OP keep
    REFERENCE 7
  END
  DEPTH TEST on
  END
  VIEWPORT 1 2 SIZE 3 4
  DEPTH
    TEST off
  END
)"),
                                "t.amber");
  GraphicsState state = applyOk(script);
  StencilState face = defaultGraphicsState().front;
  face.failOp = VK_STENCIL_OP_DECREMENT_AND_CLAMP;
  face.reference = 7;
  EXPECT_TRUE(state.stencilTest);
  expectStencil(state.front, face);
  expectStencil(state.back, face);
  EXPECT_FALSE(state.depthTest);
  ASSERT_TRUE(state.viewport);
  EXPECT_EQ(state.viewport->minDepth, 0.0f);
  EXPECT_EQ(state.viewport->maxDepth, 1.0f);
}

TEST(GraphicsSettings, DerivedPipelineStartsFromItsParent) {
  std::string text = amberScript(R"(
  DEPTH
    TEST on
    COMPARE_OP less
  END
  POLYGON_MODE point
)") + R"(DERIVE_PIPELINE child FROM g
  DEPTH
    COMPARE_OP greater_or_equal
  END
  BLEND
    ALPHA_OP max
  END
END
)";
  Script script = parseScriptOk(text, "t.amber");
  GraphicsState parent = applyOk(script, "g");
  EXPECT_EQ(parent.depthCompare, VK_COMPARE_OP_LESS);
  EXPECT_TRUE(parent.blend.empty());

  GraphicsState child = applyOk(script, "child");
  EXPECT_TRUE(child.depthTest);
  EXPECT_EQ(child.depthCompare, VK_COMPARE_OP_GREATER_OR_EQUAL);
  EXPECT_EQ(child.polygonMode, VK_POLYGON_MODE_POINT);
  ASSERT_EQ(child.blend.size(), 3u);
  BlendState blend;
  blend.enable = true;
  blend.alphaOp = VK_BLEND_OP_MAX;
  expectBlend(child.blend[2], blend);
}

TEST(GraphicsSettings, AmberScriptErrors) {
  std::string text = amberScript(R"(
  DEPTH
    COMPARE_OP lesser
  END
)");
  EXPECT_EQ(
      applyError(text),
      "error: t.amber:" + std::to_string(lineOf(text, "COMPARE_OP lesser")) +
          ": unknown compare op 'lesser' in DEPTH COMPARE_OP");

  text = amberScript(R"(
  DEPTH
    TEST on
    FOO on
  END
)");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "FOO")) +
                ": unexpected 'FOO' in DEPTH");

  text = amberScript(R"(
  DEPTH
    BIAS constant 1 clamp x2 slope 0
  END
)");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "BIAS")) +
                ": malformed number 'x2' in DEPTH BIAS");

  text = amberScript(R"(
  DEPTH
    BIAS constant 1 slope 0
  END
)");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "BIAS")) +
                ": expected clamp in DEPTH BIAS, got 'slope'");

  text = amberScript("  DEPTH\n    TEST maybe\n  END\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "maybe")) +
                ": expected on or off in DEPTH TEST, got 'maybe'");

  text = amberScript("  STENCIL sideways\n  END\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "sideways")) +
                ": expected front, back or front_and_back in STENCIL, got "
                "'sideways'");

  text = amberScript("  STENCIL back\n    WRITE_MASK 1.5\n  END\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "WRITE_MASK")) +
                ": '1.5' is not an integer in STENCIL WRITE_MASK");

  text = amberScript("  STENCIL back\n    PASS_OP increment\n  END\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "PASS_OP")) +
                ": unknown stencil op 'increment' in STENCIL back PASS_OP");

  text = amberScript("  BLEND\n    COLOR_OP plus_minus\n  END\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "COLOR_OP")) +
                ": unknown blend op 'plus_minus' in BLEND COLOR_OP");

  text = amberScript("  BLEND\n    COLOR_FACTOR one\n  END\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "COLOR_FACTOR")) +
                ": unexpected 'COLOR_FACTOR' in BLEND");

  text = amberScript("  VIEWPORT 0 0 SIZE 10 10 DEPTH 1\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "VIEWPORT")) +
                ": unexpected 'DEPTH' in VIEWPORT");

  text = amberScript("  VIEWPORT 0 0 10 10\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "VIEWPORT")) +
                ": expected SIZE in VIEWPORT, got '10'");

  text = amberScript("  POLYGON_MODE wire\n");
  EXPECT_EQ(applyError(text),
            "error: t.amber:" + std::to_string(lineOf(text, "POLYGON_MODE")) +
                ": unknown polygon mode 'wire' in POLYGON_MODE");
}

/// A VkScript graphics script whose [test] section is \p test.
std::string vkScript(llvm::StringRef test) {
  return (R"([require]
fbsize 64 32

[vertex shader passthrough]
[fragment shader spirv]
OpCapability Shader

[test]
)" + test)
      .str();
}

/// Every GraphicsStateCommand of \p script applied in order to Amber's
/// default state.
llvm::Error applyVkScript(const Script &script, GraphicsState &state) {
  for (const auto &command : script.commands)
    if (const auto *set = llvm::dyn_cast<GraphicsStateCommand>(command.get()))
      if (llvm::Error err = applyVkScriptState(script, *set, state))
        return err;
  return llvm::Error::success();
}

std::string vkError(llvm::StringRef text) {
  Script script = parseScriptOk(text, "t.vkscript");
  GraphicsState state = defaultGraphicsState();
  return errorText(applyVkScript(script, state));
}

TEST(GraphicsSettings, VkScriptState) {
  Script script = parseScriptOk(vkScript(R"(
primitiveRestartEnable true
depthClampEnable TRUE
rasterizerDiscardEnable false
depthBiasEnable true
depthBiasConstantFactor 1.5
depthBiasClamp 0.25
depthBiasSlopeFactor -2
lineWidth 3
logicOpEnable false
logicOp VK_LOGIC_OP_XOR
topology VK_PRIMITIVE_TOPOLOGY_LINE_STRIP
polygonMode 1
cullMode VK_CULL_MODE_FRONT_BIT | VK_CULL_MODE_BACK_BIT
frontFace VK_FRONT_FACE_CLOCKWISE
depthTestEnable true
depthWriteEnable true
depthCompareOp VK_COMPARE_OP_LESS
depthBoundsTestEnable true
minDepthBounds 0.1
maxDepthBounds 0.9
stencilTestEnable true
front.failOp VK_STENCIL_OP_REPLACE
front.passOp 2
front.depthFailOp VK_STENCIL_OP_INCREMENT_AND_CLAMP
front.compareOp VK_COMPARE_OP_EQUAL
front.compareMask 0xf0
front.writeMask 255
front.reference 5
back.failOp VK_STENCIL_OP_ZERO
back.passOp VK_STENCIL_OP_INVERT
back.depthFailOp VK_STENCIL_OP_DECREMENT_AND_WRAP
back.compareOp 6
back.compareMask 1
back.writeMask 2
back.reference 3
blendEnable true
srcColorBlendFactor VK_BLEND_FACTOR_SRC_ALPHA
dstColorBlendFactor VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
colorBlendOp VK_BLEND_OP_MIN
srcAlphaBlendFactor 1
dstAlphaBlendFactor VK_BLEND_FACTOR_ZERO
alphaBlendOp VK_BLEND_OP_MULTIPLY_EXT
colorWriteMask VK_COLOR_COMPONENT_R_BIT|VK_COLOR_COMPONENT_A_BIT | 4
patch parameter vertices 3
draw rect -1 -1 2 2
)"),
                                "t.vkscript");
  GraphicsState state = defaultGraphicsState();
  ASSERT_EQ(errorText(applyVkScript(script, state)), "<success>");

  EXPECT_TRUE(state.primitiveRestart);
  EXPECT_FALSE(state.logicOpEnable);
  EXPECT_EQ(state.logicOp, VK_LOGIC_OP_XOR);
  EXPECT_TRUE(state.depthClamp);
  EXPECT_FALSE(state.rasterizerDiscard);
  EXPECT_TRUE(state.depthBias);
  EXPECT_EQ(state.depthBiasConstant, 1.5f);
  EXPECT_EQ(state.depthBiasClamp, 0.25f);
  EXPECT_EQ(state.depthBiasSlope, -2.0f);
  EXPECT_EQ(state.lineWidth, 3.0f);
  EXPECT_EQ(state.topology, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
  EXPECT_EQ(state.polygonMode, VK_POLYGON_MODE_LINE);
  EXPECT_EQ(state.cullMode, VkCullModeFlags(VK_CULL_MODE_FRONT_AND_BACK));
  EXPECT_EQ(state.frontFace, VK_FRONT_FACE_CLOCKWISE);
  EXPECT_TRUE(state.depthTest);
  EXPECT_TRUE(state.depthWrite);
  EXPECT_EQ(state.depthCompare, VK_COMPARE_OP_LESS);
  EXPECT_TRUE(state.depthBoundsTest);
  EXPECT_EQ(state.minDepthBounds, 0.1f);
  EXPECT_EQ(state.maxDepthBounds, 0.9f);
  EXPECT_TRUE(state.stencilTest);
  expectStencil(state.front,
                StencilState{VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_REPLACE,
                             VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                             VK_COMPARE_OP_EQUAL, 0xf0, 255, 5});
  expectStencil(state.back,
                StencilState{VK_STENCIL_OP_ZERO, VK_STENCIL_OP_INVERT,
                             VK_STENCIL_OP_DECREMENT_AND_WRAP,
                             VK_COMPARE_OP_GREATER_OR_EQUAL, 1, 2, 3});
  ASSERT_EQ(state.blend.size(), 1u);
  BlendState blend;
  blend.enable = true;
  blend.srcColor = VK_BLEND_FACTOR_SRC_ALPHA;
  blend.dstColor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  blend.colorOp = VK_BLEND_OP_MIN;
  blend.srcAlpha = VK_BLEND_FACTOR_ONE;
  blend.dstAlpha = VK_BLEND_FACTOR_ZERO;
  blend.alphaOp = VK_BLEND_OP_MULTIPLY_EXT;
  blend.writeMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT |
                    VK_COLOR_COMPONENT_A_BIT;
  expectBlend(state.blend[0], blend);
}

TEST(GraphicsSettings, VkScriptErrors) {
  std::string text = vkScript("depthCompareOp VK_COMPARE_OP_LESSER\n");
  EXPECT_EQ(vkError(text), "error: t.vkscript:" +
                               std::to_string(lineOf(text, "depthCompareOp")) +
                               ": unknown compare op 'VK_COMPARE_OP_LESSER' in "
                               "depthCompareOp");

  // AmberScript's names are not VkScript's.
  text = vkScript("front.compareOp less\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "front.")) +
                ": unknown compare op 'less' in front.compareOp");

  text = vkScript("depthCompareOp 8\n");
  EXPECT_EQ(vkError(text), "error: t.vkscript:" +
                               std::to_string(lineOf(text, "depthCompareOp")) +
                               ": unknown compare op '8' in depthCompareOp");

  text = vkScript("depthTestEnable yes\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "depth")) +
                ": expected true or false in depthTestEnable, got 'yes'");

  text = vkScript("lineWidth 1.0.0\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "lineWidth")) +
                ": malformed number '1.0.0' in lineWidth");

  text = vkScript("front.reference -1\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "front")) +
                ": '-1' is out of range in front.reference");

  text =
      vkScript("frontFace VK_FRONT_FACE_CLOCKWISE VK_FRONT_FACE_CLOCKWISE\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "frontFace")) +
                ": unexpected 'VK_FRONT_FACE_CLOCKWISE' after frontFace");

  text = vkScript("colorWriteMask VK_COLOR_COMPONENT_R_BIT | RED\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "colorWrite")) +
                ": unknown colour component 'RED' in colorWriteMask");

  text = vkScript("cullMode 4\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "cullMode")) +
                ": '4' is out of range in cullMode");

  text = vkScript("logicOpEnable true\nlogicOp VK_LOGIC_OP_XORR\n");
  EXPECT_EQ(vkError(text),
            "error: t.vkscript:" + std::to_string(lineOf(text, "logicOp VK")) +
                ": unknown logic op 'VK_LOGIC_OP_XORR' in logicOp");
}

TEST(GraphicsSettings, Topologies) {
  EXPECT_EQ(parseTopology("TRIANGLE_LIST"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  EXPECT_EQ(parseTopology("triangle_list"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  EXPECT_EQ(parseTopology("VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  EXPECT_EQ(parseTopology("GL_TRIANGLES"), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  EXPECT_EQ(parseTopology("point_list"), VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  EXPECT_EQ(parseTopology("GL_POINTS"), VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  EXPECT_EQ(parseTopology("LINE_LIST"), VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
  EXPECT_EQ(parseTopology("GL_LINES"), VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
  EXPECT_EQ(parseTopology("line_strip"), VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
  EXPECT_EQ(parseTopology("GL_LINE_STRIP"), VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
  EXPECT_EQ(parseTopology("triangle_strip"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  EXPECT_EQ(parseTopology("GL_TRIANGLE_STRIP"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  EXPECT_EQ(parseTopology("TRIANGLE_FAN"), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN);
  EXPECT_EQ(parseTopology("GL_TRIANGLE_FAN"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN);
  EXPECT_EQ(parseTopology("line_list_with_adjacency"),
            VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("GL_LINES_ADJACENCY"),
            VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("line_strip_with_adjacency"),
            VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("GL_LINE_STRIP_ADJACENCY"),
            VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("TRIANGLE_LIST_WITH_ADJACENCY"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("GL_TRIANGLES_ADJACENCY"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("triangle_strip_with_adjacency"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("GL_TRIANGLE_STRIP_ADJACENCY"),
            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY);
  EXPECT_EQ(parseTopology("patch_list"), VK_PRIMITIVE_TOPOLOGY_PATCH_LIST);
  EXPECT_EQ(parseTopology("GL_PATCHES"), VK_PRIMITIVE_TOPOLOGY_PATCH_LIST);
  EXPECT_EQ(parseTopology("VK_PRIMITIVE_TOPOLOGY_PATCH_LIST"),
            VK_PRIMITIVE_TOPOLOGY_PATCH_LIST);

  EXPECT_EQ(parseTopology("triangles"), std::nullopt);
  EXPECT_EQ(parseTopology("VK_PRIMITIVE_TOPOLOGY_GL_POINTS"), std::nullopt);
  EXPECT_EQ(parseTopology(""), std::nullopt);
}

TEST(GraphicsSettings, CorpusSettingsApply) {
  // Every setting of every corpus script that parses must be understood.
  if (!llvm::sys::fs::is_directory(SPVB_AMBER_CORPUS_DIR))
    GTEST_SKIP() << "no corpus at " << SPVB_AMBER_CORPUS_DIR;
  unsigned settings = 0;
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator
           it(SPVB_AMBER_CORPUS_DIR, ec),
       end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef extension = llvm::sys::path::extension(it->path());
    if (extension != ".amber" && extension != ".vkscript")
      continue;
    llvm::Expected<Script> script = parseScript(it->path());
    if (!script) {
      llvm::consumeError(script.takeError());
      continue;
    }
    for (const Pipeline &pipeline : script->pipelines) {
      GraphicsState state = defaultGraphicsState();
      settings += pipeline.graphicsSettings.size();
      EXPECT_EQ(errorText(applyGraphicsSettings(*script, pipeline, state)),
                "<success>");
    }
    GraphicsState state = defaultGraphicsState();
    for (const auto &command : script->commands) {
      if (const auto *set =
              llvm::dyn_cast<GraphicsStateCommand>(command.get())) {
        ++settings;
        EXPECT_EQ(errorText(applyVkScriptState(*script, *set, state)),
                  "<success>");
      }
    }
  }
  EXPECT_FALSE(ec) << ec.message();
  EXPECT_GT(settings, 0u);
}

} // namespace
