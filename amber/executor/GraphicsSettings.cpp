//===- GraphicsSettings.cpp - Amber pipeline state as runtime state -------===//
//
// Each recorded line is read again with the parsers' tokenizer, so the
// messages and number syntax are theirs. The names are Amber's
// (src/amberscript/parser.cc, src/command_data.cc and
// src/vkscript/command_parser.cc), with its misspellings kept as aliases.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/GraphicsSettings.h"

#include "spvbridge/amber/ScriptReader.h"

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <limits>

using namespace spvb;
using namespace spvb::amber;
using llvm::ArrayRef;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;
using runtime::BlendState;
using runtime::GraphicsState;
using runtime::StencilState;

namespace {

/// An enumerant: its AmberScript name (empty if AmberScript has none), its
/// Vulkan name (empty for an AmberScript alias) and its value.
struct EnumName {
  StringRef amber;
  StringRef vulkan;
  uint32_t value;
};

constexpr EnumName kCompareOps[] = {
    {"never", "VK_COMPARE_OP_NEVER", VK_COMPARE_OP_NEVER},
    {"less", "VK_COMPARE_OP_LESS", VK_COMPARE_OP_LESS},
    {"equal", "VK_COMPARE_OP_EQUAL", VK_COMPARE_OP_EQUAL},
    {"less_or_equal", "VK_COMPARE_OP_LESS_OR_EQUAL",
     VK_COMPARE_OP_LESS_OR_EQUAL},
    {"greater", "VK_COMPARE_OP_GREATER", VK_COMPARE_OP_GREATER},
    {"not_equal", "VK_COMPARE_OP_NOT_EQUAL", VK_COMPARE_OP_NOT_EQUAL},
    {"greater_or_equal", "VK_COMPARE_OP_GREATER_OR_EQUAL",
     VK_COMPARE_OP_GREATER_OR_EQUAL},
    {"always", "VK_COMPARE_OP_ALWAYS", VK_COMPARE_OP_ALWAYS},
};

constexpr EnumName kStencilOps[] = {
    {"keep", "VK_STENCIL_OP_KEEP", VK_STENCIL_OP_KEEP},
    {"zero", "VK_STENCIL_OP_ZERO", VK_STENCIL_OP_ZERO},
    {"replace", "VK_STENCIL_OP_REPLACE", VK_STENCIL_OP_REPLACE},
    {"increment_and_clamp", "VK_STENCIL_OP_INCREMENT_AND_CLAMP",
     VK_STENCIL_OP_INCREMENT_AND_CLAMP},
    {"decrement_and_clamp", "VK_STENCIL_OP_DECREMENT_AND_CLAMP",
     VK_STENCIL_OP_DECREMENT_AND_CLAMP},
    {"invert", "VK_STENCIL_OP_INVERT", VK_STENCIL_OP_INVERT},
    {"increment_and_wrap", "VK_STENCIL_OP_INCREMENT_AND_WRAP",
     VK_STENCIL_OP_INCREMENT_AND_WRAP},
    {"decrement_and_wrap", "VK_STENCIL_OP_DECREMENT_AND_WRAP",
     VK_STENCIL_OP_DECREMENT_AND_WRAP},
};

constexpr EnumName kBlendFactors[] = {
    {"zero", "VK_BLEND_FACTOR_ZERO", VK_BLEND_FACTOR_ZERO},
    {"one", "VK_BLEND_FACTOR_ONE", VK_BLEND_FACTOR_ONE},
    {"src_color", "VK_BLEND_FACTOR_SRC_COLOR", VK_BLEND_FACTOR_SRC_COLOR},
    {"one_minus_src_color", "VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR",
     VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR},
    {"dst_color", "VK_BLEND_FACTOR_DST_COLOR", VK_BLEND_FACTOR_DST_COLOR},
    {"one_minus_dst_color", "VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR",
     VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR},
    {"src_alpha", "VK_BLEND_FACTOR_SRC_ALPHA", VK_BLEND_FACTOR_SRC_ALPHA},
    {"one_minus_src_alpha", "VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA",
     VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA},
    {"dst_alpha", "VK_BLEND_FACTOR_DST_ALPHA", VK_BLEND_FACTOR_DST_ALPHA},
    {"one_minus_dst_alpha", "VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA",
     VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA},
    {"constant_color", "VK_BLEND_FACTOR_CONSTANT_COLOR",
     VK_BLEND_FACTOR_CONSTANT_COLOR},
    {"one_minus_constant_color", "VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR",
     VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR},
    {"constant_alpha", "VK_BLEND_FACTOR_CONSTANT_ALPHA",
     VK_BLEND_FACTOR_CONSTANT_ALPHA},
    // Amber's spelling.
    {"costant_alpha", "", VK_BLEND_FACTOR_CONSTANT_ALPHA},
    {"one_minus_constant_alpha", "VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA",
     VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA},
    {"src_alpha_saturate", "VK_BLEND_FACTOR_SRC_ALPHA_SATURATE",
     VK_BLEND_FACTOR_SRC_ALPHA_SATURATE},
    {"src1_color", "VK_BLEND_FACTOR_SRC1_COLOR", VK_BLEND_FACTOR_SRC1_COLOR},
    {"one_minus_src1_color", "VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR",
     VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR},
    {"src1_alpha", "VK_BLEND_FACTOR_SRC1_ALPHA", VK_BLEND_FACTOR_SRC1_ALPHA},
    {"one_minus_src1_alpha", "VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA",
     VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA},
};

/// The core operations and VK_EXT_blend_operation_advanced's.
constexpr EnumName kBlendOps[] = {
    {"add", "VK_BLEND_OP_ADD", VK_BLEND_OP_ADD},
    {"subtract", "VK_BLEND_OP_SUBTRACT", VK_BLEND_OP_SUBTRACT},
    {"reverse_subtract", "VK_BLEND_OP_REVERSE_SUBTRACT",
     VK_BLEND_OP_REVERSE_SUBTRACT},
    // Amber's spellings.
    {"substract", "", VK_BLEND_OP_SUBTRACT},
    {"reverse_substract", "", VK_BLEND_OP_REVERSE_SUBTRACT},
    {"min", "VK_BLEND_OP_MIN", VK_BLEND_OP_MIN},
    {"max", "VK_BLEND_OP_MAX", VK_BLEND_OP_MAX},
    {"zero", "VK_BLEND_OP_ZERO_EXT", VK_BLEND_OP_ZERO_EXT},
    {"src", "VK_BLEND_OP_SRC_EXT", VK_BLEND_OP_SRC_EXT},
    {"dst", "VK_BLEND_OP_DST_EXT", VK_BLEND_OP_DST_EXT},
    {"src_over", "VK_BLEND_OP_SRC_OVER_EXT", VK_BLEND_OP_SRC_OVER_EXT},
    {"dst_over", "VK_BLEND_OP_DST_OVER_EXT", VK_BLEND_OP_DST_OVER_EXT},
    {"src_in", "VK_BLEND_OP_SRC_IN_EXT", VK_BLEND_OP_SRC_IN_EXT},
    {"dst_in", "VK_BLEND_OP_DST_IN_EXT", VK_BLEND_OP_DST_IN_EXT},
    {"src_out", "VK_BLEND_OP_SRC_OUT_EXT", VK_BLEND_OP_SRC_OUT_EXT},
    {"dst_out", "VK_BLEND_OP_DST_OUT_EXT", VK_BLEND_OP_DST_OUT_EXT},
    {"src_atop", "VK_BLEND_OP_SRC_ATOP_EXT", VK_BLEND_OP_SRC_ATOP_EXT},
    {"dst_atop", "VK_BLEND_OP_DST_ATOP_EXT", VK_BLEND_OP_DST_ATOP_EXT},
    {"xor", "VK_BLEND_OP_XOR_EXT", VK_BLEND_OP_XOR_EXT},
    {"multiply", "VK_BLEND_OP_MULTIPLY_EXT", VK_BLEND_OP_MULTIPLY_EXT},
    {"screen", "VK_BLEND_OP_SCREEN_EXT", VK_BLEND_OP_SCREEN_EXT},
    {"overlay", "VK_BLEND_OP_OVERLAY_EXT", VK_BLEND_OP_OVERLAY_EXT},
    {"darken", "VK_BLEND_OP_DARKEN_EXT", VK_BLEND_OP_DARKEN_EXT},
    {"lighten", "VK_BLEND_OP_LIGHTEN_EXT", VK_BLEND_OP_LIGHTEN_EXT},
    {"color_dodge", "VK_BLEND_OP_COLORDODGE_EXT", VK_BLEND_OP_COLORDODGE_EXT},
    {"color_burn", "VK_BLEND_OP_COLORBURN_EXT", VK_BLEND_OP_COLORBURN_EXT},
    {"hard_light", "VK_BLEND_OP_HARDLIGHT_EXT", VK_BLEND_OP_HARDLIGHT_EXT},
    {"soft_light", "VK_BLEND_OP_SOFTLIGHT_EXT", VK_BLEND_OP_SOFTLIGHT_EXT},
    {"difference", "VK_BLEND_OP_DIFFERENCE_EXT", VK_BLEND_OP_DIFFERENCE_EXT},
    {"exclusion", "VK_BLEND_OP_EXCLUSION_EXT", VK_BLEND_OP_EXCLUSION_EXT},
    {"invert", "VK_BLEND_OP_INVERT_EXT", VK_BLEND_OP_INVERT_EXT},
    {"invert_rgb", "VK_BLEND_OP_INVERT_RGB_EXT", VK_BLEND_OP_INVERT_RGB_EXT},
    {"linear_dodge", "VK_BLEND_OP_LINEARDODGE_EXT",
     VK_BLEND_OP_LINEARDODGE_EXT},
    {"linear_burn", "VK_BLEND_OP_LINEARBURN_EXT", VK_BLEND_OP_LINEARBURN_EXT},
    {"vivid_light", "VK_BLEND_OP_VIVIDLIGHT_EXT", VK_BLEND_OP_VIVIDLIGHT_EXT},
    {"linear_light", "VK_BLEND_OP_LINEARLIGHT_EXT",
     VK_BLEND_OP_LINEARLIGHT_EXT},
    {"pin_light", "VK_BLEND_OP_PINLIGHT_EXT", VK_BLEND_OP_PINLIGHT_EXT},
    {"hard_mix", "VK_BLEND_OP_HARDMIX_EXT", VK_BLEND_OP_HARDMIX_EXT},
    {"hsl_hue", "VK_BLEND_OP_HSL_HUE_EXT", VK_BLEND_OP_HSL_HUE_EXT},
    {"hsl_saturation", "VK_BLEND_OP_HSL_SATURATION_EXT",
     VK_BLEND_OP_HSL_SATURATION_EXT},
    {"hsl_color", "VK_BLEND_OP_HSL_COLOR_EXT", VK_BLEND_OP_HSL_COLOR_EXT},
    {"hsl_luminosity", "VK_BLEND_OP_HSL_LUMINOSITY_EXT",
     VK_BLEND_OP_HSL_LUMINOSITY_EXT},
    {"plus", "VK_BLEND_OP_PLUS_EXT", VK_BLEND_OP_PLUS_EXT},
    {"plus_clamped", "VK_BLEND_OP_PLUS_CLAMPED_EXT",
     VK_BLEND_OP_PLUS_CLAMPED_EXT},
    {"plus_clamped_alpha", "VK_BLEND_OP_PLUS_CLAMPED_ALPHA_EXT",
     VK_BLEND_OP_PLUS_CLAMPED_ALPHA_EXT},
    {"plus_darker", "VK_BLEND_OP_PLUS_DARKER_EXT", VK_BLEND_OP_PLUS_DARKER_EXT},
    {"minus", "VK_BLEND_OP_MINUS_EXT", VK_BLEND_OP_MINUS_EXT},
    {"minus_clamped", "VK_BLEND_OP_MINUS_CLAMPED_EXT",
     VK_BLEND_OP_MINUS_CLAMPED_EXT},
    {"contrast", "VK_BLEND_OP_CONTRAST_EXT", VK_BLEND_OP_CONTRAST_EXT},
    {"invert_ovg", "VK_BLEND_OP_INVERT_OVG_EXT", VK_BLEND_OP_INVERT_OVG_EXT},
    {"red", "VK_BLEND_OP_RED_EXT", VK_BLEND_OP_RED_EXT},
    {"green", "VK_BLEND_OP_GREEN_EXT", VK_BLEND_OP_GREEN_EXT},
    {"blue", "VK_BLEND_OP_BLUE_EXT", VK_BLEND_OP_BLUE_EXT},
};

constexpr EnumName kPolygonModes[] = {
    {"fill", "VK_POLYGON_MODE_FILL", VK_POLYGON_MODE_FILL},
    {"line", "VK_POLYGON_MODE_LINE", VK_POLYGON_MODE_LINE},
    {"point", "VK_POLYGON_MODE_POINT", VK_POLYGON_MODE_POINT},
};

constexpr EnumName kFrontFaces[] = {
    {"", "VK_FRONT_FACE_COUNTER_CLOCKWISE", VK_FRONT_FACE_COUNTER_CLOCKWISE},
    {"", "VK_FRONT_FACE_CLOCKWISE", VK_FRONT_FACE_CLOCKWISE},
};

constexpr EnumName kLogicOps[] = {
    {"", "VK_LOGIC_OP_CLEAR", VK_LOGIC_OP_CLEAR},
    {"", "VK_LOGIC_OP_AND", VK_LOGIC_OP_AND},
    {"", "VK_LOGIC_OP_AND_REVERSE", VK_LOGIC_OP_AND_REVERSE},
    {"", "VK_LOGIC_OP_COPY", VK_LOGIC_OP_COPY},
    {"", "VK_LOGIC_OP_AND_INVERTED", VK_LOGIC_OP_AND_INVERTED},
    {"", "VK_LOGIC_OP_NO_OP", VK_LOGIC_OP_NO_OP},
    {"", "VK_LOGIC_OP_XOR", VK_LOGIC_OP_XOR},
    {"", "VK_LOGIC_OP_OR", VK_LOGIC_OP_OR},
    {"", "VK_LOGIC_OP_NOR", VK_LOGIC_OP_NOR},
    {"", "VK_LOGIC_OP_EQUIVALENT", VK_LOGIC_OP_EQUIVALENT},
    {"", "VK_LOGIC_OP_INVERT", VK_LOGIC_OP_INVERT},
    {"", "VK_LOGIC_OP_OR_REVERSE", VK_LOGIC_OP_OR_REVERSE},
    {"", "VK_LOGIC_OP_COPY_INVERTED", VK_LOGIC_OP_COPY_INVERTED},
    {"", "VK_LOGIC_OP_OR_INVERTED", VK_LOGIC_OP_OR_INVERTED},
    {"", "VK_LOGIC_OP_NAND", VK_LOGIC_OP_NAND},
    {"", "VK_LOGIC_OP_SET", VK_LOGIC_OP_SET},
};

/// Bits of the masks VkScript writes as ORs.
constexpr EnumName kCullModeBits[] = {
    {"", "VK_CULL_MODE_NONE", VK_CULL_MODE_NONE},
    {"", "VK_CULL_MODE_FRONT_BIT", VK_CULL_MODE_FRONT_BIT},
    {"", "VK_CULL_MODE_BACK_BIT", VK_CULL_MODE_BACK_BIT},
    {"", "VK_CULL_MODE_FRONT_AND_BACK", VK_CULL_MODE_FRONT_AND_BACK},
};

constexpr EnumName kColorComponentBits[] = {
    {"", "VK_COLOR_COMPONENT_R_BIT", VK_COLOR_COMPONENT_R_BIT},
    {"", "VK_COLOR_COMPONENT_G_BIT", VK_COLOR_COMPONENT_G_BIT},
    {"", "VK_COLOR_COMPONENT_B_BIT", VK_COLOR_COMPONENT_B_BIT},
    {"", "VK_COLOR_COMPONENT_A_BIT", VK_COLOR_COMPONENT_A_BIT},
};

std::optional<uint32_t> findAmberName(ArrayRef<EnumName> names,
                                      StringRef name) {
  for (const EnumName &entry : names)
    if (!entry.amber.empty() && entry.amber == name)
      return entry.value;
  return std::nullopt;
}

/// A Vulkan name, or the number of one of \p names.
std::optional<uint32_t> findVulkanName(ArrayRef<EnumName> names,
                                       StringRef name) {
  std::optional<Value> number = parseIntegerLiteral(name);
  for (const EnumName &entry : names) {
    if (number ? number->getKind() == Value::Kind::UInt &&
                     number->asUint64() == entry.value
               : !entry.vulkan.empty() && entry.vulkan == name)
      return entry.value;
  }
  return std::nullopt;
}

/// Amber keeps one blend state for all colour attachments and its Vulkan
/// engine gives it to each, so every Location the pipeline draws to (and
/// any entry the state already has) gets the same settings.
llvm::MutableArrayRef<BlendState> blendTargets(const Pipeline *pipeline,
                                               GraphicsState &state) {
  size_t count = std::max<size_t>(state.blend.size(), 1);
  if (pipeline)
    for (const ColorAttachment &attachment : pipeline->colorAttachments)
      count = std::max<size_t>(count, size_t(attachment.location) + 1);
  state.blend.resize(count);
  return state.blend;
}

/// Reads one recorded line again; messages are ScriptReader's.
class LineReader : public ScriptReader {
public:
  LineReader(StringRef text, StringRef fileName, unsigned line)
      : ScriptReader(text, fileName, line), line(line) {}

protected:
  /// The next word, which must be one of \p names: "unknown WHAT 'x' in
  /// CONTEXT".
  Expected<uint32_t>
  enumValue(ArrayRef<EnumName> names,
            std::optional<uint32_t> (*find)(ArrayRef<EnumName>, StringRef),
            StringRef what, const Twine &context) {
    Token token = tokens.next();
    if (!token.isWord())
      return error(line, "missing " + what + " in " + context);
    std::optional<uint32_t> value = find(names, token.text);
    if (!value)
      return error(line,
                   "unknown " + what + " " + quote(token) + " in " + context);
    return *value;
  }

  Expected<float> floatValue(const Twine &what, const Twine &context) {
    Expected<double> value = number(what, context);
    if (!value)
      return value.takeError();
    return static_cast<float>(*value);
  }

  unsigned line;
};

//===----------------------------------------------------------------------===//
// AmberScript
//===----------------------------------------------------------------------===//

enum class Block : uint8_t { None, Depth, Stencil, Blend };

/// What carries over from line to line: the open block.
struct AmberContext {
  AmberContext(const Pipeline &pipeline, GraphicsState &state)
      : pipeline(pipeline), state(state) {}

  const Pipeline &pipeline;
  GraphicsState &state;
  Block block = Block::None;
  /// The block's first line and words, e.g. "STENCIL front", for messages.
  unsigned blockLine = 0;
  std::string blockName;
  bool front = false, back = false;
};

class AmberLine : public LineReader {
public:
  AmberLine(const GraphicsSetting &setting, StringRef fileName,
            AmberContext &context)
      : LineReader(setting.text, fileName, setting.line), context(context),
        state(context.state) {}

  Error apply();

private:
  Error command(const Token &keyword);
  Error depthOption(const Token &key);
  Error stencilOption(const Token &key);
  Error blendOption(const Token &key);
  Error viewport();
  Expected<bool> onOff(const Twine &where);
  Expected<uint32_t> amberEnum(ArrayRef<EnumName> names, StringRef what,
                               const Token &key) {
    return enumValue(names, findAmberName, what,
                     Twine(context.blockName) + " " + key.text);
  }
  /// Sets \p field of the faces STENCIL names.
  template <typename T> void setFaces(T StencilState::*field, T value) {
    if (context.front)
      state.front.*field = value;
    if (context.back)
      state.back.*field = value;
  }

  AmberContext &context;
  GraphicsState &state;
};

Error AmberLine::apply() {
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    if (context.block == Block::None) {
      if (Error err = command(token))
        return err;
      continue;
    }
    if (token.is("END")) {
      std::string what = "END of " + context.blockName;
      context.block = Block::None;
      return endOfStatement(what);
    }
    Error err = context.block == Block::Depth     ? depthOption(token)
                : context.block == Block::Stencil ? stencilOption(token)
                                                  : blendOption(token);
    if (err)
      return err;
  }
  return Error::success();
}

Error AmberLine::command(const Token &keyword) {
  StringRef name = keyword.text;
  // A block's options may follow its keyword on the same line, as Amber
  // reads them as a stream of words up to END.
  if (name == "DEPTH" || name == "BLEND") {
    context.block = name == "DEPTH" ? Block::Depth : Block::Blend;
    context.blockLine = line;
    context.blockName = name.str();
    if (context.block == Block::Blend)
      for (BlendState &blend : blendTargets(&context.pipeline, state))
        blend.enable = true;
    return Error::success();
  }
  if (name == "STENCIL") {
    Token face = tokens.next();
    context.front = face.is("front") || face.is("front_and_back");
    context.back = face.is("back") || face.is("front_and_back");
    if (!context.front && !context.back)
      return error(line, "expected front, back or front_and_back in STENCIL, "
                         "got " +
                             quote(face));
    context.block = Block::Stencil;
    context.blockLine = line;
    context.blockName = ("STENCIL " + face.text).str();
    return Error::success();
  }
  if (name == "VIEWPORT")
    return viewport();
  if (name == "POLYGON_MODE") {
    Expected<uint32_t> mode =
        enumValue(kPolygonModes, findAmberName, "polygon mode", name);
    if (!mode)
      return mode.takeError();
    state.polygonMode = static_cast<VkPolygonMode>(*mode);
    return endOfStatement(name);
  }
  if (name == "LINE_WIDTH") {
    Expected<float> width = floatValue("width", name);
    if (!width)
      return width.takeError();
    state.lineWidth = *width;
    return endOfStatement(name);
  }
  if (name == "PATCH_CONTROL_POINTS") {
    Expected<uint32_t> points = uint32("control point count", name);
    if (!points)
      return points.takeError();
    state.patchControlPoints = *points;
    return endOfStatement(name);
  }
  return error(line, "unknown command " + quote(keyword) + " in PIPELINE '" +
                         context.pipeline.name + "'");
}

Expected<bool> AmberLine::onOff(const Twine &where) {
  // As the parser's onOff: true and false are accepted too.
  Token token = tokens.next();
  if (token.is("on") || token.is("true"))
    return true;
  if (token.is("off") || token.is("false"))
    return false;
  return error(line,
               "expected on or off in " + where + ", got " + quote(token));
}

Error AmberLine::depthOption(const Token &key) {
  std::string where = "DEPTH " + key.text.str();
  bool *flag = key.is("TEST")    ? &state.depthTest
               : key.is("WRITE") ? &state.depthWrite
               : key.is("CLAMP") ? &state.depthClamp
                                 : nullptr;
  if (flag) {
    Expected<bool> on = onOff(where);
    if (!on)
      return on.takeError();
    *flag = *on;
    return Error::success();
  }
  if (key.is("COMPARE_OP")) {
    Expected<uint32_t> op = amberEnum(kCompareOps, "compare op", key);
    if (!op)
      return op.takeError();
    state.depthCompare = static_cast<VkCompareOp>(*op);
    return Error::success();
  }
  if (key.is("BOUNDS") || key.is("BIAS")) {
    // BOUNDS min X max Y; BIAS constant X clamp Y slope Z.
    static constexpr StringRef kBounds[] = {"min", "max"};
    static constexpr StringRef kBias[] = {"constant", "clamp", "slope"};
    float *boundsFields[] = {&state.minDepthBounds, &state.maxDepthBounds};
    float *biasFields[] = {&state.depthBiasConstant, &state.depthBiasClamp,
                           &state.depthBiasSlope};
    bool bounds = key.is("BOUNDS");
    ArrayRef<StringRef> words = bounds ? ArrayRef(kBounds) : ArrayRef(kBias);
    ArrayRef<float *> fields =
        bounds ? ArrayRef(boundsFields) : ArrayRef(biasFields);
    for (auto [word, field] : llvm::zip_equal(words, fields)) {
      if (Error err = keyword(word, where))
        return err;
      Expected<float> value = floatValue(word, where);
      if (!value)
        return value.takeError();
      *field = *value;
    }
    // Amber's BIAS turns the bias on; its BOUNDS leaves the depth bounds
    // test off (AmberScript cannot enable it), so neither does this.
    if (!bounds)
      state.depthBias = true;
    return Error::success();
  }
  return error(line, "unexpected " + quote(key) + " in DEPTH");
}

Error AmberLine::stencilOption(const Token &key) {
  std::string where = "STENCIL " + key.text.str();
  if (key.is("TEST")) {
    Expected<bool> on = onOff(where);
    if (!on)
      return on.takeError();
    state.stencilTest = *on;
    return Error::success();
  }
  VkStencilOp StencilState::*op = key.is("FAIL_OP")   ? &StencilState::failOp
                                  : key.is("PASS_OP") ? &StencilState::passOp
                                  : key.is("DEPTH_FAIL_OP")
                                      ? &StencilState::depthFailOp
                                      : nullptr;
  if (op) {
    Expected<uint32_t> value = amberEnum(kStencilOps, "stencil op", key);
    if (!value)
      return value.takeError();
    setFaces(op, static_cast<VkStencilOp>(*value));
    return Error::success();
  }
  if (key.is("COMPARE_OP")) {
    Expected<uint32_t> value = amberEnum(kCompareOps, "compare op", key);
    if (!value)
      return value.takeError();
    setFaces(&StencilState::compareOp, static_cast<VkCompareOp>(*value));
    return Error::success();
  }
  uint32_t StencilState::*mask =
      key.is("COMPARE_MASK") ? &StencilState::compareMask
      : key.is("WRITE_MASK") ? &StencilState::writeMask
      : key.is("REFERENCE")  ? &StencilState::reference
                             : nullptr;
  if (mask) {
    Expected<uint32_t> value = uint32("value", where);
    if (!value)
      return value.takeError();
    setFaces(mask, *value);
    return Error::success();
  }
  return error(line, "unexpected " + quote(key) + " in " + context.blockName);
}

Error AmberLine::blendOption(const Token &key) {
  VkBlendFactor BlendState::*factor =
      key.is("SRC_COLOR_FACTOR")   ? &BlendState::srcColor
      : key.is("DST_COLOR_FACTOR") ? &BlendState::dstColor
      : key.is("SRC_ALPHA_FACTOR") ? &BlendState::srcAlpha
      : key.is("DST_ALPHA_FACTOR") ? &BlendState::dstAlpha
                                   : nullptr;
  if (factor) {
    Expected<uint32_t> value = amberEnum(kBlendFactors, "blend factor", key);
    if (!value)
      return value.takeError();
    for (BlendState &blend : blendTargets(&context.pipeline, state))
      blend.*factor = static_cast<VkBlendFactor>(*value);
    return Error::success();
  }
  VkBlendOp BlendState::*op = key.is("COLOR_OP")   ? &BlendState::colorOp
                              : key.is("ALPHA_OP") ? &BlendState::alphaOp
                                                   : nullptr;
  if (op) {
    Expected<uint32_t> value = amberEnum(kBlendOps, "blend op", key);
    if (!value)
      return value.takeError();
    for (BlendState &blend : blendTargets(&context.pipeline, state))
      blend.*op = static_cast<VkBlendOp>(*value);
    return Error::success();
  }
  return error(line, "unexpected " + quote(key) + " in BLEND");
}

Error AmberLine::viewport() {
  // VIEWPORT x y SIZE w h [MIN_DEPTH d] [MAX_DEPTH d]
  StringRef where = "VIEWPORT";
  VkViewport viewport = {0, 0, 0, 0, 0, 1};
  for (float *field : {&viewport.x, &viewport.y}) {
    Expected<float> value = floatValue("offset", where);
    if (!value)
      return value.takeError();
    *field = *value;
  }
  if (Error err = keyword("SIZE", where))
    return err;
  for (float *field : {&viewport.width, &viewport.height}) {
    Expected<float> value = floatValue("size", where);
    if (!value)
      return value.takeError();
    *field = *value;
  }
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    float *field = token.is("MIN_DEPTH")   ? &viewport.minDepth
                   : token.is("MAX_DEPTH") ? &viewport.maxDepth
                                           : nullptr;
    if (!field)
      return error(line, "unexpected " + quote(token) + " in " + where);
    Expected<float> value = floatValue("depth", where + " " + token.text);
    if (!value)
      return value.takeError();
    *field = *value;
  }
  state.viewport = viewport;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// VkScript
//===----------------------------------------------------------------------===//

class VkScriptLine : public LineReader {
public:
  VkScriptLine(const GraphicsStateCommand &command, StringRef fileName,
               const Pipeline *pipeline, GraphicsState &state)
      : LineReader(command.text, fileName, command.line), pipeline(pipeline),
        state(state) {}

  Error apply();

private:
  Error setting(StringRef name);
  Expected<bool> boolean(StringRef name);
  Expected<uint32_t> vkEnum(ArrayRef<EnumName> names, StringRef what,
                            StringRef name) {
    return enumValue(names, findVulkanName, what, name);
  }
  /// The rest of the line: names of \p bits and numbers up to \p max, ORed.
  Expected<uint32_t> bitMask(ArrayRef<EnumName> bits, uint32_t max,
                             StringRef what, StringRef name);

  const Pipeline *pipeline;
  GraphicsState &state;
};

Error VkScriptLine::apply() {
  Token first = tokens.next();
  if (!first.isWord())
    return error(line, "missing pipeline state in [test]");
  if (first.is("patch")) {
    // patch parameter vertices N (the parser has checked the words).
    tokens.next();
    tokens.next();
    Expected<uint32_t> points = uint32("count", "patch parameter vertices");
    if (!points)
      return points.takeError();
    state.patchControlPoints = *points;
    return endOfStatement("patch parameter vertices");
  }
  if (Error err = setting(first.text))
    return err;
  return endOfStatement(first.text);
}

Expected<bool> VkScriptLine::boolean(StringRef name) {
  // Amber compares without case.
  Token token = tokens.next();
  if (token.isWord()) {
    if (token.text.equals_insensitive("true"))
      return true;
    if (token.text.equals_insensitive("false"))
      return false;
  }
  return error(line,
               "expected true or false in " + name + ", got " + quote(token));
}

Expected<uint32_t> VkScriptLine::bitMask(ArrayRef<EnumName> bits, uint32_t max,
                                         StringRef what, StringRef name) {
  // `A|B`, `A | B` and `A |B` are all one OR: `|` may or may not be a word.
  uint32_t mask = 0;
  bool any = false;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    llvm::SmallVector<StringRef, 4> parts;
    token.text.split(parts, '|', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      std::optional<uint32_t> bit;
      if (std::optional<Value> number = parseIntegerLiteral(part)) {
        if (number->getKind() != Value::Kind::UInt || number->asUint64() > max)
          return error(line, "'" + part + "' is out of range in " + name);
        bit = static_cast<uint32_t>(number->asUint64());
      } else {
        bit = findVulkanName(bits, part);
      }
      if (!bit)
        return error(line, "unknown " + what + " '" + part + "' in " + name);
      mask |= *bit;
      any = true;
    }
  }
  if (!any)
    return error(line, "missing " + what + " in " + name);
  return mask;
}

Error VkScriptLine::setting(StringRef name) {
  bool *flag = llvm::StringSwitch<bool *>(name)
                   .Case("primitiveRestartEnable", &state.primitiveRestart)
                   .Case("depthClampEnable", &state.depthClamp)
                   .Case("rasterizerDiscardEnable", &state.rasterizerDiscard)
                   .Case("depthBiasEnable", &state.depthBias)
                   .Case("depthTestEnable", &state.depthTest)
                   .Case("depthWriteEnable", &state.depthWrite)
                   .Case("depthBoundsTestEnable", &state.depthBoundsTest)
                   .Case("stencilTestEnable", &state.stencilTest)
                   .Case("logicOpEnable", &state.logicOpEnable)
                   .Default(nullptr);
  if (flag || name == "blendEnable") {
    Expected<bool> value = boolean(name);
    if (!value)
      return value.takeError();
    if (flag) {
      *flag = *value;
    } else {
      for (BlendState &blend : blendTargets(pipeline, state))
        blend.enable = *value;
    }
    return Error::success();
  }

  float *real = llvm::StringSwitch<float *>(name)
                    .Case("depthBiasConstantFactor", &state.depthBiasConstant)
                    .Case("depthBiasClamp", &state.depthBiasClamp)
                    .Case("depthBiasSlopeFactor", &state.depthBiasSlope)
                    .Case("lineWidth", &state.lineWidth)
                    .Case("minDepthBounds", &state.minDepthBounds)
                    .Case("maxDepthBounds", &state.maxDepthBounds)
                    .Default(nullptr);
  if (real) {
    Expected<float> value = floatValue("value", name);
    if (!value)
      return value.takeError();
    *real = *value;
    return Error::success();
  }

  if (name == "topology") {
    Token token = tokens.next();
    if (!token.isWord())
      return error(line, "missing topology in topology");
    std::optional<VkPrimitiveTopology> topology = parseTopology(token.text);
    if (std::optional<Value> number = parseIntegerLiteral(token.text))
      if (number->getKind() == Value::Kind::UInt &&
          number->asUint64() <= VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
        topology = static_cast<VkPrimitiveTopology>(number->asUint64());
    if (!topology)
      return error(line, "unknown topology " + quote(token) + " in topology");
    state.topology = *topology;
    return Error::success();
  }
  if (name == "polygonMode") {
    Expected<uint32_t> mode = vkEnum(kPolygonModes, "polygon mode", name);
    if (!mode)
      return mode.takeError();
    state.polygonMode = static_cast<VkPolygonMode>(*mode);
    return Error::success();
  }
  if (name == "frontFace") {
    Expected<uint32_t> face = vkEnum(kFrontFaces, "front face", name);
    if (!face)
      return face.takeError();
    state.frontFace = static_cast<VkFrontFace>(*face);
    return Error::success();
  }
  if (name == "logicOp") {
    Expected<uint32_t> op = vkEnum(kLogicOps, "logic op", name);
    if (!op)
      return op.takeError();
    state.logicOp = static_cast<VkLogicOp>(*op);
    return Error::success();
  }
  if (name == "cullMode") {
    Expected<uint32_t> mode =
        bitMask(kCullModeBits, VK_CULL_MODE_FRONT_AND_BACK, "cull mode", name);
    if (!mode)
      return mode.takeError();
    state.cullMode = *mode;
    return Error::success();
  }
  if (name == "colorWriteMask") {
    Expected<uint32_t> mask =
        bitMask(kColorComponentBits, 0xf, "colour component", name);
    if (!mask)
      return mask.takeError();
    for (BlendState &blend : blendTargets(pipeline, state))
      blend.writeMask = *mask;
    return Error::success();
  }

  VkBlendFactor BlendState::*factor =
      llvm::StringSwitch<VkBlendFactor BlendState::*>(name)
          .Case("srcColorBlendFactor", &BlendState::srcColor)
          .Case("dstColorBlendFactor", &BlendState::dstColor)
          .Case("srcAlphaBlendFactor", &BlendState::srcAlpha)
          .Case("dstAlphaBlendFactor", &BlendState::dstAlpha)
          .Default(nullptr);
  if (factor) {
    Expected<uint32_t> value = vkEnum(kBlendFactors, "blend factor", name);
    if (!value)
      return value.takeError();
    for (BlendState &blend : blendTargets(pipeline, state))
      blend.*factor = static_cast<VkBlendFactor>(*value);
    return Error::success();
  }
  VkBlendOp BlendState::*blendOp =
      llvm::StringSwitch<VkBlendOp BlendState::*>(name)
          .Case("colorBlendOp", &BlendState::colorOp)
          .Case("alphaBlendOp", &BlendState::alphaOp)
          .Default(nullptr);
  if (blendOp) {
    Expected<uint32_t> value = vkEnum(kBlendOps, "blend op", name);
    if (!value)
      return value.takeError();
    for (BlendState &blend : blendTargets(pipeline, state))
      blend.*blendOp = static_cast<VkBlendOp>(*value);
    return Error::success();
  }

  if (name == "depthCompareOp") {
    Expected<uint32_t> op = vkEnum(kCompareOps, "compare op", name);
    if (!op)
      return op.takeError();
    state.depthCompare = static_cast<VkCompareOp>(*op);
    return Error::success();
  }

  // front.* and back.*: one face's stencil state.
  auto [faceName, field] = name.split('.');
  StencilState *face = faceName == "front"  ? &state.front
                       : faceName == "back" ? &state.back
                                            : nullptr;
  if (face && field == "compareOp") {
    Expected<uint32_t> op = vkEnum(kCompareOps, "compare op", name);
    if (!op)
      return op.takeError();
    face->compareOp = static_cast<VkCompareOp>(*op);
    return Error::success();
  }
  VkStencilOp *stencilOp = !face                    ? nullptr
                           : field == "failOp"      ? &face->failOp
                           : field == "passOp"      ? &face->passOp
                           : field == "depthFailOp" ? &face->depthFailOp
                                                    : nullptr;
  if (stencilOp) {
    Expected<uint32_t> op = vkEnum(kStencilOps, "stencil op", name);
    if (!op)
      return op.takeError();
    *stencilOp = static_cast<VkStencilOp>(*op);
    return Error::success();
  }
  uint32_t *integer = !face                    ? nullptr
                      : field == "compareMask" ? &face->compareMask
                      : field == "writeMask"   ? &face->writeMask
                      : field == "reference"   ? &face->reference
                                               : nullptr;
  if (integer) {
    Expected<uint32_t> value = uint32("value", name);
    if (!value)
      return value.takeError();
    *integer = *value;
    return Error::success();
  }
  return error(line, "unknown command '" + name + "' in [test]");
}

} // namespace

GraphicsState spvb::amber::defaultGraphicsState() {
  GraphicsState state;
  state.depthCompare = VK_COMPARE_OP_ALWAYS;
  state.maxDepthBounds = 0;
  for (StencilState *face : {&state.front, &state.back}) {
    face->compareMask = std::numeric_limits<uint32_t>::max();
    face->writeMask = std::numeric_limits<uint32_t>::max();
  }
  return state;
}

Error spvb::amber::applyGraphicsSettings(const Script &script,
                                         const Pipeline &pipeline,
                                         GraphicsState &state) {
  AmberContext context(pipeline, state);
  for (const GraphicsSetting &setting : pipeline.graphicsSettings)
    if (Error err = AmberLine(setting, script.fileName, context).apply())
      return err;
  if (context.block != Block::None)
    return scriptError(script.fileName, context.blockLine,
                       "missing END for " + context.blockName +
                           " (opened at line " + Twine(context.blockLine) +
                           ")");
  return Error::success();
}

Error spvb::amber::applyVkScriptState(const Script &script,
                                      const GraphicsStateCommand &command,
                                      GraphicsState &state) {
  return VkScriptLine(command, script.fileName,
                      script.findPipeline(command.pipeline), state)
      .apply();
}

std::optional<VkPrimitiveTopology> spvb::amber::parseTopology(StringRef name) {
  std::string lower = name.lower();
  StringRef topology = lower;
  bool vulkan = topology.consume_front("vk_primitive_topology_");
  if (vulkan && topology.starts_with("gl_"))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<VkPrimitiveTopology>>(topology)
      .Cases({"point_list", "gl_points"}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST)
      .Cases({"line_list", "gl_lines"}, VK_PRIMITIVE_TOPOLOGY_LINE_LIST)
      .Cases({"line_strip", "gl_line_strip"}, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP)
      .Cases({"triangle_list", "gl_triangles"},
             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
      .Cases({"triangle_strip", "gl_triangle_strip"},
             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP)
      .Cases({"triangle_fan", "gl_triangle_fan"},
             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN)
      .Cases({"line_list_with_adjacency", "gl_lines_adjacency"},
             VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY)
      .Cases({"line_strip_with_adjacency", "gl_line_strip_adjacency"},
             VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY)
      .Cases({"triangle_list_with_adjacency", "gl_triangles_adjacency"},
             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY)
      .Cases({"triangle_strip_with_adjacency", "gl_triangle_strip_adjacency"},
             VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY)
      .Cases({"patch_list", "gl_patches"}, VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
      .Default(std::nullopt);
}
