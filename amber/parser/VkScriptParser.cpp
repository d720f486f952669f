//===- VkScriptParser.cpp - Parse VkScript --------------------------------===//
//
// The file is split into `[section]`s first (a line starting with `[`
// opens one); the pipeline's kind depends on all shader sections, so it is
// made before the sections are read in order. [require], [indices],
// [vertex data] and [test] are read with ScriptReader; shader sections are
// taken raw.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/VkScriptParser.h"

#include "spvbridge/amber/ScriptReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

using namespace spvb::amber;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace {

constexpr StringRef kPipelineName = "vk_pipeline";
constexpr StringRef kFramebufferName = "framebuffer";
constexpr StringRef kDepthStencilName = "depthstencil";
constexpr StringRef kPushConstantsName = "vk_push_constants";
constexpr uint32_t kDefaultFramebufferSize = 250;
/// Writes past this offset are refused, like AmberScript's buffer limit.
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 30;

/// VkPhysicalDeviceFeatures' members: the [require] words that are
/// features. Other words with a '.' are features of extension structs
/// (VariablePointerFeatures.variablePointers); the rest are extensions.
const llvm::StringSet<> &physicalDeviceFeatures() {
  static const llvm::StringSet<> features = {
      "robustBufferAccess",
      "fullDrawIndexUint32",
      "imageCubeArray",
      "independentBlend",
      "geometryShader",
      "tessellationShader",
      "sampleRateShading",
      "dualSrcBlend",
      "logicOp",
      "multiDrawIndirect",
      "drawIndirectFirstInstance",
      "depthClamp",
      "depthBiasClamp",
      "fillModeNonSolid",
      "depthBounds",
      "wideLines",
      "largePoints",
      "alphaToOne",
      "multiViewport",
      "samplerAnisotropy",
      "textureCompressionETC2",
      "textureCompressionASTC_LDR",
      "textureCompressionBC",
      "occlusionQueryPrecise",
      "pipelineStatisticsQuery",
      "vertexPipelineStoresAndAtomics",
      "fragmentStoresAndAtomics",
      "shaderTessellationAndGeometryPointSize",
      "shaderImageGatherExtended",
      "shaderStorageImageExtendedFormats",
      "shaderStorageImageMultisample",
      "shaderStorageImageReadWithoutFormat",
      "shaderStorageImageWriteWithoutFormat",
      "shaderUniformBufferArrayDynamicIndexing",
      "shaderSampledImageArrayDynamicIndexing",
      "shaderStorageBufferArrayDynamicIndexing",
      "shaderStorageImageArrayDynamicIndexing",
      "shaderClipDistance",
      "shaderCullDistance",
      "shaderFloat64",
      "shaderInt64",
      "shaderInt16",
      "shaderResourceResidency",
      "shaderResourceMinLod",
      "sparseBinding",
      "sparseResidencyBuffer",
      "sparseResidencyImage2D",
      "sparseResidencyImage3D",
      "sparseResidency2Samples",
      "sparseResidency4Samples",
      "sparseResidency8Samples",
      "sparseResidency16Samples",
      "sparseResidencyAliased",
      "variableMultisampleRate",
      "inheritedQueries",
  };
  return features;
}

/// Instance extensions a [require] section may name; other extensions are
/// device extensions.
bool isInstanceExtension(StringRef name) {
  return name == "VK_KHR_get_physical_device_properties2" ||
         name == "VK_KHR_external_memory_capabilities" ||
         name == "VK_KHR_external_semaphore_capabilities" ||
         name == "VK_KHR_external_fence_capabilities" ||
         name == "VK_KHR_device_group_creation" ||
         name == "VK_EXT_debug_utils" || name == "VK_EXT_debug_report";
}

/// The [test] words that set graphics pipeline state.
bool isPipelineStateCommand(StringRef name) {
  static const llvm::StringSet<> commands = {
      "primitiveRestartEnable",
      "depthClampEnable",
      "rasterizerDiscardEnable",
      "depthBiasEnable",
      "logicOpEnable",
      "blendEnable",
      "depthTestEnable",
      "depthWriteEnable",
      "depthBoundsTestEnable",
      "stencilTestEnable",
      "topology",
      "polygonMode",
      "logicOp",
      "frontFace",
      "cullMode",
      "depthBiasConstantFactor",
      "depthBiasClamp",
      "depthBiasSlopeFactor",
      "lineWidth",
      "minDepthBounds",
      "maxDepthBounds",
      "srcColorBlendFactor",
      "dstColorBlendFactor",
      "srcAlphaBlendFactor",
      "dstAlphaBlendFactor",
      "colorBlendOp",
      "alphaBlendOp",
      "depthCompareOp",
      "front.compareOp",
      "back.compareOp",
      "front.failOp",
      "front.passOp",
      "front.depthFailOp",
      "back.failOp",
      "back.passOp",
      "back.depthFailOp",
      "front.compareMask",
      "front.writeMask",
      "back.compareMask",
      "back.writeMask",
      "front.reference",
      "back.reference",
      "colorWriteMask",
  };
  return commands.contains(name);
}

bool isTopology(StringRef name) {
  static const llvm::StringSet<> topologies = {
      "PATCH_LIST",
      "POINT_LIST",
      "LINE_LIST",
      "LINE_LIST_WITH_ADJACENCY",
      "LINE_STRIP",
      "LINE_STRIP_WITH_ADJACENCY",
      "TRIANGLE_FAN",
      "TRIANGLE_LIST",
      "TRIANGLE_LIST_WITH_ADJACENCY",
      "TRIANGLE_STRIP",
      "TRIANGLE_STRIP_WITH_ADJACENCY",
      "GL_LINE_STRIP_ADJACENCY",
      "GL_LINE_STRIP",
      "GL_LINES",
      "GL_LINES_ADJACENCY",
      "GL_PATCHES",
      "GL_POINTS",
      "GL_TRIANGLE_STRIP",
      "GL_TRIANGLE_FAN",
      "GL_TRIANGLES",
      "GL_TRIANGLES_ADJACENCY",
      "GL_TRIANGLE_STRIP_ADJACENCY",
  };
  return topologies.contains(name);
}

std::optional<Comparator> parseComparator(StringRef name) {
  return llvm::StringSwitch<std::optional<Comparator>>(name)
      .Case("==", Comparator::Equal)
      .Case("!=", Comparator::NotEqual)
      .Case("<", Comparator::Less)
      .Case("<=", Comparator::LessOrEqual)
      .Case(">", Comparator::Greater)
      .Case(">=", Comparator::GreaterOrEqual)
      .Case("~=", Comparator::FuzzyEqual)
      .Default(std::nullopt);
}

enum class SectionKind : uint8_t {
  Comment,
  Require,
  Test,
  Indices,
  VertexData,
  Shader,
};

/// A `[name]` and the lines up to the next one.
struct Section {
  StringRef name;
  SectionKind kind = SectionKind::Comment;
  ShaderStage stage = ShaderStage::Compute;
  ShaderFormat format = ShaderFormat::Glsl;
  bool passthrough = false;
  unsigned headerLine = 0;
  StringRef text;
};

/// Fills in \p section's kind from its name; false if there is no such
/// section.
bool classify(Section &section) {
  StringRef name = section.name;
  if (name.consume_back(" passthrough"))
    section.passthrough = true;
  else if (name.consume_back(" spirv hex"))
    section.format = ShaderFormat::SpirvHex;
  else if (name.consume_back(" spirv"))
    section.format = ShaderFormat::SpirvAsm;
  bool plain = !section.passthrough && section.format == ShaderFormat::Glsl;
  std::optional<SectionKind> kind =
      llvm::StringSwitch<std::optional<SectionKind>>(name)
          .Case("comment", SectionKind::Comment)
          .Case("require", SectionKind::Require)
          .Case("test", SectionKind::Test)
          .Case("indices", SectionKind::Indices)
          .Case("vertex data", SectionKind::VertexData)
          .Default(std::nullopt);
  if (kind)
    section.kind = *kind;
  if (kind && plain)
    return true;
  if (!name.consume_back(" shader"))
    return false;
  std::optional<ShaderStage> stage =
      llvm::StringSwitch<std::optional<ShaderStage>>(name)
          .Case("compute", ShaderStage::Compute)
          .Case("vertex", ShaderStage::Vertex)
          .Case("fragment", ShaderStage::Fragment)
          .Case("geometry", ShaderStage::Geometry)
          .Case("tessellation control", ShaderStage::TessellationControl)
          .Case("tessellation evaluation", ShaderStage::TessellationEvaluation)
          .Default(std::nullopt);
  if (!stage || (section.passthrough && *stage != ShaderStage::Vertex))
    return false;
  section.kind = SectionKind::Shader;
  section.stage = *stage;
  return true;
}

Expected<std::vector<Section>> splitSections(StringRef text,
                                             StringRef fileName) {
  std::vector<Section> sections;
  unsigned line = 0;
  size_t sectionStart = 0;
  auto closeSection = [&](size_t end) {
    if (!sections.empty())
      sections.back().text = text.slice(sectionStart, end);
  };
  for (size_t position = 0; position < text.size();) {
    ++line;
    size_t lineEnd = std::min(text.find('\n', position), text.size());
    StringRef lineText = text.slice(position, lineEnd);
    size_t lineStart = position;
    position = std::min(lineEnd + 1, text.size());
    if (lineText.starts_with("[")) {
      closeSection(lineStart);
      size_t close = lineText.rfind(']');
      if (close == StringRef::npos)
        return scriptError(fileName, line,
                           "missing ] in section header '" + lineText.rtrim() +
                               "'");
      Section section;
      section.name = lineText.slice(1, close);
      section.headerLine = line;
      if (!classify(section))
        return scriptError(fileName, line,
                           "unknown section '[" + section.name + "]'");
      sections.push_back(section);
      sectionStart = position;
      continue;
    }
    StringRef trimmed = lineText.trim();
    if (sections.empty() && !trimmed.empty() && !trimmed.starts_with("#"))
      return scriptError(fileName, line,
                         "expected a section such as [test], got '" + trimmed +
                             "'");
  }
  closeSection(text.size());
  return sections;
}

/// `B` or `S:B`.
struct BindingPoint {
  uint32_t set = 0;
  uint32_t binding = 0;
};

class VkScriptParser {
public:
  VkScriptParser(StringRef text, StringRef fileName)
      : text(text), fileName(fileName) {
    script.format = ScriptFormat::VkScript;
    script.fileName = fileName.str();
  }

  Expected<Script> parse();

private:
  friend class TestSectionReader;

  Error error(unsigned line, const Twine &message) const {
    return scriptError(fileName, line, message);
  }
  Pipeline &pipeline() { return script.pipelines.front(); }
  Buffer *findBuffer(StringRef name);
  Buffer &framebuffer();

  Error processSection(const Section &section);
  Error processShader(const Section &section);
  Error processRequire(const Section &section);
  Error processIndices(const Section &section);
  Error processVertexData(const Section &section);

  StringRef text;
  std::string fileName;
  Script script;
  /// The last `tolerance` line's values, for `~=` probes.
  std::vector<Tolerance> tolerances;
  /// The buffers a write has given their type.
  llvm::StringSet<> typedBuffers;
};

Buffer *VkScriptParser::findBuffer(StringRef name) {
  for (Buffer &buffer : script.buffers)
    if (buffer.name == name)
      return &buffer;
  return nullptr;
}

Buffer &VkScriptParser::framebuffer() {
  if (Buffer *existing = findBuffer(kFramebufferName))
    return *existing;
  Buffer buffer;
  buffer.name = kFramebufferName.str();
  buffer.type = *parseFormatName("B8G8R8A8_UNORM");
  buffer.declaredWithFormat = true;
  buffer.dimension = ImageDimension::Dim2D;
  buffer.width = pipeline().framebufferWidth;
  buffer.height = pipeline().framebufferHeight;
  buffer.depth = 1;
  buffer.elementCount = uint64_t(buffer.width) * buffer.height;
  script.buffers.push_back(std::move(buffer));
  pipeline().colorAttachments.push_back({kFramebufferName.str(), 0, 0});
  return script.buffers.back();
}

Error VkScriptParser::processShader(const Section &section) {
  Shader shader;
  shader.name = "vk_shader_" + std::to_string(script.shaders.size());
  shader.stage = section.stage;
  shader.format = section.passthrough ? ShaderFormat::SpirvAsm : section.format;
  shader.passthrough = section.passthrough;
  shader.line = section.headerLine;
  if (!section.passthrough)
    shader.source = section.text.rtrim("\r\n").str();
  if ((shader.stage == ShaderStage::Compute) != pipeline().isCompute())
    return error(section.headerLine,
                 "a VkScript file cannot mix compute and graphics shaders: "
                 "[" +
                     section.name + "]");
  ShaderAttachment attachment;
  attachment.shader = shader.name;
  attachment.stage = shader.stage;
  attachment.line = section.headerLine;
  pipeline().shaders.push_back(std::move(attachment));
  script.shaders.push_back(std::move(shader));
  return Error::success();
}

Error VkScriptParser::processRequire(const Section &section) {
  Tokenizer tokens(section.text, section.headerLine + 1);
  for (Token token = tokens.next(); token.kind != Token::Kind::EndOfFile;
       token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    StringRef name = token.text;
    if (name == "framebuffer" || name == "depthstencil") {
      Token format = tokens.next();
      std::optional<Type> type =
          format.isWord() ? parseFormatName(format.text) : std::nullopt;
      if (!type)
        return error(format.line, "unknown format " + quote(format) +
                                      " in [require] " + name);
      if (name == "framebuffer") {
        framebuffer().type = std::move(*type);
      } else {
        if (findBuffer(kDepthStencilName))
          return error(token.line, "depthstencil is given twice in [require]");
        Buffer depth;
        depth.name = kDepthStencilName.str();
        depth.type = std::move(*type);
        depth.declaredWithFormat = true;
        script.buffers.push_back(std::move(depth));
        pipeline().depthStencilBuffer = kDepthStencilName.str();
      }
    } else if (name == "fbsize" || name == "fence_timeout") {
      unsigned count = name == "fbsize" ? 2 : 1;
      uint32_t values[2] = {0, 0};
      for (unsigned i = 0; i < count; ++i) {
        Token value = tokens.next();
        std::optional<Value> literal =
            value.isWord() ? parseIntegerLiteral(value.text) : std::nullopt;
        if (!literal || literal->getKind() == Value::Kind::Int ||
            literal->asUint64() > std::numeric_limits<uint32_t>::max() ||
            (name == "fbsize" && literal->asUint64() == 0))
          return error(value.line, "expected a positive integer for " + name +
                                       " in [require], got " + quote(value));
        values[i] = static_cast<uint32_t>(literal->asUint64());
      }
      if (name == "fence_timeout") {
        script.fenceTimeoutMs = values[0];
      } else {
        pipeline().framebufferWidth = values[0];
        pipeline().framebufferHeight = values[1];
        if (Buffer *color = findBuffer(kFramebufferName)) {
          color->width = values[0];
          color->height = values[1];
          color->elementCount = uint64_t(values[0]) * values[1];
        }
      }
    } else if (physicalDeviceFeatures().contains(name) || name.contains('.')) {
      script.deviceFeatures.push_back(name.str());
    } else if (llvm::all_of(
                   name, [](char c) { return llvm::isAlnum(c) || c == '_'; })) {
      (isInstanceExtension(name) ? script.instanceExtensions
                                 : script.deviceExtensions)
          .push_back(name.str());
    } else {
      return error(token.line,
                   "unknown feature or extension '" + name + "' in [require]");
    }
    Token end = tokens.next();
    if (!end.isEnd())
      return error(end.line, "unexpected " + quote(end) + " after " + name +
                                 " in [require]");
  }
  return Error::success();
}

Error VkScriptParser::processIndices(const Section &section) {
  Buffer indices;
  indices.name = "vk_indices";
  indices.type = Type::number(ScalarType::uint(32));
  indices.type.name = "uint32";
  indices.init = InitKind::Values;
  indices.line = section.headerLine;
  Tokenizer tokens(section.text, section.headerLine + 1);
  for (Token token = tokens.next(); token.kind != Token::Kind::EndOfFile;
       token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    Expected<Value> index =
        parseValueFor(token, ScalarType::uint(16), "[indices]", fileName);
    if (!index)
      return index.takeError();
    indices.values.push_back(convertValue(*index, ScalarType::uint(32)));
  }
  if (indices.values.empty())
    return Error::success();
  if (findBuffer(indices.name))
    return error(section.headerLine, "[indices] is given twice");
  indices.elementCount = indices.values.size();
  pipeline().indexBuffer = indices.name;
  script.buffers.push_back(std::move(indices));
  return Error::success();
}

Error VkScriptParser::processVertexData(const Section &section) {
  Tokenizer tokens(section.text, section.headerLine + 1);
  Token token = tokens.next();
  while (token.kind == Token::Kind::EndOfLine)
    token = tokens.next();
  // The header: LOCATION/FORMAT per attribute.
  std::vector<Buffer> attributes;
  for (; !token.isEnd(); token = tokens.next()) {
    auto [locationText, formatText] = token.text.split('/');
    uint32_t location = 0;
    if (locationText.getAsInteger(10, location))
      return error(token.line, "expected LOCATION/FORMAT in the [vertex data] "
                               "header, got '" +
                                   token.text + "'");
    std::optional<Type> type = parseFormatName(formatText);
    if (!type)
      return error(token.line, "unknown format '" + formatText +
                                   "' in the [vertex data] header");
    Buffer buffer;
    buffer.name = "vk_vertices_" + std::to_string(location);
    if (findBuffer(buffer.name) ||
        llvm::any_of(attributes, [&](const Buffer &other) {
          return other.name == buffer.name;
        }))
      return error(token.line, "location " + Twine(location) +
                                   " is given twice in [vertex data]");
    buffer.type = std::move(*type);
    buffer.declaredWithFormat = true;
    buffer.init = InitKind::Values;
    buffer.line = token.line;
    attributes.push_back(std::move(buffer));
    pipeline().vertexData.push_back(
        {attributes.back().name, location, false, formatText.str(), 0, {}});
  }
  if (attributes.empty())
    return Error::success();
  // The rows: each attribute's numbers in turn, lines not mattering.
  std::vector<std::pair<Buffer *, ScalarType>> cycle;
  for (Buffer &buffer : attributes)
    for (const ScalarSlot &slot : scalarSlots(buffer.type, buffer.layout))
      cycle.push_back({&buffer, slot.scalar});
  size_t count = 0;
  unsigned lastLine = token.line;
  for (token = tokens.next(); token.kind != Token::Kind::EndOfFile;
       token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    auto [buffer, scalar] = cycle[count++ % cycle.size()];
    Expected<Value> value =
        parseValueFor(token, scalar, "[vertex data]", fileName);
    if (!value)
      return value.takeError();
    buffer->values.push_back(*value);
    lastLine = token.line;
  }
  if (count % cycle.size())
    return error(lastLine, "the last [vertex data] row has " +
                               Twine(count % cycle.size()) + " of " +
                               Twine(cycle.size()) + " values");
  for (Buffer &buffer : attributes) {
    buffer.elementCount = count / cycle.size();
    script.buffers.push_back(std::move(buffer));
  }
  return Error::success();
}

/// The [test] section: commands, in order, into the script.
class TestSectionReader : ScriptReader {
public:
  TestSectionReader(VkScriptParser &parser, const Section &section)
      : ScriptReader(section.text, parser.fileName, section.headerLine + 1),
        parser(parser), script(parser.script) {}

  Error read();

private:
  Error command(const Token &first);
  Expected<BindingPoint> bindingPoint(StringRef context);
  Expected<Type> typeName(StringRef context);
  Expected<std::vector<Value>> values(const Type &type, Layout layout,
                                      StringRef context);
  Expected<Buffer *> bufferAt(BindingPoint point, DescriptorKind kind,
                              unsigned line, StringRef context);
  Error write(Buffer &buffer, const Token &first, StringRef context);
  Error typeBuffer(Buffer &buffer, const Type &type, unsigned line,
                   StringRef context, bool reads);
  Error ssbo(const Token &first);
  Error uniform(const Token &first);
  Error probe(const Token &first, bool relative);
  Error probeSsbo(const Token &first);
  Error tolerance(const Token &first);
  Error clear(const Token &first);
  Error draw(const Token &first);
  Error compute(const Token &first);
  Error entryPoint(const Token &first, ShaderStage stage);
  Error pipelineState(const Token &first);
  /// The next number, skipping one ',' before it.
  Expected<double> listNumber(StringRef what, StringRef context);

  VkScriptParser &parser;
  Script &script;
};

Error TestSectionReader::read() {
  // Each [test] section replaces the commands and tolerance of the one
  // before, as Amber's ProcessTestBlock sets the script's commands anew.
  script.commands.clear();
  parser.tolerances.clear();
  for (Token token = tokens.next(); token.kind != Token::Kind::EndOfFile;
       token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (Error err = command(token))
      return err;
  }
  return Error::success();
}

Error TestSectionReader::command(const Token &first) {
  StringRef name = first.text;
  if (name == "ssbo")
    return ssbo(first);
  if (name == "uniform")
    return uniform(first);
  if (name == "probe")
    return probe(first, /*relative=*/false);
  if (name == "relative") {
    if (Error err = keyword("probe", "relative probe"))
      return err;
    return probe(first, /*relative=*/true);
  }
  if (name == "tolerance")
    return tolerance(first);
  if (name == "clear")
    return clear(first);
  if (name == "draw")
    return draw(first);
  if (name == "compute")
    return compute(first);
  if (name == "vertex" || name == "fragment" || name == "geometry")
    return entryPoint(first, name == "vertex"     ? ShaderStage::Vertex
                             : name == "fragment" ? ShaderStage::Fragment
                                                  : ShaderStage::Geometry);
  if (name == "tessellation") {
    Expected<Token> which = word("control or evaluation", "tessellation");
    if (!which)
      return which.takeError();
    if (!which->is("control") && !which->is("evaluation"))
      return error(which->line, "expected control or evaluation after "
                                "tessellation, got '" +
                                    which->text + "'");
    return entryPoint(first, which->is("control")
                                 ? ShaderStage::TessellationControl
                                 : ShaderStage::TessellationEvaluation);
  }
  if (name == "patch") {
    if (Error err = keyword("parameter", "patch"))
      return err;
    if (Error err = keyword("vertices", "patch parameter"))
      return err;
    Expected<uint32_t> count = uint32("count", "patch parameter vertices");
    if (!count)
      return count.takeError();
    auto state = std::make_unique<GraphicsStateCommand>();
    state->line = first.line;
    state->pipeline = kPipelineName.str();
    state->text = "patch parameter vertices " + std::to_string(*count);
    script.commands.push_back(std::move(state));
    return endOfStatement("patch parameter vertices");
  }
  if (isPipelineStateCommand(name))
    return pipelineState(first);
  return error(first.line, "unknown command '" + name + "' in [test]");
}

Expected<BindingPoint> TestSectionReader::bindingPoint(StringRef context) {
  Expected<Token> token = word("binding", context);
  if (!token)
    return token.takeError();
  auto [first, second] = token->text.split(':');
  BindingPoint point;
  bool bad = first.getAsInteger(10, point.binding);
  if (token->text.contains(':')) {
    point.set = point.binding;
    bad = bad || second.getAsInteger(10, point.binding);
  }
  if (bad)
    return error(token->line, "expected a binding (B or S:B) in " + context +
                                  ", got '" + token->text + "'");
  return point;
}

Expected<Type> TestSectionReader::typeName(StringRef context) {
  Expected<Token> token = word("type", context);
  if (!token)
    return token.takeError();
  std::optional<Type> type = parseVkScriptTypeName(token->text);
  if (!type)
    return error(token->line,
                 "unknown type '" + token->text + "' in " + context);
  return *type;
}

Expected<std::vector<Value>>
TestSectionReader::values(const Type &type, Layout layout, StringRef context) {
  std::vector<ScalarSlot> slots = scalarSlots(type, layout);
  std::vector<Value> result;
  Token token = tokens.next();
  for (; !token.isEnd(); token = tokens.next()) {
    Expected<Value> value = parseValueFor(
        token, slots[result.size() % slots.size()].scalar, context, fileName);
    if (!value)
      return value.takeError();
    result.push_back(*value);
  }
  // Whole columns (or vectors), as Amber asks.
  if (result.empty() || result.size() % type.rows)
    return error(token.line, "expected a multiple of " + Twine(type.rows) +
                                 " values for " + type.name + " in " + context +
                                 ", got " + Twine(result.size()));
  return result;
}

Expected<Buffer *> TestSectionReader::bufferAt(BindingPoint point,
                                               DescriptorKind kind,
                                               unsigned line,
                                               StringRef context) {
  Pipeline &pipeline = parser.pipeline();
  if (const DescriptorBinding *existing =
          pipeline.findBinding(point.set, point.binding)) {
    if (existing->kind != kind)
      return error(line, context + " uses binding " + Twine(point.set) + ":" +
                             Twine(point.binding) + ", which is a " +
                             descriptorKindName(existing->kind) + " buffer");
    return parser.findBuffer(existing->buffers.front());
  }
  bool storage = kind == DescriptorKind::StorageBuffer;
  Buffer buffer;
  buffer.name = (storage ? "vk_ssbo_" : "vk_ubo_") + std::to_string(point.set) +
                "_" + std::to_string(point.binding);
  // Amber's default before a typed command: bytes.
  buffer.type = Type::number(ScalarType::sint(8));
  buffer.type.name = "int8";
  buffer.layout = storage ? Layout::Std430 : Layout::Std140;
  buffer.line = line;
  DescriptorBinding binding;
  binding.kind = kind;
  binding.set = point.set;
  binding.binding = point.binding;
  binding.buffers = {buffer.name};
  binding.descriptorOffsets = {0};
  binding.descriptorRanges = {DescriptorBinding::kWholeSize};
  binding.line = line;
  pipeline.bindings.push_back(std::move(binding));
  script.buffers.push_back(std::move(buffer));
  return &script.buffers.back();
}

/// The rest of `TYPE OFFSET values` into \p buffer as a BufferWrite command.
Error TestSectionReader::write(Buffer &buffer, const Token &first,
                               StringRef context) {
  Expected<Type> type = typeName(context);
  if (!type)
    return type.takeError();
  // Not for push constants: Amber makes each `uniform` write a buffer of
  // its own type.
  if (buffer.name != kPushConstantsName)
    if (Error err = typeBuffer(buffer, *type, first.line, context,
                               /*reads=*/false))
      return err;
  Expected<uint64_t> offset = integer("offset", context, kMaxBufferBytes);
  if (!offset)
    return offset.takeError();
  uint64_t stride = elementStride(*type, buffer.layout);
  if (*offset % stride)
    return error(first.line, "offset " + Twine(*offset) + " in " + context +
                                 " is not a multiple of " + Twine(stride) +
                                 " (the size of " + type->name + ")");
  Expected<std::vector<Value>> data = values(*type, buffer.layout, context);
  if (!data)
    return data.takeError();
  uint64_t end = *offset + packValues(*type, buffer.layout, *data).size();
  if (end > kMaxBufferBytes)
    return error(first.line, context + " writes up to byte " + Twine(end) +
                                 "; the limit is " + Twine(kMaxBufferBytes));
  buffer.minSizeInBytes = std::max(buffer.minSizeInBytes, end);
  auto command = std::make_unique<BufferWriteCommand>();
  command->line = first.line;
  command->buffer = buffer.name;
  command->offset = *offset;
  command->type = std::move(*type);
  command->layout = buffer.layout;
  command->values = std::move(*data);
  script.commands.push_back(std::move(command));
  return Error::success();
}

/// The first write or probe of a buffer gives it its type, as Amber's
/// SetFormat replaces a buffer's default format; later ones must agree.
Error TestSectionReader::typeBuffer(Buffer &buffer, const Type &type,
                                    unsigned line, StringRef context,
                                    bool reads) {
  if (!parser.typedBuffers.contains(buffer.name)) {
    buffer.type = type;
    parser.typedBuffers.insert(buffer.name);
    return Error::success();
  }
  if (buffer.type.name == type.name)
    return Error::success();
  return error(line, context + (reads ? " reads " : " writes ") + type.name +
                         (reads ? " from '" : " to '") + buffer.name +
                         "', which holds " + buffer.type.name);
}

Error TestSectionReader::ssbo(const Token &first) {
  Expected<BindingPoint> point = bindingPoint("ssbo");
  if (!point)
    return point.takeError();
  Expected<Buffer *> buffer =
      bufferAt(*point, DescriptorKind::StorageBuffer, first.line, "ssbo");
  if (!buffer)
    return buffer.takeError();
  if (tokens.peek().is("subdata")) {
    tokens.next();
    return write(**buffer, first, "ssbo subdata");
  }
  // Elements of the buffer's type, whichever typed command gives it (before
  // or after), as Amber's SetElementCount: `ssbo 0:1 4` then `probe ssbo
  // ivec2 0:1 ...` is 32 bytes.
  Expected<uint64_t> size = integer("size", "ssbo", kMaxBufferBytes);
  if (!size)
    return size.takeError();
  (*buffer)->elementCount = *size;
  return endOfStatement("ssbo");
}

Error TestSectionReader::uniform(const Token &first) {
  if (tokens.peek().is("ubo")) {
    tokens.next();
    Expected<BindingPoint> point = bindingPoint("uniform ubo");
    if (!point)
      return point.takeError();
    Expected<Buffer *> buffer = bufferAt(*point, DescriptorKind::UniformBuffer,
                                         first.line, "uniform ubo");
    if (!buffer)
      return buffer.takeError();
    return write(**buffer, first, "uniform ubo");
  }
  Buffer *pushConstants = parser.findBuffer(kPushConstantsName);
  if (!pushConstants) {
    Buffer buffer;
    buffer.name = kPushConstantsName.str();
    buffer.type = Type::number(ScalarType::sint(8));
    buffer.type.name = "int8";
    buffer.line = first.line;
    script.buffers.push_back(std::move(buffer));
    parser.pipeline().pushConstantBuffer = kPushConstantsName.str();
    pushConstants = &script.buffers.back();
  }
  return write(*pushConstants, first, "uniform");
}

Error TestSectionReader::probeSsbo(const Token &first) {
  StringRef context = "probe ssbo";
  Expected<Type> type = typeName(context);
  if (!type)
    return type.takeError();
  Expected<BindingPoint> point = bindingPoint(context);
  if (!point)
    return point.takeError();
  const DescriptorBinding *binding =
      parser.pipeline().findBinding(point->set, point->binding);
  if (!binding)
    return error(first.line, "no buffer at binding " + Twine(point->set) + ":" +
                                 Twine(point->binding) + " in " + context);
  Buffer *buffer = parser.findBuffer(binding->buffers.front());
  if (Error err =
          typeBuffer(*buffer, *type, first.line, context, /*reads=*/true))
    return err;
  auto expect = std::make_unique<ExpectCommand>();
  expect->line = first.line;
  expect->buffer = buffer->name;
  expect->layout = buffer->layout;
  Expected<uint64_t> offset =
      integer("offset", context, std::numeric_limits<uint64_t>::max() - 1);
  if (!offset)
    return offset.takeError();
  expect->offset = *offset;
  Token comparator = tokens.next();
  std::optional<Comparator> comparatorValue =
      comparator.isWord() ? parseComparator(comparator.text) : std::nullopt;
  if (!comparatorValue)
    return error(comparator.line, "expected ==, !=, <, <=, >, >= or ~= in " +
                                      context + ", got " + quote(comparator));
  expect->comparator = *comparatorValue;
  if (expect->comparator == Comparator::FuzzyEqual)
    expect->tolerances = parser.tolerances;
  Expected<std::vector<Value>> data = values(*type, buffer->layout, context);
  if (!data)
    return data.takeError();
  expect->values = std::move(*data);
  expect->type = std::move(*type);
  script.commands.push_back(std::move(expect));
  return Error::success();
}

Expected<double> TestSectionReader::listNumber(StringRef what,
                                               StringRef context) {
  if (tokens.peek().is(","))
    tokens.next();
  return number(what, context);
}

Error TestSectionReader::probe(const Token &first, bool relative) {
  if (tokens.peek().is("ssbo")) {
    tokens.next();
    // Amber ignores `relative` for an ssbo probe.
    return probeSsbo(first);
  }
  std::string context = relative ? "relative probe" : "probe";
  auto expect = std::make_unique<ExpectRectCommand>();
  expect->line = first.line;
  expect->relative = relative;
  expect->tolerances = parser.tolerances;
  bool rect = false;
  Expected<Token> shape = word("rgb or rgba", context);
  if (!shape)
    return shape.takeError();
  if (shape->is("rect") || shape->is("all")) {
    rect = shape->is("rect");
    expect->wholeImage = shape->is("all");
    shape = word("rgb or rgba", context);
    if (!shape)
      return shape.takeError();
  }
  if (!shape->is("rgb") && !shape->is("rgba"))
    return error(shape->line, "expected rgb or rgba in " + context + ", got '" +
                                  shape->text + "'");
  expect->hasAlpha = shape->is("rgba");
  expect->color[3] = 1.0;
  // (x, y[, w, h]) then (r, g, b[, a]); brackets and commas optional.
  auto list = [&](llvm::MutableArrayRef<double> into, StringRef what) -> Error {
    bool open = tokens.peek().is("(");
    if (open)
      tokens.next();
    for (double &value : into) {
      Expected<double> number = listNumber(what, context);
      if (!number)
        return number.takeError();
      value = *number;
    }
    Token close = tokens.peek();
    if (open != close.is(")"))
      return error(close.line, (open ? "missing ) in " : "unmatched ) in ") +
                                   Twine(context));
    if (open)
      tokens.next();
    return Error::success();
  };
  if (!expect->wholeImage) {
    double area[4] = {0, 0, 1, 1};
    if (Error err = list(llvm::MutableArrayRef<double>(area, rect ? 4 : 2),
                         "coordinate"))
      return err;
    expect->x = static_cast<float>(area[0]);
    expect->y = static_cast<float>(area[1]);
    expect->width = static_cast<float>(area[2]);
    expect->height = static_cast<float>(area[3]);
    expect->point = !rect;
  }
  if (Error err = list(llvm::MutableArrayRef<double>(expect->color.data(),
                                                     expect->hasAlpha ? 4 : 3),
                       "colour value"))
    return err;
  expect->buffer = parser.framebuffer().name;
  script.commands.push_back(std::move(expect));
  return endOfStatement(context);
}

Error TestSectionReader::tolerance(const Token &first) {
  std::vector<Tolerance> values;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    if (token.is(","))
      continue;
    std::optional<Value> literal = parseNumberLiteral(token.text);
    if (!literal || values.size() == 4)
      return error(token.line, "unexpected " + quote(token) + " in tolerance");
    Tolerance tolerance{literal->asDouble(), false};
    if (tokens.peek().is("%")) {
      tokens.next();
      tolerance.percent = true;
    }
    values.push_back(tolerance);
  }
  if (values.size() != 1 && values.size() != 4)
    return error(first.line,
                 "tolerance takes 1 or 4 values, not " + Twine(values.size()));
  parser.tolerances = std::move(values);
  return Error::success();
}

Error TestSectionReader::clear(const Token &first) {
  auto clear = std::make_unique<ClearCommand>();
  clear->line = first.line;
  clear->pipeline = kPipelineName.str();
  Token what = tokens.peek();
  std::string context = "clear";
  if (what.is("color") || what.is("depth") || what.is("stencil")) {
    tokens.next();
    context += " " + what.text.str();
    clear->target = what.is("color")   ? ClearCommand::Target::Color
                    : what.is("depth") ? ClearCommand::Target::Depth
                                       : ClearCommand::Target::Stencil;
    unsigned count = what.is("color") ? 4 : 1;
    for (unsigned i = 0; i < count; ++i) {
      if (clear->target == ClearCommand::Target::Stencil) {
        Expected<uint32_t> stencil = uint32("value", context);
        if (!stencil)
          return stencil.takeError();
        clear->values[i] = *stencil;
        continue;
      }
      Expected<double> value = number("value", context);
      if (!value)
        return value.takeError();
      clear->values[i] = *value;
    }
  }
  script.commands.push_back(std::move(clear));
  return endOfStatement(context);
}

Error TestSectionReader::draw(const Token &first) {
  Expected<Token> kind = word("rect or arrays", "draw");
  if (!kind)
    return kind.takeError();
  auto draw = std::make_unique<DrawCommand>();
  draw->line = first.line;
  draw->pipeline = kPipelineName.str();
  std::string context = "draw " + kind->text.str();
  if (kind->is("rect")) {
    draw->drawKind = DrawCommand::DrawKind::Rect;
    while (tokens.peek().is("ortho") || tokens.peek().is("patch")) {
      Token option = tokens.next();
      (option.is("ortho") ? draw->ortho : draw->patch) = true;
    }
    float *fields[] = {&draw->x, &draw->y, &draw->width, &draw->height};
    for (float *field : fields) {
      Expected<double> value = number("coordinate", context);
      if (!value)
        return value.takeError();
      *field = static_cast<float>(*value);
    }
  } else if (kind->is("arrays")) {
    draw->drawKind = DrawCommand::DrawKind::Array;
    bool instanced = false;
    Token token = tokens.next();
    for (; token.is("indexed") || token.is("instanced");
         token = tokens.next()) {
      draw->indexed |= token.is("indexed");
      instanced |= token.is("instanced");
    }
    if (!token.isWord() || !isTopology(token.text))
      return error(token.line,
                   "unknown topology " + quote(token) + " in " + context);
    draw->topology = token.text.str();
    Expected<uint32_t> firstVertex = uint32("first vertex", context);
    if (!firstVertex)
      return firstVertex.takeError();
    Expected<uint32_t> count = uint32("vertex count", context);
    if (!count)
      return count.takeError();
    draw->firstVertex = *firstVertex;
    draw->vertexCount = *count;
    if (instanced && !tokens.peek().isEnd()) {
      Expected<uint32_t> instances = uint32("instance count", context);
      if (!instances)
        return instances.takeError();
      draw->instanceCount = *instances;
    }
  } else {
    return error(kind->line, "expected rect or arrays after draw, got '" +
                                 kind->text + "'");
  }
  if (parser.pipeline().isCompute())
    return error(first.line, context + " needs graphics shaders");
  script.commands.push_back(std::move(draw));
  return endOfStatement(context);
}

Error TestSectionReader::compute(const Token &first) {
  if (tokens.peek().is("entrypoint"))
    return entryPoint(first, ShaderStage::Compute);
  if (!parser.pipeline().isCompute())
    return error(first.line, "compute needs a [compute shader]");
  auto run = std::make_unique<RunCommand>();
  run->line = first.line;
  run->pipeline = kPipelineName.str();
  for (uint32_t &count : run->groups) {
    Expected<uint32_t> value = uint32("workgroup count", "compute");
    if (!value)
      return value.takeError();
    count = *value;
  }
  script.commands.push_back(std::move(run));
  return endOfStatement("compute");
}

Error TestSectionReader::entryPoint(const Token &first, ShaderStage stage) {
  std::string context = (stageName(stage) + " entrypoint").str();
  if (Error err = keyword("entrypoint", stageName(stage)))
    return err;
  Expected<Token> name = word("entry point name", context);
  if (!name)
    return name.takeError();
  auto entry = std::make_unique<EntryPointCommand>();
  entry->line = first.line;
  entry->pipeline = kPipelineName.str();
  entry->stage = stage;
  entry->entryPoint = name->text.str();
  script.commands.push_back(std::move(entry));
  return endOfStatement(context);
}

Error TestSectionReader::pipelineState(const Token &first) {
  auto state = std::make_unique<GraphicsStateCommand>();
  state->line = first.line;
  state->pipeline = kPipelineName.str();
  state->text = first.text.str();
  unsigned count = 0;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    state->text += " " + token.text.str();
    ++count;
  }
  if (!count)
    return error(first.line, "missing value in " + first.text);
  script.commands.push_back(std::move(state));
  return Error::success();
}

Error VkScriptParser::processSection(const Section &section) {
  switch (section.kind) {
  case SectionKind::Comment:
    return Error::success();
  case SectionKind::Shader:
    return processShader(section);
  case SectionKind::Require:
    return processRequire(section);
  case SectionKind::Indices:
    return processIndices(section);
  case SectionKind::VertexData:
    return processVertexData(section);
  case SectionKind::Test:
    return TestSectionReader(*this, section).read();
  }
  return Error::success();
}

Expected<Script> VkScriptParser::parse() {
  Expected<std::vector<Section>> sections = splitSections(text, fileName);
  if (!sections)
    return sections.takeError();
  Pipeline pipeline;
  pipeline.name = kPipelineName.str();
  pipeline.framebufferWidth = kDefaultFramebufferSize;
  pipeline.framebufferHeight = kDefaultFramebufferSize;
  pipeline.kind = llvm::any_of(*sections,
                               [](const Section &section) {
                                 return section.kind == SectionKind::Shader &&
                                        section.stage != ShaderStage::Compute;
                               })
                      ? PipelineKind::Graphics
                      : PipelineKind::Compute;
  script.pipelines.push_back(std::move(pipeline));
  if (!this->pipeline().isCompute())
    framebuffer();
  for (const Section &section : *sections)
    if (Error err = processSection(section))
      return err;
  // `ssbo N size` counts elements of the type the buffer ended with.
  for (const Buffer &buffer : script.buffers)
    if (buffer.byteSize() > kMaxBufferBytes)
      return error(buffer.line, "buffer '" + buffer.name + "' needs " +
                                    Twine(buffer.byteSize()) +
                                    " bytes; the limit is " +
                                    Twine(kMaxBufferBytes));
  return std::move(script);
}

} // namespace

std::optional<Type> spvb::amber::parseVkScriptTypeName(StringRef name) {
  std::optional<ScalarType> scalar =
      llvm::StringSwitch<std::optional<ScalarType>>(name)
          .Case("int", ScalarType::sint(32))
          .Case("uint", ScalarType::uint(32))
          .Case("int8_t", ScalarType::sint(8))
          .Case("uint8_t", ScalarType::uint(8))
          .Case("int16_t", ScalarType::sint(16))
          .Case("uint16_t", ScalarType::uint(16))
          .Case("int64_t", ScalarType::sint(64))
          .Case("uint64_t", ScalarType::uint(64))
          .Case("float", ScalarType::sfloat(32))
          .Case("double", ScalarType::sfloat(64))
          .Default(std::nullopt);
  Type type;
  // Amber's DatumTypeParser: a name holding "vec" or "mat" is read by
  // letters, so f16vec2 is two float16s and bvec2 two floats. Sizes past
  // 2..4, which Amber reads into unusable types, are refused.
  auto dimension = [&](size_t at, uint32_t absent) -> uint32_t {
    if (at >= name.size())
      return absent;
    char c = name[at];
    return c >= '2' && c <= '4' ? c - '0' : 0;
  };
  if (scalar) {
    type = Type::number(*scalar);
  } else if (size_t vec = name.find("vec"); vec != StringRef::npos) {
    uint32_t bits = name[0] == 'd' ? 64 : 32;
    if (name.size() > 1 && name[1] == '8')
      bits = 8;
    else if (name.substr(1, 2) == "16")
      bits = 16;
    else if (name.substr(1, 2) == "64")
      bits = 64;
    ScalarType element = name[0] == 'i'   ? ScalarType::sint(bits)
                         : name[0] == 'u' ? ScalarType::uint(bits)
                                          : ScalarType::sfloat(bits);
    uint32_t rows = dimension(vec + 3, 4);
    if (!rows || name.size() > vec + 4)
      return std::nullopt;
    type = Type::number(element, rows);
  } else if (size_t mat = name.find("mat"); mat != StringRef::npos) {
    // "mat" alone is a 1x1 matrix in Amber, a float.
    uint32_t columns = dimension(mat + 3, 1);
    uint32_t rows = name.size() > mat + 5 ? dimension(mat + 5, 0) : columns;
    if (!columns || !rows || name.size() > mat + 6)
      return std::nullopt;
    type = Type::number(ScalarType::sfloat(name[0] == 'd' ? 64 : 32), rows,
                        columns);
  } else {
    return std::nullopt;
  }
  type.name = name.str();
  return type;
}

Expected<Script> spvb::amber::parseVkScript(StringRef text,
                                            StringRef fileName) {
  return VkScriptParser(text, fileName).parse();
}
