//===- AmberParser.cpp - Parse AmberScript --------------------------------===//
//
// A recursive-descent parser over AmberTokenizer's words, one method per
// command. Messages follow one pattern so that tests and users can rely on
// them: "unknown buffer 'x' in BIND", "missing END for PIPELINE 'p' (opened
// at line 4)", "malformed number 'x' in DATA", "unexpected 'x' after RUN".
//
//===----------------------------------------------------------------------===//

#include "spvbridge/amber/AmberParser.h"

#include "spvbridge/amber/ScriptReader.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <limits>

using namespace spvb::amber;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

namespace {

/// Buffers larger than this are refused: they are mistakes, and an
/// executor would fail to allocate them anyway.
constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 30;
/// `T[N]` sizes above this are refused for the same reason.
constexpr uint32_t kMaxArraySize = 1u << 20;

std::optional<ShaderStage> parseStage(StringRef name) {
  return llvm::StringSwitch<std::optional<ShaderStage>>(name)
      .Case("vertex", ShaderStage::Vertex)
      .Case("fragment", ShaderStage::Fragment)
      .Case("geometry", ShaderStage::Geometry)
      .Case("tessellation_evaluation", ShaderStage::TessellationEvaluation)
      .Case("tessellation_control", ShaderStage::TessellationControl)
      .Case("compute", ShaderStage::Compute)
      .Case("multi", ShaderStage::Multi)
      .Case("ray_generation", ShaderStage::RayGeneration)
      .Case("any_hit", ShaderStage::AnyHit)
      .Case("closest_hit", ShaderStage::ClosestHit)
      .Case("miss", ShaderStage::Miss)
      .Case("intersection", ShaderStage::Intersection)
      .Case("callable", ShaderStage::Callable)
      .Default(std::nullopt);
}

std::optional<ShaderFormat> parseShaderFormat(StringRef name) {
  return llvm::StringSwitch<std::optional<ShaderFormat>>(name)
      .Case("GLSL", ShaderFormat::Glsl)
      .Case("HLSL", ShaderFormat::Hlsl)
      .Case("SPIRV-ASM", ShaderFormat::SpirvAsm)
      .Case("SPIRV-HEX", ShaderFormat::SpirvHex)
      .Case("SPIRV-BIN", ShaderFormat::SpirvBin)
      .Case("OPENCL-C", ShaderFormat::OpenClC)
      .Default(std::nullopt);
}

std::optional<DescriptorKind> parseDescriptorKind(StringRef name) {
  return llvm::StringSwitch<std::optional<DescriptorKind>>(name)
      .Case("uniform", DescriptorKind::UniformBuffer)
      .Case("storage", DescriptorKind::StorageBuffer)
      .Case("uniform_dynamic", DescriptorKind::UniformBufferDynamic)
      .Case("storage_dynamic", DescriptorKind::StorageBufferDynamic)
      .Case("storage_image", DescriptorKind::StorageImage)
      .Case("sampled_image", DescriptorKind::SampledImage)
      .Case("combined_image_sampler", DescriptorKind::CombinedImageSampler)
      .Case("uniform_texel_buffer", DescriptorKind::UniformTexelBuffer)
      .Case("storage_texel_buffer", DescriptorKind::StorageTexelBuffer)
      .Default(std::nullopt);
}

std::optional<Comparator> parseComparator(StringRef name) {
  return llvm::StringSwitch<std::optional<Comparator>>(name)
      .Case("EQ", Comparator::Equal)
      .Case("NE", Comparator::NotEqual)
      .Case("LT", Comparator::Less)
      .Case("LE", Comparator::LessOrEqual)
      .Case("GT", Comparator::Greater)
      .Case("GE", Comparator::GreaterOrEqual)
      .Default(std::nullopt);
}

std::optional<Filter> parseFilter(StringRef name) {
  return llvm::StringSwitch<std::optional<Filter>>(name)
      .Case("nearest", Filter::Nearest)
      .Case("linear", Filter::Linear)
      .Default(std::nullopt);
}

std::optional<AddressMode> parseAddressMode(StringRef name) {
  return llvm::StringSwitch<std::optional<AddressMode>>(name)
      .Case("repeat", AddressMode::Repeat)
      .Case("mirrored_repeat", AddressMode::MirroredRepeat)
      .Case("clamp_to_edge", AddressMode::ClampToEdge)
      .Case("clamp_to_border", AddressMode::ClampToBorder)
      .Case("mirror_clamp_to_edge", AddressMode::MirrorClampToEdge)
      .Default(std::nullopt);
}

std::optional<BorderColor> parseBorderColor(StringRef name) {
  return llvm::StringSwitch<std::optional<BorderColor>>(name)
      .Case("float_transparent_black", BorderColor::FloatTransparentBlack)
      .Case("int_transparent_black", BorderColor::IntTransparentBlack)
      .Case("float_opaque_black", BorderColor::FloatOpaqueBlack)
      .Case("int_opaque_black", BorderColor::IntOpaqueBlack)
      .Case("float_opaque_white", BorderColor::FloatOpaqueWhite)
      .Case("int_opaque_white", BorderColor::IntOpaqueWhite)
      .Default(std::nullopt);
}

std::optional<CompareOp> parseCompareOp(StringRef name) {
  return llvm::StringSwitch<std::optional<CompareOp>>(name)
      .Case("never", CompareOp::Never)
      .Case("less", CompareOp::Less)
      .Case("equal", CompareOp::Equal)
      .Case("less_or_equal", CompareOp::LessOrEqual)
      .Case("greater", CompareOp::Greater)
      .Case("not_equal", CompareOp::NotEqual)
      .Case("greater_or_equal", CompareOp::GreaterOrEqual)
      .Case("always", CompareOp::Always)
      .Default(std::nullopt);
}

bool isDynamic(DescriptorKind kind) {
  return kind == DescriptorKind::UniformBufferDynamic ||
         kind == DescriptorKind::StorageBufferDynamic;
}

/// The commands REPEAT may hold.
bool isRepeatable(StringRef name) {
  return name == "RUN" || name == "EXPECT" || name == "COPY" ||
         name == "CLEAR" || name == "CLEAR_COLOR" || name == "CLEAR_DEPTH" ||
         name == "CLEAR_STENCIL";
}

class AmberParser : ScriptReader {
public:
  AmberParser(StringRef text, StringRef fileName)
      : ScriptReader(text, fileName) {
    script.format = ScriptFormat::AmberScript;
    script.fileName = fileName.str();
  }

  Expected<Script> parse();

private:
  Error parseTopLevel(const Token &token);
  using CommandList = std::vector<std::unique_ptr<Command>>;

  // Words and numbers beyond ScriptReader's.
  Expected<bool> onOff(const Twine &context);
  Error endBlockLine(const RawBlock &block, const Twine &context);
  Expected<std::string> readFile(const Token &path, bool binary,
                                 const Twine &context, std::string &resolved);

  // Names.
  Expected<const Buffer *> buffer(const Twine &context);
  Expected<const Pipeline *> pipeline(const Twine &context);
  Expected<const Sampler *> sampler(const Twine &context);
  Error checkNewName(const Token &name, StringRef kind, bool taken);
  Expected<Type> typeName(const Token &name, const Twine &context);

  // Top-level declarations.
  Error parseShader(const Token &keyword);
  Error parseVirtualFile(const Token &keyword);
  Error parseStruct(const Token &keyword);
  Error parseBuffer(const Token &keyword, bool isImage);
  Error parseBufferData(Buffer &buffer, StringRef context, unsigned openLine);
  Error parseTextFile(Buffer &buffer, const Token &path, StringRef context);
  Error finishBuffer(Buffer &buffer, const Token &keyword,
                     std::optional<uint64_t> size, StringRef context);
  Error parseSampler(const Token &keyword);
  Error parseSamplerOption(Sampler &sampler, const Token &token,
                           StringRef context);
  template <typename T>
  Error enumOption(const Token &key, StringRef context,
                   std::optional<T> (*parseValue)(StringRef), T &field);
  Error parseStringCommand(std::vector<std::string> &into, StringRef context);
  Error parseSetEngineData();

  // Pipelines.
  Error parsePipeline(const Token &keyword);
  Error parseDerivePipeline(const Token &keyword);
  Error parsePipelineBody(Pipeline &pipeline, StringRef context,
                          unsigned openLine);
  Error parsePipelineCommand(Pipeline &pipeline, const Token &token,
                             StringRef context);
  Error parseAttach(Pipeline &pipeline, const Token &keyword);
  Error parseSpecialization(ShaderAttachment &attachment);
  Expected<ShaderAttachment *> attached(Pipeline &pipeline, StringRef context);
  Error parseWordBlock(std::vector<std::string> &into, const Twine &context,
                       unsigned openLine);
  Error parseSubgroup(Pipeline &pipeline, const Token &keyword);
  Error parseBind(Pipeline &pipeline, const Token &keyword);
  Error parseBindTail(DescriptorBinding &binding, StringRef context);
  Error parseKernelArg(KernelArgBinding &arg, StringRef context);
  Error parseSetKernel(Pipeline &pipeline, const Token &keyword);
  Error parseVertexData(Pipeline &pipeline);
  Error parseGraphicsSetting(Pipeline &pipeline, const Token &keyword,
                             bool isBlock);

  // Commands.
  Error parseCommand(const Token &keyword, CommandList &commands);
  Error parseRun(const Token &keyword, CommandList &commands);
  Error parseExpect(const Token &keyword, CommandList &commands);
  Error parseExpectRect(const Token &keyword, const Buffer &target, float x,
                        float y, CommandList &commands);
  Expected<std::vector<Tolerance>> tolerances(StringRef context);
  Error parseCopy(const Token &keyword, CommandList &commands);
  Error parseClear(const Token &keyword, CommandList &commands);
  Error parseRepeat(const Token &keyword, CommandList &commands);
  Error parseDebug(const Token &keyword, CommandList &commands);

  Script script;
};

//===----------------------------------------------------------------------===//
// Words and numbers
//===----------------------------------------------------------------------===//

Expected<bool> AmberParser::onOff(const Twine &context) {
  Token token = tokens.next();
  if (token.is("on") || token.is("true"))
    return true;
  if (token.is("off") || token.is("false"))
    return false;
  return error(token.line,
               "expected on or off in " + context + ", got " + quote(token));
}

Error AmberParser::endBlockLine(const RawBlock &block, const Twine &context) {
  StringRef rest = block.endLineRest.trim();
  if (!rest.empty() && !rest.starts_with("#"))
    return error(block.endLine, "unexpected '" +
                                    rest.take_until(llvm::isSpace) +
                                    "' after END of " + context);
  return Error::success();
}

std::string resolvePath(StringRef scriptFile, StringRef path) {
  if (llvm::sys::path::is_absolute(path))
    return path.str();
  llvm::SmallString<256> resolved(llvm::sys::path::parent_path(scriptFile));
  llvm::sys::path::append(resolved, path);
  return std::string(resolved);
}

Expected<std::string> AmberParser::readFile(const Token &path, bool binary,
                                            const Twine &context,
                                            std::string &resolved) {
  resolved = resolvePath(fileName, path.text);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> contents =
      llvm::MemoryBuffer::getFile(resolved, /*IsText=*/!binary);
  if (!contents)
    return error(path.line, "cannot read '" + path.text + "' in " + context +
                                ": " + contents.getError().message());
  return (*contents)->getBuffer().str();
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

Expected<const Buffer *> AmberParser::buffer(const Twine &context) {
  Expected<Token> name = word("buffer name", context);
  if (!name)
    return name.takeError();
  if (const Buffer *found = script.findBuffer(name->text))
    return found;
  return error(name->line, "unknown buffer '" + name->text + "' in " + context);
}

Expected<const Pipeline *> AmberParser::pipeline(const Twine &context) {
  Expected<Token> name = word("pipeline name", context);
  if (!name)
    return name.takeError();
  if (const Pipeline *found = script.findPipeline(name->text))
    return found;
  return error(name->line,
               "unknown pipeline '" + name->text + "' in " + context);
}

Expected<const Sampler *> AmberParser::sampler(const Twine &context) {
  Expected<Token> name = word("sampler name", context);
  if (!name)
    return name.takeError();
  if (const Sampler *found = script.findSampler(name->text))
    return found;
  return error(name->line,
               "unknown sampler '" + name->text + "' in " + context);
}

Error AmberParser::checkNewName(const Token &name, StringRef kind, bool taken) {
  if (taken)
    return error(name.line, "duplicate " + kind + " name '" + name.text + "'");
  return Error::success();
}

Expected<Type> AmberParser::typeName(const Token &name, const Twine &context) {
  StringRef base = name.text;
  Type type;
  if (base.ends_with("]")) {
    size_t open = base.rfind('[');
    StringRef size = base.slice(open + 1, base.size() - 1);
    if (open == StringRef::npos ||
        (!size.empty() &&
         (size.getAsInteger(10, type.arraySize) || type.arraySize == 0 ||
          type.arraySize > kMaxArraySize)))
      return error(name.line, "unknown type '" + name.text + "' in " + context);
    type.isArray = true;
    base = base.take_front(open);
  }
  Type element;
  if (const StructType *structType = script.findStruct(base)) {
    element.kind = Type::Kind::Struct;
    for (const std::shared_ptr<const StructType> &shared : script.structs)
      if (shared.get() == structType)
        element.structType = shared;
  } else if (std::optional<Type> numberType = parseNumberTypeName(base)) {
    element = std::move(*numberType);
  } else if (std::optional<Type> formatType = parseFormatName(base)) {
    element = std::move(*formatType);
  } else {
    return error(name.line, "unknown type '" + name.text + "' in " + context);
  }
  element.isArray = type.isArray;
  element.arraySize = type.arraySize;
  element.name = name.text.str();
  return element;
}

//===----------------------------------------------------------------------===//
// Top-level declarations
//===----------------------------------------------------------------------===//

Error AmberParser::parseShader(const Token &keyword) {
  Shader shader;
  shader.line = keyword.line;
  Expected<Token> stage = word("shader type", "SHADER");
  if (!stage)
    return stage.takeError();
  std::optional<ShaderStage> stageValue = parseStage(stage->text);
  if (!stageValue)
    return error(stage->line,
                 "unknown shader type '" + stage->text + "' in SHADER");
  shader.stage = *stageValue;
  Expected<Token> name = word("shader name", "SHADER");
  if (!name)
    return name.takeError();
  if (Error err = checkNewName(*name, "shader", script.findShader(name->text)))
    return err;
  shader.name = name->text.str();
  Expected<Token> format = word("shader format", "SHADER");
  if (!format)
    return format.takeError();
  std::string context = "SHADER '" + shader.name + "'";
  if (format->is("PASSTHROUGH")) {
    if (shader.stage != ShaderStage::Vertex)
      return error(format->line, "PASSTHROUGH is only for vertex shaders, "
                                 "not " +
                                     stageName(shader.stage) + " in " +
                                     context);
    shader.passthrough = true;
    shader.format = ShaderFormat::SpirvAsm;
    script.shaders.push_back(std::move(shader));
    return endOfStatement("SHADER PASSTHROUGH");
  }
  std::optional<ShaderFormat> formatValue = parseShaderFormat(format->text);
  if (!formatValue)
    return error(format->line,
                 "unknown shader format '" + format->text + "' in SHADER");
  shader.format = *formatValue;

  bool fromFile = false;
  Token token = tokens.next();
  for (; !token.isEnd(); token = tokens.next()) {
    if (token.is("TARGET_ENV")) {
      Expected<Token> env = word("TARGET_ENV value", context);
      if (!env)
        return env.takeError();
      shader.targetEnv = env->text.str();
    } else if (token.is("FILE")) {
      Expected<Token> path = word("file name", context);
      if (!path)
        return path.takeError();
      bool binary = shader.format == ShaderFormat::SpirvBin;
      if (path->is("BINARY") || path->is("TEXT")) {
        binary = path->is("BINARY");
        path = word("file name", context);
        if (!path)
          return path.takeError();
      }
      Expected<std::string> contents =
          readFile(*path, binary, context, shader.resolvedPath);
      if (!contents)
        return contents.takeError();
      shader.filePath = path->text.str();
      shader.source = std::move(*contents);
      fromFile = true;
    } else if (token.is("VIRTUAL_FILE")) {
      Expected<Token> path = word("virtual file name", context);
      if (!path)
        return path.takeError();
      const VirtualFile *file = script.findVirtualFile(path->text);
      if (!file)
        return error(path->line,
                     "unknown virtual file '" + path->text + "' in " + context);
      shader.virtualFile = file->name;
      shader.source = file->contents;
      fromFile = true;
    } else {
      return error(token.line, "unexpected " + quote(token) + " in " + context);
    }
  }
  if (!fromFile) {
    if (token.kind == Token::Kind::EndOfFile)
      return error(keyword.line, "missing END for " + context +
                                     " (opened at line " + Twine(keyword.line) +
                                     ")");
    RawBlock block = tokens.takeBlock();
    if (!block.endLine)
      return error(keyword.line, "missing END for " + context +
                                     " (opened at line " + Twine(keyword.line) +
                                     ")");
    if (block.text.trim().empty())
      return error(keyword.line, context + " has no source");
    if (Error err = endBlockLine(block, context))
      return err;
    shader.source = block.text.str();
    // Amber files an inline shader as a virtual file, which a later SHADER
    // may name.
    script.virtualFiles.push_back(
        {"embedded-shaders/" + shader.name, shader.source, shader.line});
  }
  script.shaders.push_back(std::move(shader));
  return Error::success();
}

Error AmberParser::parseVirtualFile(const Token &keyword) {
  Expected<Token> name = word("file name", "VIRTUAL_FILE");
  if (!name)
    return name.takeError();
  if (Error err = checkNewName(*name, "virtual file",
                               script.findVirtualFile(name->text)))
    return err;
  std::string context = "VIRTUAL_FILE '" + name->text.str() + "'";
  Token end = tokens.next();
  if (end.kind == Token::Kind::Word || end.kind == Token::Kind::String)
    return error(end.line, "unexpected " + quote(end) + " after " + context);
  RawBlock block = tokens.takeBlock();
  if (end.kind == Token::Kind::EndOfFile || !block.endLine)
    return error(keyword.line, "missing END for " + context +
                                   " (opened at line " + Twine(keyword.line) +
                                   ")");
  if (Error err = endBlockLine(block, context))
    return err;
  script.virtualFiles.push_back(
      {name->text.str(), block.text.str(), keyword.line});
  return Error::success();
}

Error AmberParser::parseStruct(const Token &keyword) {
  Expected<Token> name = word("struct name", "STRUCT");
  if (!name)
    return name.takeError();
  if (Error err = checkNewName(*name, "struct", script.findStruct(name->text)))
    return err;
  auto structType = std::make_shared<StructType>();
  structType->name = name->text.str();
  std::string context = "STRUCT '" + structType->name + "'";
  Token token = tokens.next();
  if (token.is("STRIDE")) {
    Expected<uint64_t> stride = integer("STRIDE value", context);
    if (!stride)
      return stride.takeError();
    structType->stride = static_cast<uint32_t>(*stride);
    token = tokens.next();
  }
  if (!token.isEnd())
    return error(token.line,
                 "unexpected " + quote(token) + " after " + context);

  for (token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(keyword.line, "missing END for " + context +
                                     " (opened at line " + Twine(keyword.line) +
                                     ")");
    if (token.is("END"))
      break;
    if (token.text == structType->name)
      return error(token.line, context + " cannot contain itself");
    StructMember member;
    Expected<Type> type = typeName(token, context);
    if (!type)
      return type.takeError();
    member.type = std::move(*type);
    Expected<Token> memberName = word("member name", context);
    if (!memberName)
      return memberName.takeError();
    for (const StructMember &other : structType->members)
      if (other.name == memberName->text)
        return error(memberName->line, "duplicate member '" + memberName->text +
                                           "' in " + context);
    member.name = memberName->text.str();
    for (Token option = tokens.next(); !option.isEnd();
         option = tokens.next()) {
      std::string what =
          option.text.str() + " of member '" + member.name + "' in " + context;
      Expected<uint64_t> value = integer("value", what);
      if (!value)
        return value.takeError();
      if (option.is("OFFSET")) {
        member.offset = static_cast<uint32_t>(*value);
      } else if (option.is("ARRAY_STRIDE")) {
        if (!member.type.isArray)
          return error(option.line, "ARRAY_STRIDE of non-array member '" +
                                        member.name + "' in " + context);
        member.arrayStride = static_cast<uint32_t>(*value);
      } else if (option.is("MATRIX_STRIDE")) {
        if (!member.type.isMatrix())
          return error(option.line, "MATRIX_STRIDE of non-matrix member '" +
                                        member.name + "' in " + context);
        member.matrixStride = static_cast<uint32_t>(*value);
      } else {
        return error(option.line, "unexpected " + quote(option) +
                                      " for member '" + member.name + "' in " +
                                      context);
      }
    }
    structType->members.push_back(std::move(member));
  }
  if (Error err = endOfStatement("END of " + context))
    return err;
  script.structs.push_back(std::move(structType));
  return Error::success();
}

Error AmberParser::parseBufferData(Buffer &buffer, StringRef context,
                                   unsigned openLine) {
  std::vector<ScalarSlot> slots = scalarSlots(buffer.type, buffer.layout);
  if (slots.empty())
    return error(openLine, "type '" + buffer.type.name +
                               "' has no numbers in " + context);
  buffer.init = InitKind::Values;
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(openLine, "missing END for DATA of " + context +
                                 " (opened at line " + Twine(openLine) + ")");
    if (token.is("END"))
      break;
    Expected<Value> value =
        parseValueFor(token, slots[buffer.values.size() % slots.size()].scalar,
                      "DATA", fileName);
    if (!value)
      return value.takeError();
    buffer.values.push_back(*value);
  }
  return Error::success();
}

Error AmberParser::parseTextFile(Buffer &buffer, const Token &path,
                                 StringRef context) {
  Expected<std::string> contents =
      readFile(path, /*binary=*/false, context, buffer.resolvedPath);
  if (!contents)
    return contents.takeError();
  std::vector<ScalarSlot> slots = scalarSlots(buffer.type, buffer.layout);
  if (slots.empty())
    return error(path.line, "type '" + buffer.type.name +
                                "' has no numbers in " + context);
  Tokenizer fileTokens(*contents);
  for (Token token = fileTokens.next(); token.kind != Token::Kind::EndOfFile;
       token = fileTokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    Expected<Value> value =
        parseValueFor(token, slots[buffer.values.size() % slots.size()].scalar,
                      ("FILE TEXT of " + context).str(), buffer.resolvedPath);
    if (!value)
      return value.takeError();
    buffer.values.push_back(*value);
  }
  buffer.init = InitKind::Values;
  return Error::success();
}

Error AmberParser::parseBuffer(const Token &keyword, bool isImage) {
  StringRef command = isImage ? "IMAGE" : "BUFFER";
  Expected<Token> name = word("name", command);
  if (!name)
    return name.takeError();
  if (name->is("DATA_TYPE") || name->is("FORMAT"))
    return error(name->line, "missing name in " + command);
  if (Error err = checkNewName(*name, "buffer", script.findBuffer(name->text)))
    return err;
  Buffer buffer;
  buffer.name = name->text.str();
  buffer.line = keyword.line;
  std::string context = (command + " '" + buffer.name + "'").str();

  auto parseType = [&](const Token &kind) -> Error {
    buffer.declaredWithFormat = kind.is("FORMAT");
    Expected<Token> typeToken = word("type", context);
    if (!typeToken)
      return typeToken.takeError();
    if (buffer.declaredWithFormat) {
      std::optional<Type> format = parseFormatName(typeToken->text);
      if (!format)
        return error(typeToken->line,
                     "unknown format '" + typeToken->text + "' in " + context);
      buffer.type = std::move(*format);
      return Error::success();
    }
    Expected<Type> type = typeName(*typeToken, "DATA_TYPE");
    if (!type)
      return type.takeError();
    buffer.type = std::move(*type);
    return Error::success();
  };
  // A BUFFER's type comes first; an IMAGE's options come in any order.
  std::optional<Token> typeKeyword;
  if (!isImage) {
    Token kind = tokens.next();
    if (!kind.is("DATA_TYPE") && !kind.is("FORMAT"))
      return error(kind.line, "expected DATA_TYPE or FORMAT in " + context +
                                  ", got " + quote(kind));
    if (Error err = parseType(kind))
      return err;
    typeKeyword = kind;
  }

  std::optional<uint64_t> size;
  // The initializer's keyword, for "two initializers" errors.
  std::optional<Token> initializer;
  auto setInitializer = [&](const Token &token, InitKind init) -> Error {
    if (initializer)
      return error(token.line, context + " has two initializers: " +
                                   initializer->text + " and " + token.text);
    initializer = token;
    buffer.init = init;
    return Error::success();
  };
  unsigned fillLine = 0;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    if (isImage && (token.is("DATA_TYPE") || token.is("FORMAT"))) {
      if (typeKeyword)
        return error(token.line, context + " has two types: " +
                                     typeKeyword->text + " and " + token.text);
      if (Error err = parseType(token))
        return err;
      typeKeyword = token;
    } else if (token.is("STD140") || token.is("STD430")) {
      if (buffer.declaredWithFormat)
        return error(token.line,
                     token.text + " needs a DATA_TYPE in " + context);
      buffer.layout = token.is("STD140") ? Layout::Std140 : Layout::Std430;
    } else if (token.is("SIZE")) {
      Expected<uint64_t> value = integer("SIZE value", context);
      if (!value)
        return value.takeError();
      size = *value;
    } else if (token.is("WIDTH") || token.is("HEIGHT") || token.is("DEPTH")) {
      Expected<uint64_t> value = integer(token.text.str() + " value", context);
      if (!value)
        return value.takeError();
      if (*value == 0)
        return error(token.line,
                     token.text + " must be positive in " + context);
      uint32_t &extent = token.is("WIDTH")    ? buffer.width
                         : token.is("HEIGHT") ? buffer.height
                                              : buffer.depth;
      extent = static_cast<uint32_t>(*value);
    } else if (token.is("DIM_1D") || token.is("DIM_2D") || token.is("DIM_3D")) {
      if (!isImage)
        return error(token.line, token.text + " is for IMAGE, not " + context);
      buffer.dimension = token.is("DIM_1D")   ? ImageDimension::Dim1D
                         : token.is("DIM_2D") ? ImageDimension::Dim2D
                                              : ImageDimension::Dim3D;
    } else if (token.is("MIP_LEVELS")) {
      Expected<uint64_t> value = integer("MIP_LEVELS value", context);
      if (!value)
        return value.takeError();
      // Amber takes 0 too; an image has at least its base level.
      buffer.mipLevels = std::max<uint32_t>(static_cast<uint32_t>(*value), 1);
    } else if (token.is("SAMPLES")) {
      Expected<uint64_t> value = integer("SAMPLES value", context);
      if (!value)
        return value.takeError();
      if (*value == 0 || *value > 64 || (*value & (*value - 1)))
        return error(token.line, "SAMPLES must be 1, 2, 4, 8, 16, 32 or 64 "
                                 "in " +
                                     context);
      buffer.samples = static_cast<uint32_t>(*value);
    } else if (token.is("FILL")) {
      if (Error err = setInitializer(token, InitKind::Fill))
        return err;
      // Any number for any type, as Amber's FILL (converted per value).
      Expected<Value> value = literal("value", "FILL");
      if (!value)
        return value.takeError();
      buffer.fill = *value;
      fillLine = token.line;
    } else if (token.is("SERIES_FROM")) {
      if (Error err = setInitializer(token, InitKind::Series))
        return err;
      Expected<Value> start = literal("value", "SERIES_FROM");
      if (!start)
        return start.takeError();
      if (Error err = this->keyword("INC_BY", context))
        return err;
      Expected<Value> increment = literal("value", "INC_BY");
      if (!increment)
        return increment.takeError();
      buffer.seriesStart = *start;
      buffer.seriesIncrement = *increment;
    } else if (token.is("DATA")) {
      if (Error err = setInitializer(token, InitKind::Values))
        return err;
      if (Error err = parseBufferData(buffer, context, token.line))
        return err;
    } else if (token.is("FILE")) {
      Expected<Token> path = word("file name", context);
      if (!path)
        return path.takeError();
      InitKind fileKind = InitKind::Png;
      if (path->is("TEXT") || path->is("BINARY") || path->is("PNG")) {
        fileKind = path->is("TEXT")     ? InitKind::Values
                   : path->is("BINARY") ? InitKind::Bytes
                                        : InitKind::Png;
        path = word("file name", context);
        if (!path)
          return path.takeError();
      }
      if (Error err = setInitializer(token, fileKind))
        return err;
      buffer.filePath = path->text.str();
      if (fileKind == InitKind::Values) {
        if (Error err = parseTextFile(buffer, *path, context))
          return err;
      } else if (fileKind == InitKind::Bytes) {
        Expected<std::string> contents =
            readFile(*path, /*binary=*/true, context, buffer.resolvedPath);
        if (!contents)
          return contents.takeError();
        buffer.bytes.assign(contents->begin(), contents->end());
      } else {
        buffer.resolvedPath = resolvePath(fileName, path->text);
        if (!llvm::sys::fs::exists(buffer.resolvedPath))
          return error(path->line, "cannot read '" + path->text + "' in " +
                                       context + ": no such file");
      }
    } else {
      return error(token.line, "unexpected " + quote(token) + " in " + context);
    }
  }

  if (!typeKeyword)
    return error(keyword.line, "missing DATA_TYPE or FORMAT in " + context);
  // FILL's number is converted for every value when used: a struct may mix
  // types.
  if (fillLine && scalarSlots(buffer.type, buffer.layout).empty())
    return error(fillLine, "type '" + buffer.type.name +
                               "' has no numbers in " + context);
  if (buffer.init == InitKind::Series) {
    if (!buffer.type.isScalar() || buffer.type.isArray)
      return error(initializer->line, "SERIES_FROM needs a scalar type, not '" +
                                          buffer.type.name + "', in " +
                                          context);
    buffer.seriesStart = convertValue(buffer.seriesStart, buffer.type.scalar);
    buffer.seriesIncrement =
        convertValue(buffer.seriesIncrement, buffer.type.scalar);
  }
  return finishBuffer(buffer, keyword, size, context);
}

Error AmberParser::finishBuffer(Buffer &buffer, const Token &keyword,
                                std::optional<uint64_t> size,
                                StringRef context) {
  bool isImage = keyword.is("IMAGE");
  if (isImage) {
    // Amber does not ask for a DIM_*: the extents say it.
    if (buffer.dimension == ImageDimension::None)
      buffer.dimension = buffer.depth    ? ImageDimension::Dim3D
                         : buffer.height ? ImageDimension::Dim2D
                                         : ImageDimension::Dim1D;
    if (!buffer.width)
      return error(keyword.line, "missing WIDTH in " + context);
    if (buffer.dimension != ImageDimension::Dim1D && !buffer.height)
      return error(keyword.line, "missing HEIGHT in " + context);
    if (buffer.dimension == ImageDimension::Dim3D && !buffer.depth)
      return error(keyword.line, "missing DEPTH in " + context);
  } else if (buffer.width || buffer.height) {
    if (!buffer.width || !buffer.height)
      return error(keyword.line, "WIDTH and HEIGHT go together in " + context);
    buffer.dimension = ImageDimension::Dim2D;
  }
  if (buffer.dimension != ImageDimension::None) {
    buffer.height = std::max(buffer.height, 1u);
    buffer.depth = std::max(buffer.depth, 1u);
    size = uint64_t(buffer.width) * buffer.height * buffer.depth;
  }

  uint64_t stride = buffer.stride();
  if (stride > kMaxBufferBytes)
    return error(keyword.line, context + " has elements of " + Twine(stride) +
                                   " bytes; the limit is " +
                                   Twine(kMaxBufferBytes));
  // A FILE's contents decide the element count, whatever SIZE says, as
  // Amber's SetValueCount (TEXT) and SetElementCount (BINARY) do.
  bool fromFile = !buffer.filePath.empty();
  if (buffer.init == InitKind::Values) {
    uint64_t perElement = std::max<uint32_t>(valuesPerElement(buffer.type), 1);
    uint64_t dataElements =
        (buffer.values.size() + perElement - 1) / perElement;
    if (size && !fromFile && dataElements > *size)
      return error(keyword.line, context + " has " + Twine(dataElements) +
                                     " elements of data for " + Twine(*size) +
                                     " elements");
    buffer.elementCount = size && !fromFile ? *size : dataElements;
  } else if (buffer.init == InitKind::Bytes) {
    buffer.elementCount = stride ? buffer.bytes.size() / stride : 0;
  } else {
    if ((buffer.init == InitKind::Fill || buffer.init == InitKind::Series) &&
        !size)
      return error(
          keyword.line,
          context +
              " needs SIZE (or WIDTH and HEIGHT) "
              "for its " +
              (buffer.init == InitKind::Fill ? "FILL" : "SERIES_FROM"));
    buffer.elementCount = size.value_or(0);
  }
  if (buffer.byteSize() > kMaxBufferBytes)
    return error(keyword.line, context + " needs " + Twine(buffer.byteSize()) +
                                   " bytes; the limit is " +
                                   Twine(kMaxBufferBytes));
  script.buffers.push_back(std::move(buffer));
  return Error::success();
}

Error AmberParser::parseSampler(const Token &keyword) {
  Expected<Token> name = word("sampler name", "SAMPLER");
  if (!name)
    return name.takeError();
  if (Error err =
          checkNewName(*name, "sampler", script.findSampler(name->text)))
    return err;
  Sampler sampler;
  sampler.name = name->text.str();
  sampler.line = keyword.line;
  std::string context = "SAMPLER '" + sampler.name + "'";
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next())
    if (Error err = parseSamplerOption(sampler, token, context))
      return err;
  if (sampler.maxLod < sampler.minLod)
    return error(keyword.line, "MAX_LOD is below MIN_LOD in " + context);
  script.samplers.push_back(std::move(sampler));
  return Error::success();
}

template <typename T>
Error AmberParser::enumOption(const Token &key, StringRef context,
                              std::optional<T> (*parseValue)(StringRef),
                              T &field) {
  Token value = tokens.next();
  std::optional<T> parsed =
      value.isWord() ? parseValue(value.text) : std::nullopt;
  if (!parsed)
    return error(value.line, "unknown " + key.text + " value " + quote(value) +
                                 " in " + context);
  field = *parsed;
  return Error::success();
}

Error AmberParser::parseSamplerOption(Sampler &sampler, const Token &token,
                                      StringRef context) {
  if (token.is("MAG_FILTER"))
    return enumOption(token, context, parseFilter, sampler.magFilter);
  if (token.is("MIN_FILTER"))
    return enumOption(token, context, parseFilter, sampler.minFilter);
  if (token.is("MIPMAP_MODE"))
    return enumOption(token, context, parseFilter, sampler.mipmapMode);
  if (token.is("ADDRESS_MODE_U"))
    return enumOption(token, context, parseAddressMode, sampler.addressU);
  if (token.is("ADDRESS_MODE_V"))
    return enumOption(token, context, parseAddressMode, sampler.addressV);
  if (token.is("ADDRESS_MODE_W"))
    return enumOption(token, context, parseAddressMode, sampler.addressW);
  if (token.is("BORDER_COLOR"))
    return enumOption(token, context, parseBorderColor, sampler.borderColor);
  if (token.is("COMPARE_OP"))
    return enumOption(token, context, parseCompareOp, sampler.compareOp);
  if (token.is("MIN_LOD") || token.is("MAX_LOD")) {
    Expected<double> lod = number(token.text.str() + " value", context);
    if (!lod)
      return lod.takeError();
    (token.is("MIN_LOD") ? sampler.minLod : sampler.maxLod) =
        static_cast<float>(*lod);
    return Error::success();
  }
  if (token.is("NORMALIZED_COORDS") || token.is("UNNORMALIZED_COORDS")) {
    sampler.normalizedCoords = token.is("NORMALIZED_COORDS");
    // As Amber's: unnormalized coordinates allow no LOD but 0.
    if (!sampler.normalizedCoords)
      sampler.minLod = sampler.maxLod = 0;
    return Error::success();
  }
  if (token.is("COMPARE")) {
    Expected<bool> enable = onOff(context);
    if (!enable)
      return enable.takeError();
    sampler.compareEnable = *enable;
    return Error::success();
  }
  return error(token.line, "unexpected " + quote(token) + " in " + context);
}

Error AmberParser::parseStringCommand(std::vector<std::string> &into,
                                      StringRef context) {
  Expected<Token> name = word("name", context);
  if (!name)
    return name.takeError();
  into.push_back(name->text.str());
  return endOfStatement(context);
}

Error AmberParser::parseSetEngineData() {
  if (Error err = keyword("ENGINE_DATA", "SET"))
    return err;
  Expected<Token> variable = word("variable", "SET ENGINE_DATA");
  if (!variable)
    return variable.takeError();
  if (!variable->is("fence_timeout_ms"))
    return error(variable->line, "unknown ENGINE_DATA variable '" +
                                     variable->text + "' in SET");
  Expected<uint32_t> timeout =
      uint32("fence_timeout_ms value", "SET ENGINE_DATA");
  if (!timeout)
    return timeout.takeError();
  script.fenceTimeoutMs = *timeout;
  return endOfStatement("SET ENGINE_DATA");
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

Error AmberParser::parsePipeline(const Token &keyword) {
  Expected<Token> kind = word("pipeline type", "PIPELINE");
  if (!kind)
    return kind.takeError();
  Pipeline pipeline;
  pipeline.line = keyword.line;
  if (kind->is("compute"))
    pipeline.kind = PipelineKind::Compute;
  else if (kind->is("graphics"))
    pipeline.kind = PipelineKind::Graphics;
  else
    return error(kind->line,
                 "unknown pipeline type '" + kind->text + "' in PIPELINE");
  Expected<Token> name = word("pipeline name", "PIPELINE");
  if (!name)
    return name.takeError();
  if (Error err =
          checkNewName(*name, "pipeline", script.findPipeline(name->text)))
    return err;
  pipeline.name = name->text.str();
  if (Error err = endOfStatement("PIPELINE"))
    return err;
  return parsePipelineBody(pipeline, "PIPELINE", keyword.line);
}

Error AmberParser::parseDerivePipeline(const Token &keyword) {
  Expected<Token> name = word("pipeline name", "DERIVE_PIPELINE");
  if (!name)
    return name.takeError();
  if (name->is("FROM"))
    return error(name->line, "missing pipeline name in DERIVE_PIPELINE");
  if (Error err =
          checkNewName(*name, "pipeline", script.findPipeline(name->text)))
    return err;
  if (Error err = this->keyword("FROM", "DERIVE_PIPELINE"))
    return err;
  Expected<const Pipeline *> parent = pipeline("DERIVE_PIPELINE");
  if (!parent)
    return parent.takeError();
  // Amber's Pipeline::Clone copies neither the push constants nor the
  // samplers.
  Pipeline derived = **parent;
  derived.pushConstantBuffer.clear();
  llvm::erase_if(derived.bindings, [](const DescriptorBinding &binding) {
    return binding.kind == DescriptorKind::Sampler;
  });
  derived.name = name->text.str();
  derived.derivedFrom = (*parent)->name;
  derived.line = keyword.line;
  if (Error err = endOfStatement("DERIVE_PIPELINE"))
    return err;
  return parsePipelineBody(derived, "DERIVE_PIPELINE", keyword.line);
}

Error AmberParser::parsePipelineBody(Pipeline &pipeline, StringRef command,
                                     unsigned openLine) {
  std::string context = (command + " '" + pipeline.name + "'").str();
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(openLine, "missing END for " + context +
                                 " (opened at line " + Twine(openLine) + ")");
    if (token.is("END"))
      break;
    if (Error err = parsePipelineCommand(pipeline, token, context))
      return err;
  }
  if (Error err = endOfStatement("END of " + context))
    return err;
  if (pipeline.isCompute()) {
    size_t compute = llvm::count_if(pipeline.shaders, [](const auto &shader) {
      return shader.stage == ShaderStage::Compute;
    });
    if (compute != 1)
      return error(openLine, context +
                                 " is compute and needs one compute "
                                 "shader, not " +
                                 Twine(compute));
  }
  script.pipelines.push_back(std::move(pipeline));
  return Error::success();
}

Error AmberParser::parsePipelineCommand(Pipeline &pipeline, const Token &token,
                                        StringRef context) {
  StringRef name = token.text;
  if (name == "ATTACH")
    return parseAttach(pipeline, token);
  if (name == "SHADER_OPTIMIZATION" || name == "COMPILE_OPTIONS") {
    Expected<ShaderAttachment *> attachment = attached(pipeline, name);
    if (!attachment)
      return attachment.takeError();
    if (name == "COMPILE_OPTIONS" &&
        script.findShader((*attachment)->shader)->format !=
            ShaderFormat::OpenClC)
      return error(token.line, "COMPILE_OPTIONS is for OPENCL-C shaders, not "
                               "'" +
                                   (*attachment)->shader + "'");
    if (Error err = endOfStatement(name))
      return err;
    return parseWordBlock(name == "COMPILE_OPTIONS"
                              ? (*attachment)->compileOptions
                              : (*attachment)->optimizations,
                          name, token.line);
  }
  if (name == "SUBGROUP")
    return parseSubgroup(pipeline, token);
  if (name == "BIND")
    return parseBind(pipeline, token);
  if (name == "SET")
    return parseSetKernel(pipeline, token);
  if (name == "FRAMEBUFFER_SIZE") {
    Expected<uint32_t> width = uint32("width", name);
    if (!width)
      return width.takeError();
    Expected<uint32_t> height = uint32("height", name);
    if (!height)
      return height.takeError();
    pipeline.framebufferWidth = *width;
    pipeline.framebufferHeight = *height;
    return endOfStatement(name);
  }
  if (name == "VERTEX_DATA")
    return parseVertexData(pipeline);
  if (name == "INDEX_DATA") {
    Expected<const Buffer *> index = buffer(name);
    if (!index)
      return index.takeError();
    pipeline.indexBuffer = (*index)->name;
    return endOfStatement(name);
  }
  if (name == "DEPTH" || name == "STENCIL" || name == "BLEND")
    return parseGraphicsSetting(pipeline, token, /*isBlock=*/true);
  if (name == "VIEWPORT" || name == "POLYGON_MODE" ||
      name == "PATCH_CONTROL_POINTS" || name == "LINE_WIDTH")
    return parseGraphicsSetting(pipeline, token, /*isBlock=*/false);
  return error(token.line,
               "unknown command " + quote(token) + " in " + context);
}

Error AmberParser::parseAttach(Pipeline &pipeline, const Token &keyword) {
  Expected<Token> name = word("shader name", "ATTACH");
  if (!name)
    return name.takeError();
  const Shader *shader = script.findShader(name->text);
  if (!shader)
    return error(name->line, "unknown shader '" + name->text + "' in ATTACH");
  ShaderAttachment attachment;
  attachment.shader = shader->name;
  attachment.stage = shader->stage;
  attachment.line = keyword.line;
  std::string context = "ATTACH '" + shader->name + "'";
  bool typed = false;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    if (token.is("TYPE")) {
      Expected<Token> stage = word("shader type", context);
      if (!stage)
        return stage.takeError();
      std::optional<ShaderStage> stageValue = parseStage(stage->text);
      if (!stageValue || *stageValue == ShaderStage::Multi)
        return error(stage->line,
                     "unknown shader type '" + stage->text + "' in " + context);
      // Amber takes TYPE for any shader: it names the stage attached.
      attachment.stage = *stageValue;
      typed = true;
    } else if (token.is("ENTRY_POINT")) {
      Expected<Token> entry = word("entry point name", context);
      if (!entry)
        return entry.takeError();
      attachment.entryPoint = entry->text.str();
    } else if (token.is("SPECIALIZE")) {
      if (Error err = parseSpecialization(attachment))
        return err;
    } else {
      return error(token.line, "unexpected " + quote(token) + " in " + context);
    }
  }
  if (shader->stage == ShaderStage::Multi && !typed)
    return error(keyword.line, context + " needs TYPE: the shader is multi");
  bool computeStage = attachment.stage == ShaderStage::Compute;
  if (computeStage != pipeline.isCompute())
    return error(keyword.line,
                 "cannot attach " + stageName(attachment.stage) + " shader '" +
                     shader->name + "' to " +
                     (pipeline.isCompute() ? "compute" : "graphics") +
                     " pipeline '" + pipeline.name + "'");
  // A shader of a stage the pipeline has replaces that stage's shader (in a
  // DERIVE_PIPELINE, say), as Amber's Pipeline::AddShader does.
  for (ShaderAttachment &existing : pipeline.shaders)
    if (existing.stage == attachment.stage) {
      existing = std::move(attachment);
      return Error::success();
    }
  pipeline.shaders.push_back(std::move(attachment));
  return Error::success();
}

Error AmberParser::parseSpecialization(ShaderAttachment &attachment) {
  StringRef context = "SPECIALIZE";
  Expected<uint32_t> id = uint32("specialization id", context);
  if (!id)
    return id.takeError();
  if (Error err = keyword("AS", context))
    return err;
  Expected<Token> typeToken = word("type", context);
  if (!typeToken)
    return typeToken.takeError();
  // Amber asks only for a number type of 32-bit scalars (vec4<float> is a
  // float) and takes any number for it (a float converted toward zero).
  std::optional<Type> type = parseNumberTypeName(typeToken->text);
  if (!type || type->isArray || type->scalar.bits != 32)
    return error(typeToken->line, "SPECIALIZE takes int32, uint32 or float, "
                                  "not '" +
                                      typeToken->text + "'");
  Expected<Value> value = literal("value", context);
  if (!value)
    return value.takeError();
  attachment.specializations.push_back(
      {*id, type->scalar, convertValue(*value, type->scalar)});
  return Error::success();
}

Expected<ShaderAttachment *> AmberParser::attached(Pipeline &pipeline,
                                                   StringRef context) {
  Expected<Token> name = word("shader name", context);
  if (!name)
    return name.takeError();
  if (!script.findShader(name->text))
    return error(name->line,
                 "unknown shader '" + name->text + "' in " + context);
  for (ShaderAttachment &attachment : pipeline.shaders)
    if (attachment.shader == name->text)
      return &attachment;
  return error(name->line, "shader '" + name->text + "' in " + context +
                               " is not attached to pipeline '" +
                               pipeline.name + "'");
}

Error AmberParser::parseWordBlock(std::vector<std::string> &into,
                                  const Twine &context, unsigned openLine) {
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(openLine, "missing END for " + context +
                                 " (opened at line " + Twine(openLine) + ")");
    if (token.is("END"))
      return endOfStatement("END of " + context);
    into.push_back(token.text.str());
  }
}

Error AmberParser::parseSubgroup(Pipeline &pipeline, const Token &keyword) {
  Expected<ShaderAttachment *> attachment = attached(pipeline, "SUBGROUP");
  if (!attachment)
    return attachment.takeError();
  // Amber reads words up to END, on as many lines as the script likes.
  SubgroupControl control;
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(keyword.line, "missing END for SUBGROUP (opened at line " +
                                     Twine(keyword.line) + ")");
    if (token.is("END"))
      break;
    if (token.is("FULLY_POPULATED") || token.is("VARYING_SIZE")) {
      Expected<bool> enable = onOff("SUBGROUP " + token.text.str());
      if (!enable)
        return enable.takeError();
      (token.is("VARYING_SIZE") ? control.varyingSize
                                : control.fullyPopulated) = *enable;
    } else if (token.is("REQUIRED_SIZE")) {
      Token size = tokens.peek();
      if (size.is("MIN") || size.is("MAX")) {
        tokens.next();
        control.requiredSizeMin = size.is("MIN");
        control.requiredSizeMax = size.is("MAX");
      } else {
        Expected<uint64_t> value =
            integer("size", "SUBGROUP REQUIRED_SIZE", 128);
        if (!value)
          return value.takeError();
        if (*value == 0 || (*value & (*value - 1)))
          return error(size.line, "REQUIRED_SIZE must be a power of two, not "
                                  "'" +
                                      size.text + "' in SUBGROUP");
        control.requiredSize = static_cast<uint32_t>(*value);
      }
    } else {
      return error(token.line, "unexpected " + quote(token) + " in SUBGROUP");
    }
  }
  (*attachment)->subgroup = control;
  return endOfStatement("END of SUBGROUP");
}

Error AmberParser::parseKernelArg(KernelArgBinding &arg, StringRef context) {
  Expected<Token> how = word("ARG_NAME or ARG_NUMBER", context);
  if (!how)
    return how.takeError();
  if (how->is("ARG_NAME")) {
    Expected<Token> name = word("argument name", context);
    if (!name)
      return name.takeError();
    arg.argName = name->text.str();
  } else if (how->is("ARG_NUMBER")) {
    Expected<uint32_t> number = uint32("argument number", context);
    if (!number)
      return number.takeError();
    arg.argNumber = *number;
  } else {
    return error(how->line, "expected ARG_NAME or ARG_NUMBER in " + context +
                                ", got " + quote(*how));
  }
  return Error::success();
}

Error AmberParser::parseBind(Pipeline &pipeline, const Token &keyword) {
  Expected<Token> what = word("BUFFER or SAMPLER", "BIND");
  if (!what)
    return what.takeError();
  bool isArray = what->is("BUFFER_ARRAY") || what->is("SAMPLER_ARRAY");
  bool isSampler = what->is("SAMPLER") || what->is("SAMPLER_ARRAY");
  if (!isSampler && !what->is("BUFFER") && !what->is("BUFFER_ARRAY"))
    return error(what->line, "expected BUFFER, BUFFER_ARRAY, SAMPLER or "
                             "SAMPLER_ARRAY in BIND, got " +
                                 quote(*what));
  std::string context = ("BIND " + what->text).str();

  // The names: one, or an array's up to AS / DESCRIPTOR_SET.
  std::vector<std::string> names;
  for (;;) {
    Token name = tokens.peek();
    if (!name.isWord() ||
        (!names.empty() && (!isArray || name.is("AS") ||
                            name.is("DESCRIPTOR_SET") || name.is("KERNEL"))))
      break;
    tokens.next();
    bool known = isSampler ? script.findSampler(name.text) != nullptr
                           : script.findBuffer(name.text) != nullptr;
    if (!known)
      return error(name.line,
                   (isSampler ? "unknown sampler '" : "unknown buffer '") +
                       name.text + "' in BIND");
    names.push_back(name.text.str());
  }
  if (names.empty())
    return error(tokens.currentLine(), (isSampler ? "missing sampler name in "
                                                  : "missing buffer "
                                                    "name in ") +
                                           context);

  DescriptorBinding binding;
  binding.line = keyword.line;
  Token token = tokens.next();
  if (isSampler) {
    binding.kind = DescriptorKind::Sampler;
    binding.samplers = names;
    if (token.is("KERNEL") && !isArray) {
      KernelArgBinding arg;
      arg.sampler = names.front();
      arg.line = keyword.line;
      if (Error err = parseKernelArg(arg, context))
        return err;
      pipeline.kernelArgs.push_back(std::move(arg));
      return endOfStatement(context);
    }
  } else {
    if (!token.is("AS") && !token.is("KERNEL"))
      return error(token.line, "expected AS or KERNEL in " + context +
                                   ", got " + quote(token));
    std::optional<DescriptorKind> kind;
    if (token.is("AS")) {
      Expected<Token> kindToken = word("buffer type", context);
      if (!kindToken)
        return kindToken.takeError();
      StringRef kindName = kindToken->text;
      // The kinds that are no descriptor.
      if (!isArray && kindName == "color") {
        ColorAttachment color;
        color.buffer = names.front();
        if (Error err = this->keyword("LOCATION", context))
          return err;
        Expected<uint32_t> location = uint32("LOCATION value", context);
        if (!location)
          return location.takeError();
        color.location = *location;
        if (tokens.peek().is("BASE_MIP_LEVEL")) {
          tokens.next();
          Expected<uint32_t> level = uint32("BASE_MIP_LEVEL value", context);
          if (!level)
            return level.takeError();
          color.baseMipLevel = *level;
        }
        llvm::erase_if(pipeline.colorAttachments, [&](const auto &other) {
          return other.location == color.location;
        });
        pipeline.colorAttachments.push_back(std::move(color));
        return endOfStatement(context);
      }
      if (!isArray && (kindName == "depth_stencil" ||
                       kindName == "push_constant" || kindName == "resolve")) {
        if (kindName == "depth_stencil")
          pipeline.depthStencilBuffer = names.front();
        else if (kindName == "resolve")
          pipeline.resolveTargets.push_back(names.front());
        else if (!pipeline.pushConstantBuffer.empty() &&
                 pipeline.derivedFrom.empty())
          return error(kindToken->line,
                       "pipeline '" + pipeline.name +
                           "' already has push constant buffer '" +
                           pipeline.pushConstantBuffer + "'");
        else
          pipeline.pushConstantBuffer = names.front();
        return endOfStatement(context);
      }
      kind = parseDescriptorKind(kindName);
      if (!kind)
        return error(kindToken->line,
                     "unknown buffer type '" + kindName + "' in " + context);
      token = tokens.next();
    }
    if (token.is("KERNEL") && !isArray) {
      KernelArgBinding arg;
      arg.buffer = names.front();
      arg.kind = kind;
      arg.line = keyword.line;
      if (Error err = parseKernelArg(arg, context))
        return err;
      llvm::erase_if(pipeline.kernelArgs, [&](const KernelArgBinding &other) {
        return other.argName == arg.argName && other.argNumber == arg.argNumber;
      });
      pipeline.kernelArgs.push_back(std::move(arg));
      return endOfStatement(context);
    }
    if (!kind)
      return error(token.line,
                   context + " needs AS <type> before " + quote(token));
    binding.kind = *kind;
    binding.buffers = names;
    if (*kind == DescriptorKind::CombinedImageSampler) {
      if (!token.is("SAMPLER"))
        return error(token.line, "expected SAMPLER in " + context +
                                     " AS combined_image_sampler, got " +
                                     quote(token));
      Expected<const Sampler *> found = sampler(context);
      if (!found)
        return found.takeError();
      binding.samplers.push_back((*found)->name);
      token = tokens.next();
    }
  }
  if (!token.is("DESCRIPTOR_SET"))
    return error(token.line, "expected DESCRIPTOR_SET in " + context +
                                 ", got " + quote(token));
  Expected<uint32_t> set = uint32("DESCRIPTOR_SET value", context);
  if (!set)
    return set.takeError();
  if (Error err = this->keyword("BINDING", context))
    return err;
  Expected<uint32_t> bindingIndex = uint32("BINDING value", context);
  if (!bindingIndex)
    return bindingIndex.takeError();
  binding.set = *set;
  binding.binding = *bindingIndex;
  if (Error err = parseBindTail(binding, context))
    return err;
  llvm::erase_if(pipeline.bindings, [&](const DescriptorBinding &other) {
    return other.set == binding.set && other.binding == binding.binding;
  });
  pipeline.bindings.push_back(std::move(binding));
  return Error::success();
}

Error AmberParser::parseBindTail(DescriptorBinding &binding,
                                 StringRef context) {
  size_t count = std::max(binding.buffers.size(), binding.samplers.size());
  binding.descriptorOffsets.assign(binding.buffers.size(), 0);
  binding.descriptorRanges.assign(binding.buffers.size(),
                                  DescriptorBinding::kWholeSize);
  // One value per array element.
  auto perElement = [&](const Token &option, auto &values) -> Error {
    for (size_t i = 0; i < count; ++i) {
      Expected<uint64_t> value = integer(
          option.text.str() + " value", option.text.str() + " of " + context,
          std::numeric_limits<uint64_t>::max() - 1);
      if (!value)
        return value.takeError();
      values[i] = static_cast<std::decay_t<decltype(values[i])>>(*value);
    }
    return Error::success();
  };
  bool hasOffset = false;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    if (token.is("OFFSET") && isDynamic(binding.kind)) {
      binding.dynamicOffsets.assign(count, 0);
      if (Error err = perElement(token, binding.dynamicOffsets))
        return err;
      hasOffset = true;
    } else if (token.is("DESCRIPTOR_OFFSET") && !binding.buffers.empty()) {
      if (Error err = perElement(token, binding.descriptorOffsets))
        return err;
    } else if (token.is("DESCRIPTOR_RANGE") && !binding.buffers.empty()) {
      if (Error err = perElement(token, binding.descriptorRanges))
        return err;
    } else if (token.is("BASE_MIP_LEVEL")) {
      Expected<uint32_t> level = uint32("BASE_MIP_LEVEL value", context);
      if (!level)
        return level.takeError();
      binding.baseMipLevel = *level;
    } else {
      return error(token.line, "unexpected " + quote(token) + " in " + context);
    }
  }
  if (isDynamic(binding.kind) && !hasOffset)
    return error(binding.line, context + " AS " +
                                   descriptorKindName(binding.kind) +
                                   " needs OFFSET");
  return Error::success();
}

Error AmberParser::parseSetKernel(Pipeline &pipeline, const Token &keyword) {
  StringRef context = "SET KERNEL";
  if (Error err = this->keyword("KERNEL", "SET"))
    return err;
  if (pipeline.shaders.empty() ||
      script.findShader(pipeline.shaders.front().shader)->format !=
          ShaderFormat::OpenClC)
    return error(keyword.line, "SET KERNEL needs an OPENCL-C shader in "
                               "pipeline '" +
                                   pipeline.name + "'");
  KernelArgBinding arg;
  if (Error err = parseKernelArg(arg, context))
    return err;
  if (Error err = this->keyword("AS", context))
    return err;
  Expected<Token> typeToken = word("type", context);
  if (!typeToken)
    return typeToken.takeError();
  std::optional<Type> type = parseNumberTypeName(typeToken->text);
  if (!type || !type->isScalar())
    return error(typeToken->line, "SET KERNEL takes a scalar type, not '" +
                                      typeToken->text + "'");
  Expected<Value> value =
      parseValueFor(tokens.next(), type->scalar, context, fileName);
  if (!value)
    return value.takeError();
  KernelArgValue argValue{arg.argName, arg.argNumber, type->scalar, *value,
                          keyword.line};
  llvm::erase_if(pipeline.kernelArgValues, [&](const KernelArgValue &other) {
    return other.argName == arg.argName && other.argNumber == arg.argNumber;
  });
  pipeline.kernelArgValues.push_back(std::move(argValue));
  return endOfStatement(context);
}

Error AmberParser::parseVertexData(Pipeline &pipeline) {
  StringRef context = "VERTEX_DATA";
  Expected<const Buffer *> vertices = buffer(context);
  if (!vertices)
    return vertices.takeError();
  VertexBinding binding;
  binding.buffer = (*vertices)->name;
  if (Error err = keyword("LOCATION", context))
    return err;
  Expected<uint32_t> location = uint32("LOCATION value", context);
  if (!location)
    return location.takeError();
  binding.location = *location;
  for (Token token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    if (token.is("RATE")) {
      Expected<Token> rate = word("RATE value", context);
      if (!rate)
        return rate.takeError();
      if (!rate->is("vertex") && !rate->is("instance"))
        return error(rate->line, "expected vertex or instance in " + context +
                                     ", got '" + rate->text + "'");
      binding.instanceRate = rate->is("instance");
    } else if (token.is("FORMAT")) {
      Expected<Token> format = word("FORMAT value", context);
      if (!format)
        return format.takeError();
      if (!parseFormatName(format->text))
        return error(format->line,
                     "unknown format '" + format->text + "' in " + context);
      binding.format = format->text.str();
    } else if (token.is("OFFSET") || token.is("STRIDE")) {
      Expected<uint32_t> value = uint32(token.text.str() + " value", context);
      if (!value)
        return value.takeError();
      if (token.is("OFFSET"))
        binding.offset = *value;
      else
        binding.stride = *value;
    } else {
      return error(token.line, "unexpected " + quote(token) + " in " + context);
    }
  }
  pipeline.vertexData.push_back(std::move(binding));
  return Error::success();
}

Error AmberParser::parseGraphicsSetting(Pipeline &pipeline,
                                        const Token &keyword, bool isBlock) {
  // Recorded as written: each line's words joined by single spaces.
  auto recordLine = [&](const Token &first) {
    GraphicsSetting setting{first.text.str(), first.line};
    for (Token token = tokens.next(); !token.isEnd(); token = tokens.next())
      setting.text += " " + token.text.str();
    pipeline.graphicsSettings.push_back(std::move(setting));
  };
  recordLine(keyword);
  if (!isBlock)
    return Error::success();
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(keyword.line, "missing END for " + keyword.text +
                                     " (opened at line " + Twine(keyword.line) +
                                     ")");
    recordLine(token);
    if (token.is("END"))
      return Error::success();
  }
}

//===----------------------------------------------------------------------===//
// Commands
//===----------------------------------------------------------------------===//

Error AmberParser::parseCommand(const Token &keyword, CommandList &commands) {
  StringRef name = keyword.text;
  if (name == "RUN")
    return parseRun(keyword, commands);
  if (name == "EXPECT")
    return parseExpect(keyword, commands);
  if (name == "COPY")
    return parseCopy(keyword, commands);
  if (name == "REPEAT")
    return parseRepeat(keyword, commands);
  if (name == "DEBUG")
    return parseDebug(keyword, commands);
  return parseClear(keyword, commands);
}

Error AmberParser::parseRun(const Token &keyword, CommandList &commands) {
  bool timed = false;
  if (tokens.peek().is("TIMED_EXECUTION")) {
    tokens.next();
    timed = true;
  }
  Expected<const Pipeline *> found = pipeline("RUN");
  if (!found)
    return found.takeError();
  const Pipeline &target = **found;
  Token token = tokens.peek();
  if (token.isEnd())
    return error(token.line, "missing workgroup counts or DRAW_* in RUN");
  if (parseNumberLiteral(token.text)) {
    if (!target.isCompute())
      return error(token.line, "RUN with workgroup counts needs a compute "
                               "pipeline; '" +
                                   target.name + "' is graphics");
    auto run = std::make_unique<RunCommand>();
    run->line = keyword.line;
    run->pipeline = target.name;
    run->timed = timed;
    for (uint32_t &count : run->groups) {
      Expected<uint32_t> value = uint32("workgroup count", "RUN");
      if (!value)
        return value.takeError();
      count = *value;
    }
    commands.push_back(std::move(run));
    return endOfStatement("RUN");
  }
  tokens.next();
  std::string context = "RUN " + token.text.str();
  auto draw = std::make_unique<DrawCommand>();
  draw->line = keyword.line;
  draw->pipeline = target.name;
  draw->timed = timed;
  if (token.is("DRAW_RECT") || token.is("DRAW_GRID")) {
    draw->drawKind = token.is("DRAW_RECT") ? DrawCommand::DrawKind::Rect
                                           : DrawCommand::DrawKind::Grid;
    // AmberScript places rectangles and grids in framebuffer pixels.
    draw->ortho = true;
    auto pair = [&](StringRef key, float &first, float &second) -> Error {
      if (Error err = this->keyword(key, context))
        return err;
      Expected<double> a = number(key.str() + " value", context);
      if (!a)
        return a.takeError();
      Expected<double> b = number(key.str() + " value", context);
      if (!b)
        return b.takeError();
      first = static_cast<float>(*a);
      second = static_cast<float>(*b);
      return Error::success();
    };
    if (Error err = pair("POS", draw->x, draw->y))
      return err;
    if (Error err = pair("SIZE", draw->width, draw->height))
      return err;
    if (draw->drawKind == DrawCommand::DrawKind::Grid) {
      if (Error err = this->keyword("CELLS", context))
        return err;
      Expected<uint32_t> columns = uint32("CELLS value", context);
      if (!columns)
        return columns.takeError();
      Expected<uint32_t> rows = uint32("CELLS value", context);
      if (!rows)
        return rows.takeError();
      draw->columns = *columns;
      draw->rows = *rows;
    }
  } else if (token.is("DRAW_ARRAY")) {
    draw->drawKind = DrawCommand::DrawKind::Array;
    if (Error err = this->keyword("AS", context))
      return err;
    Expected<Token> topology = word("topology", context);
    if (!topology)
      return topology.takeError();
    draw->topology = topology->text.str();
    for (Token option = tokens.peek(); !option.isEnd();
         option = tokens.peek()) {
      tokens.next();
      if (option.is("INDEXED")) {
        draw->indexed = true;
        continue;
      }
      uint32_t *field = option.is("START_IDX")        ? &draw->firstVertex
                        : option.is("COUNT")          ? &draw->vertexCount
                        : option.is("START_INSTANCE") ? &draw->firstInstance
                        : option.is("INSTANCE_COUNT") ? &draw->instanceCount
                                                      : nullptr;
      if (!field)
        return error(option.line,
                     "unexpected " + quote(option) + " in " + context);
      Expected<uint32_t> value = uint32(option.text.str() + " value", context);
      if (!value)
        return value.takeError();
      *field = *value;
    }
  } else {
    return error(token.line, "unexpected " + quote(token) + " in RUN");
  }
  if (target.isCompute())
    return error(token.line, context + " needs a graphics pipeline; '" +
                                 target.name + "' is compute");
  commands.push_back(std::move(draw));
  return endOfStatement(context);
}

Expected<std::vector<Tolerance>> AmberParser::tolerances(StringRef context) {
  std::vector<Tolerance> result;
  while (result.size() < 4) {
    Token token = tokens.peek();
    std::optional<Value> literal =
        token.isWord() ? parseNumberLiteral(token.text) : std::nullopt;
    if (!literal)
      break;
    tokens.next();
    Tolerance tolerance{literal->asDouble(), false};
    if (tokens.peek().is("%")) {
      tokens.next();
      tolerance.percent = true;
    }
    result.push_back(tolerance);
  }
  if (result.empty())
    return error(tokens.currentLine(),
                 "missing TOLERANCE values in " + context);
  return result;
}

Error AmberParser::parseExpect(const Token &keyword, CommandList &commands) {
  Expected<const Buffer *> found = buffer("EXPECT");
  if (!found)
    return found.takeError();
  const Buffer &target = **found;
  Token token = tokens.next();

  if (token.is("EQ_BUFFER") || token.is("RMSE_BUFFER") ||
      token.is("EQ_HISTOGRAM_EMD_BUFFER")) {
    std::string context = "EXPECT " + token.text.str();
    auto compare = std::make_unique<CompareBuffersCommand>();
    compare->line = keyword.line;
    compare->buffer = target.name;
    Expected<const Buffer *> other = buffer(context);
    if (!other)
      return other.takeError();
    compare->other = (*other)->name;
    if (!token.is("EQ_BUFFER")) {
      compare->method = token.is("RMSE_BUFFER")
                            ? CompareBuffersCommand::Method::Rmse
                            : CompareBuffersCommand::Method::HistogramEmd;
      if (Error err = this->keyword("TOLERANCE", context))
        return err;
      Expected<double> tolerance = number("TOLERANCE value", context);
      if (!tolerance)
        return tolerance.takeError();
      compare->tolerance = *tolerance;
    }
    commands.push_back(std::move(compare));
    return endOfStatement(context);
  }

  if (!token.is("IDX"))
    return error(token.line, "expected IDX, EQ_BUFFER, RMSE_BUFFER or "
                             "EQ_HISTOGRAM_EMD_BUFFER in EXPECT, got " +
                                 quote(token));
  Expected<uint64_t> x =
      integer("IDX value", "EXPECT", std::numeric_limits<uint64_t>::max() - 1);
  if (!x)
    return x.takeError();
  token = tokens.peek();
  if (token.isWord() && parseNumberLiteral(token.text)) {
    Expected<uint64_t> y = integer("IDX y value", "EXPECT");
    if (!y)
      return y.takeError();
    return parseExpectRect(keyword, target, static_cast<float>(*x),
                           static_cast<float>(*y), commands);
  }

  auto expect = std::make_unique<ExpectCommand>();
  expect->line = keyword.line;
  expect->buffer = target.name;
  expect->offset = *x;
  expect->type = target.type;
  expect->layout = target.layout;
  token = tokens.next();
  if (token.is("TOLERANCE")) {
    Expected<std::vector<Tolerance>> values = tolerances("EXPECT");
    if (!values)
      return values.takeError();
    expect->tolerances = std::move(*values);
    token = tokens.next();
  }
  std::optional<Comparator> comparator =
      token.isWord() ? parseComparator(token.text) : std::nullopt;
  if (!comparator)
    return error(token.line, "expected EQ, NE, LT, LE, GT or GE in EXPECT, "
                             "got " +
                                 quote(token));
  if (!expect->tolerances.empty()) {
    if (*comparator != Comparator::Equal)
      return error(token.line, "TOLERANCE works only with EQ in EXPECT");
    comparator = Comparator::FuzzyEqual;
  }
  expect->comparator = *comparator;
  std::vector<ScalarSlot> slots = scalarSlots(target.type, target.layout);
  if (slots.empty())
    return error(keyword.line,
                 "type '" + target.type.name + "' has no numbers in EXPECT");
  for (token = tokens.next(); !token.isEnd(); token = tokens.next()) {
    Expected<Value> value =
        parseValueFor(token, slots[expect->values.size() % slots.size()].scalar,
                      "EXPECT", fileName);
    if (!value)
      return value.takeError();
    expect->values.push_back(*value);
  }
  if (expect->values.empty())
    return error(token.line, "missing values in EXPECT");
  commands.push_back(std::move(expect));
  return Error::success();
}

Error AmberParser::parseExpectRect(const Token &keyword, const Buffer &target,
                                   float x, float y, CommandList &commands) {
  auto expect = std::make_unique<ExpectRectCommand>();
  expect->line = keyword.line;
  expect->buffer = target.name;
  expect->x = x;
  expect->y = y;
  Token token = tokens.next();
  if (token.is("SIZE")) {
    Expected<uint32_t> width = uint32("SIZE width", "EXPECT");
    if (!width)
      return width.takeError();
    Expected<uint32_t> height = uint32("SIZE height", "EXPECT");
    if (!height)
      return height.takeError();
    expect->width = static_cast<float>(*width);
    expect->height = static_cast<float>(*height);
    token = tokens.next();
  }
  if (!token.is("EQ_RGB") && !token.is("EQ_RGBA"))
    return error(token.line, "expected EQ_RGB or EQ_RGBA after IDX x y in "
                             "EXPECT, got " +
                                 quote(token));
  expect->hasAlpha = token.is("EQ_RGBA");
  std::string context = "EXPECT " + token.text.str();
  for (unsigned i = 0; i < (expect->hasAlpha ? 4u : 3u); ++i) {
    Expected<uint64_t> channel = integer("colour value", context, 255);
    if (!channel)
      return channel.takeError();
    expect->color[i] = static_cast<double>(*channel) / 255.0;
  }
  if (!expect->hasAlpha)
    expect->color[3] = 1.0;
  token = tokens.next();
  if (token.is("TOLERANCE")) {
    Expected<std::vector<Tolerance>> values = tolerances(context);
    if (!values)
      return values.takeError();
    expect->tolerances = std::move(*values);
    token = tokens.next();
  }
  if (!token.isEnd())
    return error(token.line,
                 "unexpected " + quote(token) + " after " + context);
  commands.push_back(std::move(expect));
  return Error::success();
}

Error AmberParser::parseCopy(const Token &keyword, CommandList &commands) {
  Expected<const Buffer *> from = buffer("COPY");
  if (!from)
    return from.takeError();
  if (Error err = this->keyword("TO", "COPY"))
    return err;
  Expected<const Buffer *> to = buffer("COPY");
  if (!to)
    return to.takeError();
  if (*from == *to)
    return error(keyword.line,
                 "COPY from buffer '" + (*from)->name + "' to itself");
  auto copy = std::make_unique<CopyCommand>();
  copy->line = keyword.line;
  copy->from = (*from)->name;
  copy->to = (*to)->name;
  commands.push_back(std::move(copy));
  return endOfStatement("COPY");
}

Error AmberParser::parseClear(const Token &keyword, CommandList &commands) {
  StringRef context = keyword.text;
  Expected<const Pipeline *> found = pipeline(context);
  if (!found)
    return found.takeError();
  if ((*found)->isCompute())
    return error(keyword.line, context + " needs a graphics pipeline; '" +
                                   (*found)->name + "' is compute");
  auto clear = std::make_unique<ClearCommand>();
  clear->line = keyword.line;
  clear->pipeline = (*found)->name;
  if (context == "CLEAR_COLOR") {
    clear->target = ClearCommand::Target::Color;
    for (double &channel : clear->values) {
      Expected<uint64_t> value = integer("colour value", context, 255);
      if (!value)
        return value.takeError();
      channel = static_cast<double>(*value) / 255.0;
    }
  } else if (context == "CLEAR_DEPTH") {
    clear->target = ClearCommand::Target::Depth;
    Expected<double> depth = number("depth value", context);
    if (!depth)
      return depth.takeError();
    clear->values[0] = *depth;
  } else if (context == "CLEAR_STENCIL") {
    clear->target = ClearCommand::Target::Stencil;
    Expected<uint64_t> stencil = integer("stencil value", context, 255);
    if (!stencil)
      return stencil.takeError();
    clear->values[0] = static_cast<double>(*stencil);
  }
  commands.push_back(std::move(clear));
  return endOfStatement(context);
}

Error AmberParser::parseRepeat(const Token &keyword, CommandList &commands) {
  Expected<uint64_t> count = integer("count", "REPEAT");
  if (!count)
    return count.takeError();
  if (*count == 0)
    return error(keyword.line, "REPEAT count must be positive");
  // The first command may follow on the same line, as Amber allows.
  auto repeat = std::make_unique<RepeatCommand>();
  repeat->line = keyword.line;
  repeat->count = static_cast<uint32_t>(*count);
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.kind == Token::Kind::EndOfFile)
      return error(keyword.line, "missing END for REPEAT (opened at line " +
                                     Twine(keyword.line) + ")");
    if (token.is("END"))
      break;
    if (!isRepeatable(token.text))
      return error(token.line, quote(token) + " is not allowed in REPEAT");
    if (Error err = parseCommand(token, repeat->commands))
      return err;
  }
  commands.push_back(std::move(repeat));
  return endOfStatement("END of REPEAT");
}

Error AmberParser::parseDebug(const Token &keyword, CommandList &commands) {
  Expected<const Pipeline *> found = pipeline("DEBUG");
  if (!found)
    return found.takeError();
  auto debug = std::make_unique<DebugCommand>();
  debug->line = keyword.line;
  debug->pipeline = (*found)->name;
  for (uint32_t &count : debug->groups) {
    Expected<uint32_t> value = uint32("workgroup count", "DEBUG");
    if (!value)
      return value.takeError();
    count = *value;
  }
  if (Error err = endOfStatement("DEBUG"))
    return err;
  // The body is skipped; THREAD and EXPECT CALLSTACK open nested blocks.
  unsigned depth = 1;
  bool lineStart = true;
  for (Token token = tokens.next();; token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfFile)
      return error(keyword.line, "missing END for DEBUG (opened at line " +
                                     Twine(keyword.line) + ")");
    if (token.kind == Token::Kind::EndOfLine) {
      lineStart = true;
      continue;
    }
    if (lineStart) {
      if (token.is("END") && --depth == 0)
        break;
      if (token.is("THREAD") ||
          (token.is("EXPECT") && tokens.peek().is("CALLSTACK")))
        ++depth;
    }
    lineStart = false;
  }
  commands.push_back(std::move(debug));
  return endOfStatement("END of DEBUG");
}

//===----------------------------------------------------------------------===//
// The script
//===----------------------------------------------------------------------===//

Error AmberParser::parseTopLevel(const Token &token) {
  StringRef name = token.text;
  if (name == "SHADER")
    return parseShader(token);
  if (name == "VIRTUAL_FILE")
    return parseVirtualFile(token);
  if (name == "STRUCT")
    return parseStruct(token);
  if (name == "BUFFER" || name == "IMAGE")
    return parseBuffer(token, name == "IMAGE");
  if (name == "SAMPLER")
    return parseSampler(token);
  if (name == "PIPELINE")
    return parsePipeline(token);
  if (name == "DERIVE_PIPELINE")
    return parseDerivePipeline(token);
  if (name == "DEVICE_FEATURE")
    return parseStringCommand(script.deviceFeatures, name);
  if (name == "DEVICE_EXTENSION")
    return parseStringCommand(script.deviceExtensions, name);
  if (name == "INSTANCE_EXTENSION")
    return parseStringCommand(script.instanceExtensions, name);
  if (name == "DEVICE_PROPERTY")
    return parseStringCommand(script.deviceProperties, name);
  if (name == "SET")
    return parseSetEngineData();
  if (isRepeatable(name) || name == "REPEAT" || name == "DEBUG")
    return parseCommand(token, script.commands);
  return error(token.line, "unknown command " + quote(token));
}

Expected<Script> AmberParser::parse() {
  for (Token token = tokens.next(); token.kind != Token::Kind::EndOfFile;
       token = tokens.next()) {
    if (token.kind == Token::Kind::EndOfLine)
      continue;
    if (token.is("ACCELERATION_STRUCTURE") ||
        (token.is("PIPELINE") && tokens.peek().is("raytracing"))) {
      script.rayTracingLine = token.line;
      break;
    }
    if (Error err = parseTopLevel(token))
      return err;
  }
  return std::move(script);
}

} // namespace

Expected<Script> spvb::amber::parseAmberScript(StringRef text,
                                               StringRef fileName) {
  return AmberParser(text, fileName).parse();
}
