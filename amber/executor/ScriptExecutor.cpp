//===- ScriptExecutor.cpp - Run an Amber script on the CPU ----------------===//
#include "spvbridge/amber/ScriptExecutor.h"

#include "DrawGeometry.h"
#include "ShaderEnvironment.h"
#include "VulkanDraws.h"
#include "spvbridge/amber/AmberLayout.h"
#include "spvbridge/amber/ExpectChecks.h"
#include "spvbridge/amber/GraphicsSettings.h"
#include "spvbridge/amber/PngFiles.h"
#include "spvbridge/amber/ScriptRequirements.h"

#include "spvbridge/bridge/Draw.h"
#include "spvbridge/cpu_runtime/GuardedBuffer.h"
#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/spirv/Optimization.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <deque>
#include <map>
#include <tuple>

using namespace spvb;
using namespace spvb::amber;

namespace {

/// The SPIR-V image format of a Vulkan format (R8G8B8A8_UNORM: rgba8), if
/// storage and sampled images of it exist in SPIR-V.
const runtime::ImageFormat *findImageFormatFor(const Type &type) {
  // IMAGE ... DATA_TYPE vec4<int32>: the format with those components
  // (R32G32B32A32_SINT).
  if (type.kind == Type::Kind::Number && type.columns == 1 && type.rows <= 4 &&
      !type.isArray) {
    Type format;
    format.kind = Type::Kind::Format;
    format.name = type.name;
    for (uint32_t i = 0; i < type.rows; ++i)
      format.components.push_back({"RGBA"[i], type.scalar});
    return findImageFormatFor(format);
  }
  if (type.kind != Type::Kind::Format || type.components.empty())
    return nullptr;
  if (type.packedBits) {
    if (type.name == "A2B10G10R10_UNORM_PACK32")
      return runtime::findImageFormat("rgb10_a2");
    if (type.name == "A2B10G10R10_UINT_PACK32")
      return runtime::findImageFormat("rgb10a2ui");
    if (type.name == "B10G11R11_UFLOAT_PACK32")
      return runtime::findImageFormat("r11f_g11f_b10f");
    return nullptr;
  }
  std::string name;
  const ScalarType &scalar = type.components.front().scalar;
  for (size_t i = 0; i < type.components.size(); ++i) {
    const FormatComponent &component = type.components[i];
    if (i >= 4 || component.channel != "RGBA"[i] || component.scalar != scalar)
      return nullptr;
    name.push_back(llvm::toLower(component.channel));
  }
  name += std::to_string(scalar.bits);
  switch (scalar.mode) {
  case NumericMode::SFloat:
    name += "f";
    break;
  case NumericMode::UInt:
    name += "ui";
    break;
  case NumericMode::SInt:
    name += "i";
    break;
  case NumericMode::UNorm:
    break;
  case NumericMode::SNorm:
    name += "_snorm";
    break;
  default:
    return nullptr;
  }
  return runtime::findImageFormat(name);
}

/// The bytes of every mip level of an image, level after level, with every
/// sample of a multisampled one (kernel_abi.h's layout).
uint64_t getImageByteSize(const Buffer &buffer, unsigned texelBytes) {
  uint64_t total = 0;
  for (uint32_t level = 0; level < std::max(1u, buffer.mipLevels); ++level)
    total += uint64_t(std::max(1u, buffer.width >> level)) *
             std::max(1u, buffer.height >> level) *
             std::max(1u, buffer.depth >> level) * texelBytes;
  return total * std::max(1u, buffer.samples);
}

/// Amber copies no multisampled image back to the host (Vulkan copies none
/// to a buffer), so an EXPECT on one would check stale bytes: refused.
std::optional<std::string> refuseMultisampled(const Buffer *buffer) {
  if (!buffer || buffer->samples <= 1)
    return std::nullopt;
  return llvm::formatv("EXPECT on multisampled image '{0}' ({1} samples): "
                       "Amber reads no multisampled image back (Vulkan "
                       "copies none to a buffer), so there is nothing to "
                       "check; copy its samples into a single-sample image "
                       "in the shader",
                       buffer->name, buffer->samples)
      .str();
}

/// Writes `texel` to every pixel of the framebuffer's area of `attachment`.
void fillRenderArea(const runtime::Attachment &attachment,
                    const runtime::RenderTarget &target, const uint8_t *texel) {
  unsigned size = attachment.format->texelBytes;
  for (uint32_t y = 0; y < target.height; ++y)
    for (uint32_t x = 0; x < target.width; ++x)
      for (uint32_t sample = 0; sample < attachment.samples; ++sample)
        std::memcpy(attachment.at(x, y, sample), texel, size);
}

/// RGBA32F texels of an image in a Vulkan format (depth as red).
/// The texels of an image whose format SPIR-V cannot name, widened to the
/// 32-bit RGBA format of its kind (rgba32ui, rgba32i or rgba32f), which a
/// shader reading through a view of that format sees the same values in.
std::pair<const runtime::ImageFormat *, runtime::GuardedBuffer>
widenTexels(const runtime::VulkanFormat &format, const uint8_t *data,
            uint64_t size) {
  uint64_t count = size / format.texelBytes;
  runtime::GuardedBuffer converted(count * 16);
  bool integer = runtime::isIntegerFormat(format);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t *texel = data + i * format.texelBytes;
    uint8_t *to = converted.data() + i * 16;
    if (integer) {
      runtime::Color color = runtime::decodeColor(format, texel);
      uint32_t rgba[4];
      for (int c = 0; c < 4; ++c)
        rgba[c] = static_cast<uint32_t>(color.i[c]);
      std::memcpy(to, rgba, 16);
      continue;
    }
    float rgba[4] = {0, 0, 0, 1};
    if (format.components) {
      runtime::Color color = runtime::decodeColor(format, texel);
      for (int c = 0; c < 4; ++c)
        rgba[c] = static_cast<float>(color.f[c]);
    } else if (format.depthBits) {
      rgba[0] = static_cast<float>(runtime::decodeDepth(format, texel));
    } else {
      rgba[0] = runtime::decodeStencil(format, texel);
    }
    std::memcpy(to, rgba, 16);
  }
  const char *wide = !integer                                      ? "rgba32f"
                     : format.kind == runtime::ComponentKind::Sint ? "rgba32i"
                                                                   : "rgba32ui";
  return {runtime::findImageFormat(wide), std::move(converted)};
}

spvb_sampler makeSampler(const Sampler &sampler) {
  spvb_sampler settings{};
  settings.mag_filter = sampler.magFilter == Filter::Linear;
  settings.min_filter = sampler.minFilter == Filter::Linear;
  settings.mipmap_mode = sampler.mipmapMode == Filter::Linear;
  // The enumerations follow VkSamplerAddressMode and VkBorderColor.
  settings.address_mode[0] = static_cast<uint32_t>(sampler.addressU);
  settings.address_mode[1] = static_cast<uint32_t>(sampler.addressV);
  settings.address_mode[2] = static_cast<uint32_t>(sampler.addressW);
  settings.min_lod = sampler.minLod;
  settings.max_lod = sampler.maxLod;
  settings.border_color = static_cast<uint32_t>(sampler.borderColor);
  settings.unnormalized_coordinates = !sampler.normalizedCoords;
  // CompareOp follows VkCompareOp.
  settings.compare_enable = sampler.compareEnable;
  settings.compare_op = static_cast<uint32_t>(sampler.compareOp);
  return settings;
}

/// An inline GLSL shader reports (and records in its debug info) the
/// script's line numbers: a #line after #version.
std::string mapLinesToScript(const Shader &shader) {
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(shader.source).split(lines, '\n');
  std::string text;
  bool mapped = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    text += lines[i].str() + "\n";
    if (!mapped && lines[i].ltrim().starts_with("#version")) {
      // Source line i + 1 is script line shader.line + i + 1.
      text += "#line " + std::to_string(shader.line + i + 2) + "\n";
      mapped = true;
    }
  }
  return text;
}

spvb::ShaderStage getSourceStage(amber::ShaderStage stage) {
  switch (stage) {
  case amber::ShaderStage::Vertex:
    return spvb::ShaderStage::Vertex;
  case amber::ShaderStage::TessellationControl:
    return spvb::ShaderStage::TessControl;
  case amber::ShaderStage::TessellationEvaluation:
    return spvb::ShaderStage::TessEvaluation;
  case amber::ShaderStage::Geometry:
    return spvb::ShaderStage::Geometry;
  case amber::ShaderStage::Fragment:
    return spvb::ShaderStage::Fragment;
  default:
    return spvb::ShaderStage::Compute;
  }
}

spv::ExecutionModel getExecutionModel(amber::ShaderStage stage) {
  switch (stage) {
  case amber::ShaderStage::Vertex:
    return spv::ExecutionModelVertex;
  case amber::ShaderStage::TessellationControl:
    return spv::ExecutionModelTessellationControl;
  case amber::ShaderStage::TessellationEvaluation:
    return spv::ExecutionModelTessellationEvaluation;
  case amber::ShaderStage::Geometry:
    return spv::ExecutionModelGeometry;
  case amber::ShaderStage::Fragment:
    return spv::ExecutionModelFragment;
  default:
    return spv::ExecutionModelGLCompute;
  }
}

/// Amber's PASSTHROUGH vertex shader: Location 0 is gl_Position.
constexpr const char *kPassthroughVertexShader = R"(#version 430
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
)";

/// What CLEAR writes (CLEAR_COLOR, CLEAR_DEPTH, CLEAR_STENCIL set it).
struct ClearValues {
  std::array<double, 4> color = {0, 0, 0, 0};
  double depth = 1;
  uint32_t stencil = 0;
};

class Executor {
public:
  Executor(const Script &script, JitCompiler &jit,
           const ExecutorOptions &options)
      : script(script), jit(jit), options(options) {}

  ScriptResult run();

private:
  /// False once a command failed in a way later ones cannot recover from.
  bool runCommands(const std::vector<std::unique_ptr<Command>> &commands);
  bool runCommand(const Command &command);
  bool runDispatch(const RunCommand &run);
  bool runDraw(const DrawCommand &draw);
  bool runClear(const ClearCommand &clear);
  template <typename Binder>
  bool bindDescriptor(Binder &binder, const Kernel &kernel,
                      const amber::DescriptorBinding &binding, unsigned line);
  /// Sizes and allocates the attachments of the graphics pipelines.
  void sizeAttachments();
  /// `FILE PNG`: the image's texels and size.
  bool loadPng(const Buffer &buffer);
  /// --dump-images.
  void dumpImages();
  /// A failed probe's actual and difference images (ScriptExecutor.h): the
  /// note for its failure, their paths or why they were not written.
  std::string writeProbeImages(llvm::StringRef name, const Buffer &image,
                               const ProbedTexels &probed);
  /// The buffer as probes see it: an attachment with its pipeline's size.
  const Buffer &getImage(llvm::StringRef name) const;
  llvm::Expected<runtime::RenderTarget>
  getRenderTarget(const Pipeline &pipeline);
  llvm::Expected<std::shared_ptr<const Kernel>>
  /// `debug`: a build for a debugger (--debug-pixel's fragment shader).
  getStageKernel(const Pipeline &pipeline, amber::ShaderStage stage,
                 bool debug = false);
  /// --backend=vulkan: the stage's module as built, with its kernel.
  llvm::Expected<StageModule> getStageModule(const Pipeline &pipeline,
                                             amber::ShaderStage stage);
  llvm::Expected<runtime::GraphicsState *>
  getGraphicsState(const Pipeline &pipeline);
  llvm::Expected<BuiltModule> buildShader(const Shader &shader,
                                          const ShaderAttachment &attachment);
  llvm::Expected<std::shared_ptr<const Kernel>>
  getKernel(const Pipeline &pipeline);
  runtime::Launcher &getLauncher(uint32_t subgroupSize);
  /// The subgroup size `pipeline` runs with: the one a shader requires,
  /// else the executor's.
  uint32_t getSubgroupSize(const Pipeline &pipeline) const;

  const Script &script;
  JitCompiler &jit;
  ExecutorOptions options;
  ScriptResult result;
  /// Every buffer's current bytes, by name, between guard regions.
  std::map<std::string, runtime::GuardedBuffer> memory;
  /// VkScript `compute entrypoint NAME`, by pipeline.
  std::map<std::string, std::string> entryPoints;
  std::map<std::string, std::shared_ptr<const Kernel>> kernels;
  /// Each kernel's module as built, entry point and specialization, for
  /// --backend=vulkan.
  std::map<const Kernel *, StageModule> stageModules;
  std::deque<SpirvBinary> builtModules;
  std::map<uint32_t, std::unique_ptr<runtime::Launcher>> launchers;
  /// Descriptors of the dispatch being bound (stable addresses).
  std::deque<spvb_image> images;
  std::deque<spvb_sampler> samplers;
  /// Widened copies of images whose format SPIR-V cannot name.
  std::deque<runtime::GuardedBuffer> convertedImages;
  /// Storage images among them: written back to their buffers after the
  /// run, as stores through a view of the buffer's format would be.
  struct WriteBack {
    const runtime::VulkanFormat *format;
    const runtime::GuardedBuffer *wide;
    runtime::GuardedBuffer *original;
  };
  std::vector<WriteBack> writeBacks;
  void writeBackImages();
  /// Colour and depth attachments, sized by their pipelines.
  std::map<std::string, Buffer> attachments;
  std::map<std::string, runtime::GraphicsState> graphicsStates;
  std::map<std::string, ClearValues> clearValues;
  /// How many probes of each buffer failed so far (names their images).
  std::map<std::string, unsigned> probeFailures;
};

} // namespace

ScriptResult Executor::run() {
  if (std::optional<std::string> reason = findUnmetRequirement(script))
    return ScriptResult::skip(*reason);
  for (const Buffer &buffer : script.buffers) {
    std::vector<uint8_t> bytes = buffer.initialBytes();
    // Images hold every mip level.
    if (buffer.dimension != ImageDimension::None)
      if (const runtime::ImageFormat *format = findImageFormatFor(buffer.type))
        bytes.resize(std::max<uint64_t>(
            bytes.size(), getImageByteSize(buffer, format->texelBytes)));
    memory[buffer.name].assign(bytes);
    if (buffer.init == InitKind::Png && !loadPng(buffer))
      return std::move(result);
  }
  sizeAttachments();
  runCommands(script.commands);
  if (!options.imageDirectory.empty())
    dumpImages();
  // A GLSL extension newer than the packaged glslang is something this
  // build lacks, not a failure of the script.
  llvm::StringRef first = result.reason;
  size_t unknown = first.find("extension not supported: ");
  if (result.status == ScriptResult::Status::Fail &&
      unknown != llvm::StringRef::npos) {
    llvm::StringRef name = first.substr(unknown)
                               .drop_front(strlen("extension not supported: "))
                               .take_until([](char c) { return c == '\n'; })
                               .trim();
    return ScriptResult::skip("GLSL extension " + name.str() +
                              ", which the packaged glslang does not know");
  }
  return std::move(result);
}

bool Executor::runCommands(
    const std::vector<std::unique_ptr<Command>> &commands) {
  for (const std::unique_ptr<Command> &command : commands)
    if (!runCommand(*command))
      return false;
  return true;
}

bool Executor::runCommand(const Command &command) {
  if (auto *run = llvm::dyn_cast<RunCommand>(&command))
    return runDispatch(*run);
  if (auto *expect = llvm::dyn_cast<ExpectCommand>(&command)) {
    std::optional<std::string> failure =
        refuseMultisampled(script.findBuffer(expect->buffer));
    if (!failure)
      failure = checkExpect(*expect, memory[expect->buffer]);
    if (failure)
      result.fail(command.line, *failure);
    return true;
  }
  if (auto *probe = llvm::dyn_cast<ExpectRectCommand>(&command)) {
    const Buffer &image = getImage(probe->buffer);
    std::optional<std::string> failure = refuseMultisampled(&image);
    ProbedTexels probed;
    if (!failure)
      failure = checkExpectRect(*probe, image, memory[probe->buffer], &probed);
    if (failure) {
      // Only a comparison of texels has something to show.
      result.fail(command.line, *failure,
                  probed.failing.empty()
                      ? ""
                      : writeProbeImages(probe->buffer, image, probed));
    }
    return true;
  }
  if (auto *compare = llvm::dyn_cast<CompareBuffersCommand>(&command)) {
    const Buffer &buffer = getImage(compare->buffer);
    const Buffer &other = getImage(compare->other);
    std::optional<std::string> failure = refuseMultisampled(&buffer);
    if (!failure)
      failure = refuseMultisampled(&other);
    if (!failure)
      failure = checkBufferComparison(*compare, buffer, memory[compare->buffer],
                                      other, memory[compare->other]);
    if (failure)
      result.fail(command.line, *failure);
    return true;
  }
  if (auto *copy = llvm::dyn_cast<CopyCommand>(&command)) {
    memory[copy->to] = memory[copy->from];
    // A copy of an attachment has its size.
    auto attachment = attachments.find(copy->from);
    if (attachment != attachments.end()) {
      Buffer sized = *script.findBuffer(copy->to);
      sized.width = attachment->second.width;
      sized.height = attachment->second.height;
      sized.depth = attachment->second.depth;
      sized.dimension = attachment->second.dimension;
      attachments[copy->to] = std::move(sized);
    }
    return true;
  }
  if (auto *write = llvm::dyn_cast<BufferWriteCommand>(&command)) {
    std::vector<uint8_t> bytes =
        packValues(write->type, write->layout, write->values);
    runtime::GuardedBuffer &target = memory[write->buffer];
    if (target.size() < write->offset + bytes.size())
      target.resize(write->offset + bytes.size());
    std::memcpy(target.data() + write->offset, bytes.data(), bytes.size());
    return true;
  }
  if (auto *entry = llvm::dyn_cast<EntryPointCommand>(&command)) {
    entryPoints[entry->pipeline + "\n" + stageName(entry->stage).str()] =
        entry->entryPoint;
    return true;
  }
  if (auto *draw = llvm::dyn_cast<DrawCommand>(&command))
    return runDraw(*draw);
  if (auto *clear = llvm::dyn_cast<ClearCommand>(&command))
    return runClear(*clear);
  if (auto *state = llvm::dyn_cast<GraphicsStateCommand>(&command)) {
    const Pipeline &pipeline = *script.findPipeline(state->pipeline);
    llvm::Expected<runtime::GraphicsState *> current =
        getGraphicsState(pipeline);
    llvm::Error error = current ? applyVkScriptState(script, *state, **current)
                                : current.takeError();
    if (error) {
      std::string message = llvm::toString(std::move(error));
      llvm::StringRef text(message);
      text.consume_front("error: ");
      result.fail(command.line, text.str());
      return false;
    }
    return true;
  }
  if (auto *repeat = llvm::dyn_cast<RepeatCommand>(&command)) {
    for (uint32_t i = 0; i < repeat->count; ++i)
      if (!runCommands(repeat->commands))
        return false;
    return true;
  }
  // findUnmetRequirement skipped scripts with the other kinds.
  result.fail(command.line, "unexpected command");
  return false;
}

llvm::Expected<BuiltModule>
Executor::buildShader(const Shader &shader,
                      const ShaderAttachment &attachment) {
  ShaderEnvironments environments =
      getShaderEnvironments(script, shader, options.targetEnv);
  SourceOptions source;
  source.targetEnv = environments.fixed.empty()
                         ? environments.allowed.back().name.str()
                         : environments.fixed;
  source.entry = attachment.entryPoint;
  bool inScript = shader.resolvedPath.empty();
  std::string name = inScript ? script.fileName : shader.resolvedPath;
  auto fromBinary =
      [&](llvm::Expected<SpirvBinary> binary) -> llvm::Expected<BuiltModule> {
    if (!binary)
      return binary.takeError();
    // parseSpirvBinary refuses a module shorter than its 5-word header.
    std::string targetEnv = environments.forBinary(binary->words[1]);
    return BuiltModule{std::move(*binary), std::move(targetEnv)};
  };
  auto withSourceEnv =
      [&](llvm::Expected<SpirvBinary> binary) -> llvm::Expected<BuiltModule> {
    if (!binary)
      return binary.takeError();
    return BuiltModule{std::move(*binary), source.targetEnv};
  };
  llvm::Expected<BuiltModule> built = [&]() -> llvm::Expected<BuiltModule> {
    switch (shader.format) {
    case ShaderFormat::Glsl:
      return withSourceEnv(
          compileGlsl(inScript ? mapLinesToScript(shader) : shader.source, name,
                      getSourceStage(attachment.stage), source));
    case ShaderFormat::Hlsl:
      return withSourceEnv(compileHlsl(
          shader.source, name, getSourceStage(attachment.stage), source));
    case ShaderFormat::SpirvAsm:
      if (environments.fixed.empty())
        return assembleForOldestEnvironment(shader.source, name, source,
                                            environments.allowed,
                                            options.compile.validate);
      return withSourceEnv(assembleSpirv(shader.source, name, source));
    case ShaderFormat::SpirvHex: {
      std::vector<char> bytes;
      llvm::SmallVector<llvm::StringRef> tokens;
      llvm::SplitString(shader.source, tokens);
      for (llvm::StringRef token : tokens) {
        unsigned byte = 0;
        token.consume_front_insensitive("0x");
        if (token.getAsInteger(16, byte) || byte > 0xff)
          return llvm::createStringError(
              llvm::inconvertibleErrorCode(),
              "error: %s:%u: shader '%s': '%s' is not a hex byte",
              script.fileName.c_str(), shader.line, shader.name.c_str(),
              token.str().c_str());
        bytes.push_back(static_cast<char>(byte));
      }
      return fromBinary(parseSpirvBinary(bytes, name));
    }
    case ShaderFormat::SpirvBin:
      return fromBinary(parseSpirvBinary(
          llvm::ArrayRef<char>(shader.source.data(), shader.source.size()),
          name));
    case ShaderFormat::OpenClC:
      break;
    }
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: unsupported shader format");
  }();
  if (!built || attachment.optimizations.empty())
    return built;
  llvm::Expected<SpirvBinary> optimized = runSpirvOptPasses(
      built->binary, attachment.optimizations, built->targetEnv);
  if (!optimized)
    return optimized.takeError();
  built->binary = std::move(*optimized);
  return built;
}

llvm::Expected<std::shared_ptr<const Kernel>>
Executor::getKernel(const Pipeline &pipeline) {
  return getStageKernel(pipeline, amber::ShaderStage::Compute);
}

llvm::Expected<std::shared_ptr<const Kernel>>
Executor::getStageKernel(const Pipeline &pipeline, amber::ShaderStage stage,
                         bool debug) {
  const ShaderAttachment *attachment = nullptr;
  for (const ShaderAttachment &candidate : pipeline.shaders)
    if (candidate.stage == stage)
      attachment = &candidate;
  if (!attachment)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "pipeline '%s' has no %s shader attached",
                                   pipeline.name.c_str(),
                                   stageName(stage).str().c_str());
  std::string entry = attachment->entryPoint;
  auto overridden =
      entryPoints.find(pipeline.name + "\n" + stageName(stage).str());
  if (overridden != entryPoints.end())
    entry = overridden->second;
  std::string key = pipeline.name + "\n" + stageName(stage).str() + "\n" +
                    entry + (debug ? "\ndebug" : "");
  auto cached = kernels.find(key);
  if (cached != kernels.end())
    return cached->second;

  const Shader *shader = script.findShader(attachment->shader);
  llvm::Expected<BuiltModule> built = [&]() -> llvm::Expected<BuiltModule> {
    if (!shader->passthrough)
      return buildShader(*shader, *attachment);
    SourceOptions source;
    source.targetEnv = "vulkan1.0";
    llvm::Expected<SpirvBinary> binary =
        compileGlsl(kPassthroughVertexShader, "passthrough.vert",
                    spvb::ShaderStage::Vertex, source);
    if (!binary)
      return binary.takeError();
    return BuiltModule{std::move(*binary), source.targetEnv};
  }();
  if (!built)
    return built.takeError();
  CompileOptions compile = options.compile;
  compile.debug |= debug;
  compile.executionModel = getExecutionModel(stage);
  compile.source.targetEnv = built->targetEnv;
  compile.source.entry = attachment->entryPoint;
  compile.entryPoint = entry;
  // As a driver compiles a pipeline: for the subgroup size it runs with.
  compile.subgroupSize = getSubgroupSize(pipeline);
  compile.specializations.clear();
  for (const Specialization &spec : attachment->specializations) {
    SpecConstantValue value;
    value.id = spec.id;
    if (spec.scalar.isFloat()) {
      float f = static_cast<float>(spec.value.asDouble());
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      value.type = "f32";
      value.words = {bits};
    } else {
      value.type = spec.scalar.isSigned() ? "i32" : "u32";
      value.words = {static_cast<uint32_t>(spec.value.asUint64())};
    }
    compile.specializations.push_back(std::move(value));
  }
  llvm::Expected<std::shared_ptr<const Kernel>> kernel =
      jit.compile(built->binary, compile);
  if (!kernel)
    return kernel;
  kernels[key] = *kernel;
  if (options.vulkanDraws && !debug)
    stageModules[kernel->get()] = {&builtModules.emplace_back(built->binary),
                                   entry, compile.specializations,
                                   kernel->get()};
  return kernel;
}

llvm::Expected<StageModule> Executor::getStageModule(const Pipeline &pipeline,
                                                     amber::ShaderStage stage) {
  llvm::Expected<std::shared_ptr<const Kernel>> kernel =
      getStageKernel(pipeline, stage);
  if (!kernel)
    return kernel.takeError();
  return stageModules[kernel->get()];
}

uint32_t Executor::getSubgroupSize(const Pipeline &pipeline) const {
  uint32_t subgroupSize = options.subgroupSize;
  for (const ShaderAttachment &attachment : pipeline.shaders)
    if (attachment.subgroup && attachment.subgroup->requiredSize)
      subgroupSize = attachment.subgroup->requiredSize;
  return subgroupSize;
}

runtime::Launcher &Executor::getLauncher(uint32_t subgroupSize) {
  if (options.getLauncher)
    return options.getLauncher(subgroupSize);
  std::unique_ptr<runtime::Launcher> &launcher = launchers[subgroupSize];
  if (!launcher)
    launcher =
        std::make_unique<runtime::Launcher>(options.threads, subgroupSize);
  return *launcher;
}

template <typename Binder>
bool Executor::bindDescriptor(Binder &dispatch, const Kernel &kernel,
                              const amber::DescriptorBinding &binding,
                              unsigned line) {
  auto where = [&] {
    return llvm::formatv("BIND at line {0} (set {1}, binding {2})",
                         binding.line, binding.set, binding.binding)
        .str();
  };
  if (binding.kind == DescriptorKind::Sampler) {
    for (size_t e = 0; e < binding.samplers.size(); ++e) {
      samplers.push_back(makeSampler(*script.findSampler(binding.samplers[e])));
      dispatch.bindSampler(binding.set, binding.binding, &samplers.back(), e);
    }
    return true;
  }
  const ResourceInfo *resource =
      kernel.reflection.findResource(binding.set, binding.binding);
  for (size_t e = 0; e < binding.buffers.size(); ++e) {
    const Buffer &buffer = getImage(binding.buffers[e]);
    runtime::GuardedBuffer &bytes = memory[buffer.name];
    switch (binding.kind) {
    case DescriptorKind::StorageBuffer:
    case DescriptorKind::UniformBuffer:
    case DescriptorKind::StorageBufferDynamic:
    case DescriptorKind::UniformBufferDynamic: {
      uint64_t offset = e < binding.descriptorOffsets.size()
                            ? binding.descriptorOffsets[e]
                            : 0;
      if (e < binding.dynamicOffsets.size())
        offset += binding.dynamicOffsets[e];
      uint64_t range = e < binding.descriptorRanges.size()
                           ? binding.descriptorRanges[e]
                           : amber::DescriptorBinding::kWholeSize;
      if (offset > bytes.size() ||
          (range != amber::DescriptorBinding::kWholeSize &&
           range > bytes.size() - offset)) {
        result.fail(line, llvm::formatv("{0}: offset {1} and range {2} do not "
                                        "fit buffer '{3}' ({4} bytes)",
                                        where(), offset, range, buffer.name,
                                        bytes.size())
                              .str());
        return false;
      }
      if (range == amber::DescriptorBinding::kWholeSize)
        range = bytes.size() - offset;
      dispatch.bindBuffer(binding.set, binding.binding, bytes.data() + offset,
                          range, e);
      break;
    }
    default: {
      const runtime::ImageFormat *format = findImageFormatFor(buffer.type);
      runtime::GuardedBuffer *texels = &bytes;
      bool readOnly = binding.kind == DescriptorKind::SampledImage ||
                      binding.kind == DescriptorKind::CombinedImageSampler ||
                      binding.kind == DescriptorKind::UniformTexelBuffer;
      if (!format) {
        // A format SPIR-V cannot name (B8G8R8A8_UNORM, SRGB, packed,
        // depth): the shader reads a widened copy of it, which holds the
        // values a view of the buffer's format gives; a storage image's
        // stores go back to the buffer after the run.
        const runtime::VulkanFormat *vulkan =
            runtime::findVulkanFormat(getVulkanFormatName(buffer.type));
        // Depth and stencil texels are only ever read.
        if (vulkan && (readOnly || vulkan->components)) {
          auto [wide, copy] = widenTexels(*vulkan, bytes.data(), bytes.size());
          format = wide;
          texels = &convertedImages.emplace_back(std::move(copy));
          if (!readOnly)
            writeBacks.push_back({vulkan, texels, &bytes});
        }
      }
      if (!format) {
        result.fail(line, where() + ": buffer '" + buffer.name +
                              "' has format " + buffer.type.name +
                              ", which is no SPIR-V image format");
        return false;
      }
      bool texelBuffer = binding.kind == DescriptorKind::UniformTexelBuffer ||
                         binding.kind == DescriptorKind::StorageTexelBuffer;
      uint32_t samples = texelBuffer ? 1 : std::max(1u, buffer.samples);
      // Vulkan binds an image of more than one sample exactly to an MS=1
      // OpTypeImage.
      if (resource && resource->image &&
          resource->image->multisampled != (samples > 1)) {
        result.fail(
            line,
            resource->image->multisampled
                ? llvm::formatv("{0}: the shader's '{1}' is multisampled but "
                                "image '{2}' has one sample (no SAMPLES)",
                                where(), resource->name, buffer.name)
                      .str()
                : llvm::formatv("{0}: image '{1}' has {2} samples but the "
                                "shader's '{3}' is not multisampled",
                                where(), buffer.name, samples, resource->name)
                      .str());
        return false;
      }
      spvb_image image{};
      image.data = texels->data();
      image.format = format->format;
      image.size = texels->size();
      image.layers = 1;
      image.samples = samples;
      image.levels = texelBuffer ? 1 : std::max(1u, buffer.mipLevels);
      if (texelBuffer) {
        image.dim = spv::DimBuffer;
        image.extent[0] =
            static_cast<uint32_t>(texels->size() / format->texelBytes);
        image.extent[1] = image.extent[2] = 1;
      } else {
        image.dim = resource && resource->image ? resource->image->dim
                    : buffer.dimension == ImageDimension::Dim3D ? spv::Dim3D
                    : buffer.dimension == ImageDimension::Dim1D ? spv::Dim1D
                                                                : spv::Dim2D;
        image.extent[0] = std::max(1u, buffer.width);
        image.extent[1] = std::max(1u, buffer.height);
        image.extent[2] = std::max(1u, buffer.depth);
        // BASE_MIP_LEVEL: the view starts at that level.
        for (uint32_t level = 0;
             level < binding.baseMipLevel && image.levels > 1; ++level) {
          uint64_t bytes = uint64_t(image.extent[0]) * image.extent[1] *
                           image.extent[2] * format->texelBytes * samples;
          image.data += bytes;
          image.size -= std::min<uint64_t>(bytes, image.size);
          for (int d = 0; d < 3; ++d)
            image.extent[d] = std::max(1u, image.extent[d] / 2);
          --image.levels;
        }
      }
      if (binding.kind == DescriptorKind::CombinedImageSampler &&
          !binding.samplers.empty()) {
        samplers.push_back(
            makeSampler(*script.findSampler(binding.samplers.front())));
        image.sampler = &samplers.back();
      }
      images.push_back(image);
      dispatch.bindImage(binding.set, binding.binding, &images.back(), e);
      break;
    }
    }
  }
  return true;
}

bool Executor::runDispatch(const RunCommand &run) {
  const Pipeline &pipeline = *script.findPipeline(run.pipeline);
  llvm::Expected<std::shared_ptr<const Kernel>> kernel = getKernel(pipeline);
  if (!kernel) {
    std::string message = llvm::toString(kernel.takeError());
    llvm::StringRef text(message);
    text.consume_front("error: ");
    result.fail(run.line, "pipeline '" + pipeline.name + "': " + text.str());
    return false;
  }
  Dispatch dispatch(*kernel);
  dispatch.setLimits(options.limits);
  images.clear();
  samplers.clear();
  convertedImages.clear();
  writeBacks.clear();
  for (const amber::DescriptorBinding &binding : pipeline.bindings)
    if (!bindDescriptor(dispatch, **kernel, binding, run.line))
      return false;
  // Push constants a script never binds are undefined (Amber's pipeline
  // layout then has no range); they read as zeros.
  dispatch.setPushConstants(
      pipeline.pushConstantBuffer.empty()
          ? llvm::ArrayRef<uint8_t>()
          : llvm::ArrayRef<uint8_t>(memory[pipeline.pushConstantBuffer]));
  llvm::Error error = dispatch.validate();
  if (!error)
    error = dispatch.run(getLauncher(getSubgroupSize(pipeline)), run.groups);
  writeBackImages();
  if (error) {
    std::string message = llvm::toString(std::move(error));
    llvm::StringRef text(message);
    text.consume_front("error: ");
    result.fail(run.line, "RUN " + pipeline.name + ": " + text.str());
    return false;
  }
  return true;
}

void Executor::writeBackImages() {
  for (const WriteBack &back : writeBacks) {
    const runtime::VulkanFormat &format = *back.format;
    bool integer = runtime::isIntegerFormat(format);
    uint64_t count = back.original->size() / format.texelBytes;
    for (uint64_t i = 0; i < count; ++i) {
      const uint8_t *from = back.wide->data() + i * 16;
      runtime::Color color;
      for (int c = 0; c < 4; ++c) {
        if (integer) {
          int32_t value;
          std::memcpy(&value, from + 4 * c, 4);
          color.i[c] = format.kind == runtime::ComponentKind::Sint
                           ? int64_t(value)
                           : int64_t(uint32_t(value));
        } else {
          float value;
          std::memcpy(&value, from + 4 * c, 4);
          color.f[c] = value;
        }
      }
      runtime::encodeColor(format, color,
                           back.original->data() + i * format.texelBytes);
    }
  }
  writeBacks.clear();
}

bool Executor::loadPng(const Buffer &buffer) {
  llvm::Expected<PngImage> png = readPng(buffer.resolvedPath);
  if (!png) {
    result.fail(buffer.line, "BUFFER " + buffer.name + ": " +
                                 llvm::toString(png.takeError()));
    return false;
  }
  llvm::StringRef format = buffer.type.name;
  bool bgra = format.starts_with("B8G8R8A8_");
  if (!bgra && !format.starts_with("R8G8B8A8_")) {
    result.fail(buffer.line, "BUFFER " + buffer.name +
                                 ": a PNG file fills "
                                 "an 8-bit RGBA or BGRA image, not " +
                                 format.str());
    return false;
  }
  if (bgra)
    for (size_t i = 0; i < png->rgba.size(); i += 4)
      std::swap(png->rgba[i], png->rgba[i + 2]);
  Buffer sized = buffer;
  sized.width = png->width;
  sized.height = png->height;
  sized.depth = 1;
  sized.dimension = ImageDimension::Dim2D;
  sized.elementCount = uint64_t(png->width) * png->height;
  memory[buffer.name].assign(png->rgba);
  attachments[buffer.name] = std::move(sized);
  return true;
}

void Executor::dumpImages() {
  if (std::error_code error =
          llvm::sys::fs::create_directories(options.imageDirectory)) {
    result.fail(0, "--dump-images: cannot create '" + options.imageDirectory +
                       "': " + error.message());
    return;
  }
  for (const auto &[name, buffer] : attachments) {
    const runtime::VulkanFormat *format =
        runtime::findVulkanFormat(getVulkanFormatName(buffer.type));
    if (!format || !buffer.width)
      continue;
    llvm::SmallString<128> path(options.imageDirectory);
    llvm::sys::path::append(path, name + ".png");
    runtime::GuardedBuffer &bytes = memory[name];
    uint32_t height = std::max(1u, buffer.height);
    if (bytes.size() < uint64_t(buffer.width) * height * format->texelBytes)
      continue;
    if (llvm::Error error =
            writePng(path, *format, bytes.data(), buffer.width, height))
      result.fail(0, "--dump-images: " + llvm::toString(std::move(error)));
    // The texels as they are, for comparisons that PNG's 8 bits would
    // round (tests/differential/amber_draw_runner.py).
    llvm::sys::path::replace_extension(path, "texels");
    std::error_code error;
    llvm::raw_fd_ostream raw(path, error);
    if (error) {
      result.fail(0, "--dump-images: cannot write '" + path.str().str() +
                         "': " + error.message());
      continue;
    }
    raw.write(reinterpret_cast<const char *>(bytes.data()),
              uint64_t(buffer.width) * height * format->texelBytes);
  }
}

std::string Executor::writeProbeImages(llvm::StringRef name,
                                       const Buffer &image,
                                       const ProbedTexels &probed) {
  auto couldNotWrite = [](const llvm::Twine &reason) {
    return "could not write PNG: " + reason.str();
  };
  const runtime::VulkanFormat *format =
      runtime::findVulkanFormat(getVulkanFormatName(image.type));
  if (!format)
    return couldNotWrite("format " + image.type.name +
                         " has no conversion to RGBA");
  uint32_t height = std::max(1u, image.height);
  runtime::GuardedBuffer &bytes = memory[name.str()];
  if (bytes.size() < uint64_t(image.width) * height * format->texelBytes)
    return couldNotWrite("the image holds fewer bytes than its size");
  // Without --dump-images the user asked for no directory, so none appears
  // next to the script or in the working directory.
  bool temporary = options.imageDirectory.empty();
  llvm::SmallString<128> directory(options.imageDirectory);
  if (temporary) {
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, directory);
    llvm::sys::path::append(directory, "spvb-probe-failures");
  }
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return couldNotWrite("cannot create directory '" + directory +
                         "': " + error.message());
  // Numbered from the second failure on, so that each message names the
  // images of its own probe.
  unsigned count = ++probeFailures[name.str()];
  std::string base =
      (llvm::sys::path::stem(script.fileName) + "." + name).str();
  if (count > 1)
    base += "." + std::to_string(count);
  llvm::SmallString<128> actualPath(directory), differencePath(directory);
  llvm::sys::path::append(actualPath, base + ".actual.png");
  llvm::sys::path::append(differencePath, base + ".diff.png");
  PngImage actual = convertToRgba8(*format, bytes.data(), image.width, height);
  llvm::Error error = writePng(actualPath, actual);
  if (!error)
    error = writePng(differencePath, makeProbeDifferenceImage(actual, probed));
  if (error)
    return couldNotWrite(llvm::toString(std::move(error)));
  std::string text =
      ("actual image: " + actualPath + ", difference: " + differencePath).str();
  if (temporary)
    text += " (in the system temp directory; --dump-images DIR chooses "
            "another)";
  return text;
}

void Executor::sizeAttachments() {
  for (const Pipeline &pipeline : script.pipelines) {
    if (pipeline.isCompute())
      continue;
    std::vector<std::string> names;
    for (const ColorAttachment &color : pipeline.colorAttachments)
      names.push_back(color.buffer);
    if (!pipeline.depthStencilBuffer.empty())
      names.push_back(pipeline.depthStencilBuffer);
    for (const std::string &name : names) {
      if (attachments.count(name))
        continue;
      Buffer buffer = *script.findBuffer(name);
      const runtime::VulkanFormat *format =
          runtime::findVulkanFormat(getVulkanFormatName(buffer.type));
      uint32_t oldWidth = buffer.width, oldHeight = std::max(1u, buffer.height);
      if (buffer.width == 0) {
        buffer.width = pipeline.framebufferWidth;
        buffer.height = pipeline.framebufferHeight;
        buffer.depth = 1;
        buffer.dimension = ImageDimension::Dim2D;
      } else if (buffer.mipLevels <= 1 && buffer.depth <= 1 &&
                 (buffer.width < pipeline.framebufferWidth ||
                  buffer.height < pipeline.framebufferHeight)) {
        // Amber gives an attachment its pipeline's framebuffer size (an
        // IMAGE of 32x32 under the default 250x250 framebuffer becomes
        // 250x250); texels already there keep their coordinates.
        buffer.width = std::max(buffer.width, pipeline.framebufferWidth);
        buffer.height = std::max(buffer.height, pipeline.framebufferHeight);
        if (format) {
          runtime::GuardedBuffer &bytes = memory[name];
          uint64_t texel =
              uint64_t(format->texelBytes) * std::max(1u, buffer.samples);
          uint64_t row = oldWidth * texel, grownRow = buffer.width * texel;
          runtime::GuardedBuffer grown(
              getImageByteSize(buffer, format->texelBytes));
          for (uint32_t y = 0; y < oldHeight && (y + 1) * row <= bytes.size();
               ++y)
            std::memcpy(grown.data() + y * grownRow, bytes.data() + y * row,
                        row);
          bytes = std::move(grown);
        }
      }
      if (format) {
        runtime::GuardedBuffer &bytes = memory[name];
        uint64_t size = getImageByteSize(buffer, format->texelBytes);
        if (bytes.size() < size)
          bytes.resize(size);
        buffer.elementCount = uint64_t(buffer.width) * buffer.height;
      }
      attachments[name] = std::move(buffer);
    }
  }
}

const Buffer &Executor::getImage(llvm::StringRef name) const {
  auto attachment = attachments.find(name.str());
  return attachment != attachments.end() ? attachment->second
                                         : *script.findBuffer(name);
}

llvm::Expected<runtime::GraphicsState *>
Executor::getGraphicsState(const Pipeline &pipeline) {
  auto it = graphicsStates.find(pipeline.name);
  if (it != graphicsStates.end())
    return &it->second;
  runtime::GraphicsState state = defaultGraphicsState();
  state.depthRangeUnrestricted = llvm::is_contained(
      script.deviceExtensions, "VK_EXT_depth_range_unrestricted");
  if (llvm::Error error = applyGraphicsSettings(script, pipeline, state))
    return error;
  return &(graphicsStates[pipeline.name] = state);
}

llvm::Expected<runtime::RenderTarget>
Executor::getRenderTarget(const Pipeline &pipeline) {
  runtime::RenderTarget target;
  target.width = pipeline.framebufferWidth;
  target.height = pipeline.framebufferHeight;
  // An attachment is mip level `level` of its image, at least as large as
  // the framebuffer (the render area is the framebuffer's).
  auto attach = [&](llvm::StringRef name,
                    uint32_t level) -> llvm::Expected<runtime::Attachment> {
    const Buffer &buffer = getImage(name);
    const runtime::VulkanFormat *format =
        runtime::findVulkanFormat(getVulkanFormatName(buffer.type));
    if (!format)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "attachment '%s' has type %s, which is no image format",
          buffer.name.c_str(), buffer.type.name.c_str());
    uint64_t offset = 0;
    uint32_t width = buffer.width, height = std::max(1u, buffer.height);
    uint32_t samples = std::max(1u, buffer.samples);
    uint64_t texelBytes = uint64_t(format->texelBytes) * samples;
    for (uint32_t l = 0; l < level; ++l) {
      offset += uint64_t(width) * height * texelBytes;
      width = std::max(1u, width / 2);
      height = std::max(1u, height / 2);
    }
    runtime::GuardedBuffer &bytes = memory[buffer.name];
    if (width < target.width || height < target.height ||
        offset + uint64_t(width) * height * texelBytes > bytes.size())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "attachment '%s' (level %u: %ux%u) is smaller than the %ux%u "
          "framebuffer",
          buffer.name.c_str(), level, width, height, target.width,
          target.height);
    return runtime::Attachment{bytes.data() + offset, format, width, height,
                               samples};
  };
  for (const ColorAttachment &color : pipeline.colorAttachments) {
    llvm::Expected<runtime::Attachment> attachment =
        attach(color.buffer, color.baseMipLevel);
    if (!attachment)
      return attachment.takeError();
    if (target.colors.size() <= color.location)
      target.colors.resize(color.location + 1);
    target.colors[color.location] = *attachment;
  }
  if (!pipeline.depthStencilBuffer.empty()) {
    llvm::Expected<runtime::Attachment> attachment =
        attach(pipeline.depthStencilBuffer, 0);
    if (!attachment)
      return attachment.takeError();
    target.depthStencil = *attachment;
  }
  // Resolve attachments pair with the colour attachments in order.
  for (size_t i = 0; i < pipeline.resolveTargets.size() &&
                     i < pipeline.colorAttachments.size();
       ++i) {
    llvm::Expected<runtime::Attachment> attachment =
        attach(pipeline.resolveTargets[i], 0);
    if (!attachment)
      return attachment.takeError();
    uint32_t location = pipeline.colorAttachments[i].location;
    if (target.resolves.size() <= location)
      target.resolves.resize(location + 1);
    target.resolves[location] = *attachment;
  }
  if (llvm::Expected<uint32_t> samples = target.getSamples(); !samples)
    return samples.takeError();
  return target;
}

bool Executor::runClear(const ClearCommand &clear) {
  const Pipeline &pipeline = *script.findPipeline(clear.pipeline);
  ClearValues &values = clearValues[pipeline.name];
  switch (clear.target) {
  case ClearCommand::Target::Color:
    values.color = clear.values;
    return true;
  case ClearCommand::Target::Depth:
    values.depth = clear.values[0];
    return true;
  case ClearCommand::Target::Stencil:
    values.stencil = static_cast<uint32_t>(clear.values[0]);
    return true;
  case ClearCommand::Target::Attachments:
    break;
  }
  llvm::Expected<runtime::RenderTarget> target = getRenderTarget(pipeline);
  if (!target) {
    result.fail(clear.line, "CLEAR " + pipeline.name + ": " +
                                llvm::toString(target.takeError()));
    return false;
  }
  for (const runtime::Attachment &color : target->colors) {
    if (!color.data)
      continue;
    runtime::Color value;
    for (int c = 0; c < 4; ++c) {
      value.f[c] = values.color[c];
      // Integer attachments clear to the numbers as written (0..255 units
      // were divided by 255 by the parser).
      value.i[c] = static_cast<int64_t>(values.color[c] * 255.0 + 0.5);
    }
    uint8_t texel[16];
    runtime::encodeColor(*color.format, value, texel);
    fillRenderArea(color, *target, texel);
  }
  if (target->depthStencil) {
    const runtime::Attachment &ds = *target->depthStencil;
    uint8_t texel[8] = {};
    runtime::encodeDepth(*ds.format, values.depth, texel);
    runtime::encodeStencil(*ds.format, uint8_t(values.stencil), texel);
    fillRenderArea(ds, *target, texel);
  }
  // The render pass the clear ran in ends with its resolves.
  runtime::resolveAttachments(*target);
  return true;
}

bool Executor::runDraw(const DrawCommand &draw) {
  const Pipeline &pipeline = *script.findPipeline(draw.pipeline);
  auto fail = [&](llvm::StringRef message) {
    llvm::StringRef text = message;
    text.consume_front("error: ");
    result.fail(draw.line, "RUN " + pipeline.name + ": " + text.str());
    return false;
  };
  llvm::Expected<std::shared_ptr<const Kernel>> vertex =
      getStageKernel(pipeline, amber::ShaderStage::Vertex);
  if (!vertex)
    return fail(llvm::toString(vertex.takeError()));
  // The other stages are optional (a pipeline without a fragment shader
  // still rasterizes depth and stencil).
  auto getOptionalKernel = [&](amber::ShaderStage stage)
      -> llvm::Expected<std::shared_ptr<const Kernel>> {
    if (llvm::none_of(pipeline.shaders, [&](const ShaderAttachment &shader) {
          return shader.stage == stage;
        }))
      return nullptr;
    return getStageKernel(pipeline, stage);
  };
  DrawShaders shaders;
  shaders.vertex = *vertex;
  for (auto [stage, kernel] :
       {std::pair(amber::ShaderStage::TessellationControl,
                  &shaders.tessControl),
        std::pair(amber::ShaderStage::TessellationEvaluation,
                  &shaders.tessEvaluation),
        std::pair(amber::ShaderStage::Geometry, &shaders.geometry),
        std::pair(amber::ShaderStage::Fragment, &shaders.fragment)}) {
    llvm::Expected<std::shared_ptr<const Kernel>> optional =
        getOptionalKernel(stage);
    if (!optional)
      return fail(llvm::toString(optional.takeError()));
    *kernel = std::move(*optional);
  }
  bool hasFragment = shaders.fragment != nullptr;
  bool hasGeometry = shaders.geometry != nullptr;
  bool hasTessellation = shaders.tessControl != nullptr;
  // The kernel whose reflection types the bindings.
  std::shared_ptr<const Kernel> typing =
      shaders.fragment ? shaders.fragment : shaders.vertex;
  llvm::Expected<Draw> created = Draw::create(std::move(shaders));
  if (!created)
    return fail(llvm::toString(created.takeError()));
  Draw &drawing = *created;
  drawing.setLimits(options.limits);
  if (options.debugPixel && hasFragment) {
    // Debug builds of the pipeline's shaders.
    DrawShaders debugBuilds;
    for (auto [stage, build, present] :
         {std::tuple(amber::ShaderStage::Vertex, &debugBuilds.vertex, true),
          std::tuple(amber::ShaderStage::TessellationControl,
                     &debugBuilds.tessControl, hasTessellation),
          std::tuple(amber::ShaderStage::TessellationEvaluation,
                     &debugBuilds.tessEvaluation, hasTessellation),
          std::tuple(amber::ShaderStage::Geometry, &debugBuilds.geometry,
                     hasGeometry),
          std::tuple(amber::ShaderStage::Fragment, &debugBuilds.fragment,
                     true)}) {
      if (!present)
        continue;
      llvm::Expected<std::shared_ptr<const Kernel>> compiled =
          getStageKernel(pipeline, stage, true);
      if (!compiled)
        return fail(llvm::toString(compiled.takeError()));
      *build = *compiled;
    }
    drawing.setDebugPixel((*options.debugPixel)[0], (*options.debugPixel)[1],
                          std::move(debugBuilds));
  }

  images.clear();
  samplers.clear();
  convertedImages.clear();
  writeBacks.clear();
  RecordedBindings recorded;
  for (const amber::DescriptorBinding &binding : pipeline.bindings)
    if (options.vulkanDraws
            ? !bindDescriptor(recorded, *typing, binding, draw.line)
            : !bindDescriptor(drawing, *typing, binding, draw.line))
      return false;
  drawing.setPushConstants(
      pipeline.pushConstantBuffer.empty()
          ? llvm::ArrayRef<uint8_t>()
          : llvm::ArrayRef<uint8_t>(memory[pipeline.pushConstantBuffer]));
  llvm::Expected<runtime::RenderTarget> target = getRenderTarget(pipeline);
  if (!target)
    return fail(llvm::toString(target.takeError()));

  llvm::Expected<runtime::GraphicsState *> pipelineState =
      getGraphicsState(pipeline);
  if (!pipelineState)
    return fail(llvm::toString(pipelineState.takeError()));
  runtime::GraphicsState state = **pipelineState;
  std::vector<runtime::VertexAttribute> attributes;
  runtime::DrawCall call;
  std::vector<float> geometry;
  if (draw.drawKind != DrawCommand::DrawKind::Array) {
    geometry = makeDrawGeometry(draw, target->width, target->height);
    runtime::VertexAttribute position;
    position.location = 0;
    position.data = reinterpret_cast<const uint8_t *>(geometry.data());
    position.size = geometry.size() * sizeof(float);
    position.format = runtime::findVulkanFormat("R32G32_SFLOAT");
    position.stride = 8;
    attributes.push_back(position);
    call.vertexCount = geometry.size() / 2;
    // VkScript's `draw rect patch`: the rectangle's four vertices as
    // patches (of the pipeline's patchControlPoints), as Amber draws it.
    state.topology = draw.patch ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                     : draw.drawKind == DrawCommand::DrawKind::Rect
                         ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP
                         : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  } else {
    std::optional<VkPrimitiveTopology> topology = parseTopology(draw.topology);
    if (!topology)
      return fail("unknown topology '" + draw.topology + "'");
    state.topology = *topology;
    uint64_t vertices = 0;
    for (const VertexBinding &binding : pipeline.vertexData) {
      const Buffer &buffer = *script.findBuffer(binding.buffer);
      std::string formatName = binding.format.empty()
                                   ? getVulkanFormatName(buffer.type)
                                   : binding.format;
      const runtime::VulkanFormat *format =
          runtime::findVulkanFormat(formatName);
      if (!format)
        return fail(llvm::formatv("vertex buffer '{0}' (Location {1}) has "
                                  "type {2}, which is no vertex format",
                                  buffer.name, binding.location,
                                  buffer.type.name)
                        .str());
      runtime::VertexAttribute attribute;
      attribute.location = binding.location;
      attribute.data = memory[buffer.name].data();
      attribute.size = memory[buffer.name].size();
      attribute.format = format;
      attribute.offset = binding.offset;
      // Without STRIDE: the size of an element of the FORMAT, as Amber
      // lays it out (a three-component format padded like a vec3).
      std::optional<Type> formatType = parseFormatName(binding.format);
      attribute.stride = binding.stride.value_or(
          formatType ? elementStride(*formatType, buffer.layout)
                     : buffer.stride());
      attribute.perInstance = binding.instanceRate;
      attributes.push_back(attribute);
      if (!binding.instanceRate && attribute.stride)
        vertices = std::max<uint64_t>(
            vertices, (attribute.size -
                       std::min<uint64_t>(attribute.size, attribute.offset)) /
                          attribute.stride);
    }
    // An indexed draw starts at index 0 and adds START_IDX to each index,
    // as Amber's vkCmdDrawIndexed does (its vertexOffset).
    call.firstVertex = draw.indexed ? 0 : draw.firstVertex;
    call.vertexOffset = draw.indexed ? int32_t(draw.firstVertex) : 0;
    call.firstInstance = draw.firstInstance;
    call.instanceCount = draw.instanceCount;
    uint64_t available = vertices;
    if (draw.indexed) {
      if (pipeline.indexBuffer.empty())
        return fail("an indexed draw without INDEX_DATA");
      const Buffer &indices = *script.findBuffer(pipeline.indexBuffer);
      call.indices = memory[indices.name].data();
      call.indexBytes = memory[indices.name].size();
      call.indexSize = std::max(1u, indices.type.scalar.bits / 8);
      available = call.indexBytes / call.indexSize;
    }
    call.vertexCount =
        draw.vertexCount
            ? draw.vertexCount
            : static_cast<uint32_t>(
                  available - std::min<uint64_t>(available, draw.firstVertex));
  }
  if (options.vulkanDraws) {
    VulkanDrawInput input;
    for (auto [stage, module, present] :
         {std::tuple(amber::ShaderStage::Vertex, &input.vertex, true),
          std::tuple(amber::ShaderStage::TessellationControl,
                     &input.tessControl, hasTessellation),
          std::tuple(amber::ShaderStage::TessellationEvaluation,
                     &input.tessEvaluation, hasTessellation),
          std::tuple(amber::ShaderStage::Geometry, &input.geometry,
                     hasGeometry),
          std::tuple(amber::ShaderStage::Fragment, &input.fragment,
                     hasFragment)}) {
      if (!present)
        continue;
      llvm::Expected<StageModule> built = getStageModule(pipeline, stage);
      if (!built)
        return fail(llvm::toString(built.takeError()));
      *module = std::move(*built);
    }
    input.bindings = &recorded;
    if (!pipeline.pushConstantBuffer.empty())
      input.pushConstants = memory[pipeline.pushConstantBuffer];
    input.state = &state;
    input.attributes = attributes;
    input.call = &call;
    input.target = &*target;
    input.robust = options.compile.robust;
    llvm::Error error = runVulkanDraw(input);
    writeBackImages();
    if (error)
      return fail(llvm::toString(std::move(error)));
    return true;
  }
  llvm::Expected<runtime::DrawStatistics> statistics = drawing.run(
      getLauncher(options.subgroupSize), state, attributes, call, *target);
  writeBackImages();
  if (!statistics)
    return fail(llvm::toString(statistics.takeError()));
  return true;
}

ScriptResult spvb::amber::executeScript(const Script &script, JitCompiler &jit,
                                        const ExecutorOptions &options) {
  return Executor(script, jit, options).run();
}
