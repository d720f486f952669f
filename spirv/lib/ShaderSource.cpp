//===- ShaderSource.cpp - Load shaders and turn them into SPIR-V ----------===//

#include "spvbridge/spirv/ShaderSource.h"
#include "spvbridge/spirv/Validator.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include "glslang/Public/ResourceLimits.h"
#include "glslang/Public/ShaderLang.h"
#include "glslang/SPIRV/GlslangToSpv.h"
#include "spirv-tools/libspirv.hpp"

#include <cstring>
#include <memory>

using namespace spvb;

namespace {

constexpr uint32_t SpirvMagic = 0x07230203;

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Drops the trailing blanks glslang and SPIRV-Tools leave on each line.
std::string trimLog(llvm::StringRef log) {
  llvm::SmallVector<llvm::StringRef, 8> lines;
  log.rtrim(" \t\r\n").split(lines, '\n');
  std::string out;
  for (llvm::StringRef line : lines) {
    if (!out.empty())
      out += '\n';
    out += line.rtrim(" \t\r").str();
  }
  return out;
}

void initGlslangOnce() {
  // glslang keeps process-wide symbol tables; they must be built once before
  // any TShader is created, from whichever thread gets here first.
  static llvm::once_flag flag;
  llvm::call_once(flag, [] { glslang::InitializeProcess(); });
}

EShLanguage toGlslangStage(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Compute:
    return EShLangCompute;
  case ShaderStage::Vertex:
    return EShLangVertex;
  case ShaderStage::Fragment:
    return EShLangFragment;
  case ShaderStage::Geometry:
    return EShLangGeometry;
  case ShaderStage::TessControl:
    return EShLangTessControl;
  case ShaderStage::TessEvaluation:
    return EShLangTessEvaluation;
  }
  llvm_unreachable("unknown shader stage");
}

struct GlslangTarget {
  glslang::EShTargetClientVersion client;
  glslang::EShTargetLanguageVersion spirv;
};

/// The Vulkan version used for an spvX.Y target is the oldest one that
/// accepts that SPIR-V version.
GlslangTarget toGlslangTarget(spv_target_env env) {
  switch (env) {
  case SPV_ENV_VULKAN_1_0:
  case SPV_ENV_UNIVERSAL_1_0:
    return {glslang::EShTargetVulkan_1_0, glslang::EShTargetSpv_1_0};
  case SPV_ENV_UNIVERSAL_1_1:
    return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_1};
  case SPV_ENV_UNIVERSAL_1_2:
    return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_2};
  case SPV_ENV_VULKAN_1_1:
  case SPV_ENV_UNIVERSAL_1_3:
    return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
  case SPV_ENV_VULKAN_1_1_SPIRV_1_4:
  case SPV_ENV_UNIVERSAL_1_4:
    return {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_4};
  case SPV_ENV_VULKAN_1_2:
  case SPV_ENV_UNIVERSAL_1_5:
    return {glslang::EShTargetVulkan_1_2, glslang::EShTargetSpv_1_5};
  default:
    return {glslang::EShTargetVulkan_1_3, glslang::EShTargetSpv_1_6};
  }
}

/// Resolves #include "x" and #include <x>: first next to the including file,
/// then in each -I directory. Both forms search the same places because
/// shader authors use them interchangeably.
class FileIncluder : public glslang::TShader::Includer {
public:
  explicit FileIncluder(const std::vector<std::string> &includeDirs)
      : includeDirs(includeDirs) {}

  IncludeResult *includeLocal(const char *headerName, const char *includerName,
                              size_t) override {
    return resolve(headerName, includerName);
  }
  IncludeResult *includeSystem(const char *headerName, const char *includerName,
                               size_t) override {
    return resolve(headerName, includerName);
  }
  void releaseInclude(IncludeResult *result) override {
    if (!result)
      return;
    delete static_cast<llvm::MemoryBuffer *>(result->userData);
    delete result;
  }

private:
  IncludeResult *resolve(llvm::StringRef header, llvm::StringRef includer) {
    llvm::SmallVector<std::string, 4> candidates;
    if (llvm::sys::path::is_absolute(header)) {
      candidates.push_back(header.str());
    } else {
      if (!includer.empty() && includer != "<inline>") {
        llvm::SmallString<256> path(llvm::sys::path::parent_path(includer));
        llvm::sys::path::append(path, header);
        candidates.push_back(std::string(path));
      }
      for (const std::string &dir : includeDirs) {
        llvm::SmallString<256> path(dir);
        llvm::sys::path::append(path, header);
        candidates.push_back(std::string(path));
      }
    }
    for (std::string &candidate : candidates) {
      llvm::SmallString<256> path(candidate);
      llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
      if (!llvm::sys::fs::is_regular_file(path))
        continue;
      auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
      if (!buffer)
        continue;
      llvm::MemoryBuffer *owned = buffer->release();
      includedFiles.push_back(std::string(path));
      return new IncludeResult(std::string(path), owned->getBufferStart(),
                               owned->getBufferSize(), owned);
    }
    // A null result makes glslang report the directive with its location.
    return nullptr;
  }

  const std::vector<std::string> &includeDirs;

public:
  std::vector<std::string> includedFiles;
};

/// "NAME=VALUE" -> "#define NAME VALUE", "NAME" -> "#define NAME 1".
std::string buildPreamble(const std::vector<std::string> &defines,
                          bool enableIncludes) {
  std::string preamble;
  if (enableIncludes)
    preamble += "#extension GL_GOOGLE_include_directive : enable\n";
  for (const std::string &define : defines) {
    auto [name, value] = llvm::StringRef(define).split('=');
    preamble += "#define ";
    preamble += name.str();
    preamble += ' ';
    preamble += define.find('=') == std::string::npos ? "1" : value.str();
    preamble += '\n';
  }
  return preamble;
}

llvm::Expected<SpirvBinary>
compileWithGlslang(llvm::StringRef source, llvm::StringRef name,
                   ShaderStage stage, const SourceOptions &opts, bool hlsl) {
  llvm::Expected<spv_target_env> env = parseTargetEnv(opts.targetEnv);
  if (!env)
    return env.takeError();
  initGlslangOnce();

  EShLanguage glslangStage = toGlslangStage(stage);
  GlslangTarget target = toGlslangTarget(*env);
  // glslang 12 decorates HLSL storage buffers BufferBlock whatever the
  // target, which SPIR-V 1.4+ forbids (fixed upstream in glslang PR #3121).
  // SPIR-V 1.3 is accepted by every Vulkan version that accepts 1.4+.
  if (hlsl && target.spirv > glslang::EShTargetSpv_1_3)
    target = {glslang::EShTargetVulkan_1_1, glslang::EShTargetSpv_1_3};
  glslang::TShader shader(glslangStage);
  std::string sourceText = source.str();
  std::string nameText = name.str();
  const char *strings[] = {sourceText.c_str()};
  const int lengths[] = {static_cast<int>(sourceText.size())};
  const char *names[] = {nameText.c_str()};
  shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
  // HLSL has #include built in; GLSL needs the extension, which we enable
  // for every shader as glslc does, so headers work without boilerplate.
  std::string preamble = buildPreamble(opts.defines, /*enableIncludes=*/!hlsl);
  shader.setPreamble(preamble.c_str());
  std::vector<std::string> processes;
  for (const std::string &define : opts.defines)
    processes.push_back("define-macro " + define);
  shader.addProcesses(processes);
  shader.setEnvInput(hlsl ? glslang::EShSourceHlsl : glslang::EShSourceGlsl,
                     glslangStage, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, target.client);
  shader.setEnvTarget(glslang::EShTargetSpv, target.spirv);
  if (hlsl)
    shader.setEntryPoint(opts.entry.c_str());

  auto messages = static_cast<EShMessages>(
      EShMsgSpvRules | EShMsgVulkanRules | EShMsgDebugInfo |
      (hlsl ? EShMsgReadHlsl : EShMsgDefault));
  llvm::StringRef language = hlsl ? "HLSL" : "GLSL";
  FileIncluder includer(opts.includeDirs);
  if (!shader.parse(GetDefaultResources(), /*defaultVersion=*/450, ENoProfile,
                    /*forceDefaultVersionAndProfile=*/false,
                    /*forwardCompatible=*/false, messages, includer))
    return makeError("error: " + name + ": " + language +
                     " compilation failed:\n" + trimLog(shader.getInfoLog()));

  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages))
    return makeError("error: " + name + ": " + language +
                     " compilation failed:\n" + trimLog(program.getInfoLog()));

  // glslang only warns when the HLSL entry function is missing and then
  // emits an empty module.
  if (hlsl &&
      llvm::StringRef(program.getInfoLog()).contains("Entry point not found"))
    return makeError("error: " + name + ": " + language +
                     " compilation failed: entry point '" + opts.entry +
                     "' not found");

  glslang::SpvOptions spvOptions;
  // OpLine/OpSource feed source locations into runtime diagnostics.
  spvOptions.generateDebugInfo = true;
  // HLSL output is only legal after SPIRV-Tools' legalization passes.
  spvOptions.disableOptimizer = !hlsl;
  spvOptions.validate = false;
  spv::SpvBuildLogger logger;
  SpirvBinary binary;
  binary.name = nameText;
  binary.includedFiles = std::move(includer.includedFiles);
  if (hlsl && opts.debug) {
    // Unlegalized, if that is valid: the debugger then sees every function
    // and variable.
    glslang::SpvOptions unlegalized = spvOptions;
    unlegalized.disableOptimizer = true;
    spv::SpvBuildLogger quiet;
    glslang::GlslangToSpv(*program.getIntermediate(glslangStage), binary.words,
                          &quiet, &unlegalized);
    if (!binary.words.empty()) {
      if (llvm::Error invalid = validateSpirv(binary, opts.targetEnv))
        llvm::consumeError(std::move(invalid));
      else
        return binary;
    }
    binary.words.clear();
  }
  glslang::GlslangToSpv(*program.getIntermediate(glslangStage), binary.words,
                        &logger, &spvOptions);
  if (binary.words.empty())
    return makeError("error: " + name + ": " + language +
                     " compilation failed:\n" +
                     trimLog(logger.getAllMessages()));
  return binary;
}

} // namespace

llvm::StringRef spvb::getShaderStageName(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Compute:
    return "compute";
  case ShaderStage::Vertex:
    return "vertex";
  case ShaderStage::Fragment:
    return "fragment";
  case ShaderStage::Geometry:
    return "geometry";
  case ShaderStage::TessControl:
    return "tess-control";
  case ShaderStage::TessEvaluation:
    return "tess-evaluation";
  }
  llvm_unreachable("unknown shader stage");
}

llvm::Expected<SpirvBinary> spvb::parseSpirvBinary(llvm::ArrayRef<char> bytes,
                                                   llvm::StringRef name) {
  size_t size = bytes.size();
  if (size < 4)
    return makeError("error: " + name +
                     ": not a SPIR-V binary (file is too short: " +
                     llvm::Twine(size) + " bytes)");
  uint32_t magic;
  std::memcpy(&magic, bytes.data(), 4);
  bool swapped = magic == llvm::byteswap(SpirvMagic);
  if (magic != SpirvMagic && !swapped)
    return makeError("error: " + name +
                     ": not a SPIR-V binary (bad magic number " +
                     llvm::formatv("{0:x8}", magic) + ")");
  if (size % 4 != 0)
    return makeError("error: " + name + ": not a SPIR-V binary (size " +
                     llvm::Twine(size) + " bytes is not a multiple of 4)");
  if (size < 20)
    return makeError("error: " + name +
                     ": not a SPIR-V binary (truncated header: " +
                     llvm::Twine(size) + " bytes)");
  SpirvBinary binary;
  binary.name = name.str();
  binary.words.resize(size / 4);
  std::memcpy(binary.words.data(), bytes.data(), size);
  if (swapped)
    for (uint32_t &word : binary.words)
      word = llvm::byteswap(word);
  return binary;
}

llvm::Expected<SpirvBinary> spvb::compileGlsl(llvm::StringRef source,
                                              llvm::StringRef name,
                                              ShaderStage stage,
                                              const SourceOptions &opts) {
  return compileWithGlslang(source, name, stage, opts, /*hlsl=*/false);
}

llvm::Expected<SpirvBinary> spvb::compileHlsl(llvm::StringRef source,
                                              llvm::StringRef name,
                                              ShaderStage stage,
                                              const SourceOptions &opts) {
  return compileWithGlslang(source, name, stage, opts, /*hlsl=*/true);
}

llvm::Expected<SpirvBinary> spvb::assembleSpirv(llvm::StringRef text,
                                                llvm::StringRef name,
                                                const SourceOptions &opts) {
  llvm::Expected<spv_target_env> env = parseTargetEnv(opts.targetEnv);
  if (!env)
    return env.takeError();
  spvtools::SpirvTools tools(*env);
  std::string message;
  tools.SetMessageConsumer([&](spv_message_level_t level, const char *,
                               const spv_position_t &position,
                               const char *msg) {
    if (level > SPV_MSG_ERROR || !message.empty())
      return;
    // SPIRV-Tools counts text positions from 0.
    message = ("error: " + name + ":" + llvm::Twine(position.line + 1) + ":" +
               llvm::Twine(position.column + 1) + ": " + trimLog(msg))
                  .str();
  });
  SpirvBinary binary;
  binary.name = name.str();
  if (!tools.Assemble(text.data(), text.size(), &binary.words,
                      SPV_TEXT_TO_BINARY_OPTION_PRESERVE_NUMERIC_IDS)) {
    if (message.empty())
      message = ("error: " + name + ": cannot assemble SPIR-V").str();
    return makeError(message);
  }
  return binary;
}

llvm::Expected<std::string> spvb::disassembleSpirv(const SpirvBinary &binary) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string message;
  tools.SetMessageConsumer([&](spv_message_level_t level, const char *,
                               const spv_position_t &position,
                               const char *msg) {
    if (level <= SPV_MSG_ERROR && message.empty())
      message = ("error: " + binary.name + ": cannot disassemble (word " +
                 llvm::Twine(position.index) + "): " + trimLog(msg))
                    .str();
  });
  std::string text;
  if (!tools.Disassemble(binary.words, &text,
                         SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                             SPV_BINARY_TO_TEXT_OPTION_INDENT)) {
    if (message.empty())
      message = "error: " + binary.name + ": cannot disassemble";
    return makeError(message);
  }
  return text;
}

llvm::Expected<SpirvBinary> spvb::loadShaderFile(llvm::StringRef path,
                                                 const SourceOptions &opts) {
  llvm::StringRef ext = llvm::sys::path::extension(path);
  enum class Kind { Binary, Assembly, Glsl, Hlsl };
  Kind kind;
  ShaderStage stage = ShaderStage::Compute;
  if (ext == ".spv") {
    kind = Kind::Binary;
  } else if (ext == ".spvasm") {
    kind = Kind::Assembly;
  } else if (ext == ".comp" || ext == ".glsl") {
    kind = Kind::Glsl;
  } else if (ext == ".vert") {
    kind = Kind::Glsl;
    stage = ShaderStage::Vertex;
  } else if (ext == ".frag") {
    kind = Kind::Glsl;
    stage = ShaderStage::Fragment;
  } else if (ext == ".geom") {
    kind = Kind::Glsl;
    stage = ShaderStage::Geometry;
  } else if (ext == ".tesc") {
    kind = Kind::Glsl;
    stage = ShaderStage::TessControl;
  } else if (ext == ".tese") {
    kind = Kind::Glsl;
    stage = ShaderStage::TessEvaluation;
  } else if (ext == ".hlsl") {
    kind = Kind::Hlsl;
  } else {
    return makeError("error: " + path + ": unknown shader file extension '" +
                     ext +
                     "' (expected .spv, .spvasm, .comp, .vert, .tesc, .tese, "
                     ".geom, .frag, .glsl or .hlsl)");
  }

  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("error: " + path +
                     ": cannot open file: " + buffer.getError().message());
  llvm::StringRef contents = (*buffer)->getBuffer();
  switch (kind) {
  case Kind::Binary:
    return parseSpirvBinary(
        llvm::ArrayRef<char>(contents.data(), contents.size()), path);
  case Kind::Assembly:
    return assembleSpirv(contents, path, opts);
  case Kind::Glsl:
    return compileGlsl(contents, path, stage, opts);
  case Kind::Hlsl:
    return compileHlsl(contents, path, ShaderStage::Compute, opts);
  }
  llvm_unreachable("unknown shader kind");
}
