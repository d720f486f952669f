//===- DrawRun.cpp - spv-run's draws --------------------------------------===//
#include "DrawRun.h"

#include "JitCompilerFlags.h"
#include "spvbridge/bridge/DrawAttachments.h"
#include "spvbridge/bridge/FullScreenVertexShader.h"
#include "spvbridge/cpu_runtime/Watchdog.h"

#include "ResourceChecks.h"
#include "VulkanRun.h"
#include "spvbridge/amber/PngFiles.h"
#include "spvbridge/vulkan/VulkanDraw.h"

#include "spvbridge/bridge/Draw.h"
#include "spvbridge/bridge/Kernel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

using namespace llvm;
using namespace spvb;
using namespace spvb::run;
using namespace spvb::vulkan;

namespace {

Error makeError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), "error: " + message);
}

/// The shaders of the draw, compiled for the CPU, and the modules the
/// Vulkan driver gets.
/// The draw's compiled shaders (spvb::DrawShaders) and their files.
struct CompiledShaders : spvb::DrawShaders {
  std::string vertexName, tessControlName, tessEvaluationName, geometryName,
      fragmentName;
  /// The full-screen vertex shader, when spv-run made it.
  std::optional<SpirvBinary> generatedVertex;
  /// --debug-pixel: debug builds of the shaders given (not of the
  /// full-screen vertex shader).
  spvb::DrawShaders debugBuilds;
  double compileMilliseconds = 0;
};

Error checkStage(const Kernel &kernel, StringRef path, uint32_t expected) {
  uint32_t model = kernel.entry.info.execution_model;
  if (model == expected)
    return Error::success();
  StringRef name = getCompiledStageName(model);
  return makeError(formatv(
      "{0}: entry point '{1}' is a {2} shader, not a {3} shader; "
      "--framebuffer draws a fragment shader, or a vertex shader, then "
      "optional tessellation control and evaluation shaders and a geometry "
      "shader, then a fragment shader",
      path, kernel.entryPoint, name.empty() ? "non-graphics" : name,
      getCompiledStageName(expected)));
}

/// The full-screen vertex shader's options: the command line's --entry and
/// --spec are the fragment shader's.
CompileOptions getGeneratedVertexOptions(const CompileOptions &compile) {
  CompileOptions options = compile;
  options.entryPoint = "main";
  options.source.entry = "main";
  options.specializations.clear();
  options.executionModel = spv::ExecutionModelVertex;
  return options;
}

Expected<CompiledShaders> compileShaders(JitCompiler &jit,
                                         const DrawOptions &options,
                                         const CompileOptions &compile) {
  CompiledShaders shaders;
  auto start = std::chrono::steady_clock::now();
  shaders.fragmentName = options.shaderPaths.back();
  Expected<std::shared_ptr<const Kernel>> fragment =
      jit.compileFile(shaders.fragmentName, compile);
  if (!fragment)
    return fragment.takeError();
  if (Error error = checkStage(**fragment, shaders.fragmentName,
                               spv::ExecutionModelFragment))
    return error;
  shaders.fragment = *fragment;
  // The shaders between the vertex and the fragment shader, in pipeline
  // order: a tessellation pair, a geometry shader, or both.
  ArrayRef<std::string> middle(options.shaderPaths);
  middle = middle.size() > 2 ? middle.drop_front().drop_back()
                             : ArrayRef<std::string>();
  std::tuple<spv::ExecutionModel, std::shared_ptr<const Kernel> *,
             std::string *>
      expected[] = {{spv::ExecutionModelTessellationControl,
                     &shaders.tessControl, &shaders.tessControlName},
                    {spv::ExecutionModelTessellationEvaluation,
                     &shaders.tessEvaluation, &shaders.tessEvaluationName},
                    {spv::ExecutionModelGeometry, &shaders.geometry,
                     &shaders.geometryName}};
  // Two middle shaders are the tessellation pair, one or three start with
  // the geometry shader's or the pair's.
  size_t next = middle.size() == 1 ? 2 : 0;
  for (const std::string &path : middle) {
    auto [model, kernel, name] = expected[std::min<size_t>(next++, 2)];
    *name = path;
    Expected<std::shared_ptr<const Kernel>> compiled =
        jit.compileFile(path, compile);
    if (!compiled)
      return compiled.takeError();
    if (Error error = checkStage(**compiled, path, model))
      return error;
    *kernel = *compiled;
  }
  Expected<std::shared_ptr<const Kernel>> vertex = nullptr;
  if (options.shaderPaths.size() >= 2) {
    shaders.vertexName = options.shaderPaths.front();
    vertex = jit.compileFile(shaders.vertexName, compile);
    if (vertex)
      if (Error error = checkStage(**vertex, shaders.vertexName,
                                   spv::ExecutionModelVertex))
        return error;
  } else {
    Expected<std::string> source = makeFullScreenVertexShader(
        shaders.fragment->stageVariables, shaders.fragmentName);
    if (!source)
      return source.takeError();
    shaders.vertexName = "<full-screen vertex shader>";
    SourceOptions sourceOptions;
    sourceOptions.targetEnv = compile.source.targetEnv;
    Expected<SpirvBinary> binary = compileGlsl(
        *source, shaders.vertexName, ShaderStage::Vertex, sourceOptions);
    if (!binary)
      return binary.takeError();
    shaders.generatedVertex = std::move(*binary);
    vertex = jit.compile(*shaders.generatedVertex,
                         getGeneratedVertexOptions(compile));
  }
  if (!vertex)
    return vertex.takeError();
  shaders.vertex = *vertex;
  shaders.compileMilliseconds = std::chrono::duration<double, std::milli>(
                                    std::chrono::steady_clock::now() - start)
                                    .count();
  return shaders;
}

/// What both backends draw besides the shaders.
struct Geometry {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  uint32_t count = FullScreenVertexCount;
};

Expected<Geometry> planGeometry(const DrawOptions &options, bool fullScreen,
                                bool tessellation) {
  Geometry geometry;
  if (fullScreen) {
    if (!options.vertexData.empty() || options.indices)
      return makeError(formatv(
          "{0}: the full-screen rectangle of a fragment shader alone "
          "takes no vertex data; give a vertex shader first",
          options.vertexData.empty() ? "--index-data" : "--vertex-data"));
    return geometry;
  }
  geometry.topology = options.topology.value_or(
      tessellation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                   : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  if (options.vertices) {
    geometry.count = *options.vertices;
  } else if (options.indices) {
    geometry.count = options.indices->bytes.size() / options.indices->indexSize;
  } else if (!options.vertexData.empty()) {
    uint64_t count = UINT32_MAX;
    for (const VertexDataArgument &data : options.vertexData)
      count = std::min<uint64_t>(count,
                                 data.bytes.size() / data.format->texelBytes);
    geometry.count = static_cast<uint32_t>(count);
  } else {
    return makeError("--vertices N is needed: no --vertex-data or "
                     "--index-data says how many vertices to draw");
  }
  return geometry;
}

struct CpuDraw {
  std::vector<double> milliseconds;
  runtime::DrawStatistics statistics;
  unsigned threads = 0;
};

Expected<CpuDraw> drawOnCpu(const DrawOptions &options,
                            const CompiledShaders &shaders, HostJob &job,
                            const Geometry &geometry, uint32_t subgroupSize,
                            Attachments &attachments) {
  Expected<Draw> created = Draw::create(shaders);
  if (!created)
    return created.takeError();
  Draw &draw = *created;
  draw.setLimits(options.limits);
  if (options.debugPixel)
    draw.setDebugPixel((*options.debugPixel)[0], (*options.debugPixel)[1],
                       shaders.debugBuilds);
  bindHostJob(draw, job, [&](uint32_t set, uint32_t binding) {
    const ResourceInfo *resource =
        shaders.fragment->reflection.findResource(set, binding);
    return resource ? resource
                    : shaders.vertex->reflection.findResource(set, binding);
  });
  runtime::GraphicsState state;
  state.topology = geometry.topology;
  state.patchControlPoints = options.patchControlPoints;
  if (options.lowerLeftDomainOrigin)
    state.tessellationDomainOrigin = VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT;
  state.primitiveRestart = options.indices.has_value();
  std::vector<runtime::VertexAttribute> attributes;
  for (const VertexDataArgument &data : options.vertexData) {
    runtime::VertexAttribute attribute;
    attribute.location = data.location;
    attribute.data = data.bytes.data();
    attribute.size = data.bytes.size();
    attribute.format = data.format;
    attribute.stride = data.format->texelBytes;
    attributes.push_back(attribute);
  }
  runtime::DrawCall call;
  call.vertexCount = geometry.count;
  call.instanceCount = options.instances;
  if (options.indices) {
    call.indices = options.indices->bytes.data();
    call.indexBytes = options.indices->bytes.size();
    call.indexSize = options.indices->indexSize;
  }

  runtime::Launcher launcher(options.threads, subgroupSize);
  CpuDraw result;
  result.threads = launcher.getThreadCount();
  runtime::Watchdog watchdog(
      std::chrono::duration<double>(options.timeoutSeconds),
      [&]() -> std::string {
        return formatv("error: the draw did not finish in {0} "
                       "s (--timeout; 0 waits forever); the "
                       "shader may loop forever",
                       options.timeoutSeconds);
      });
  // Every draw starts from the initial contents and cleared attachments,
  // both outside the timing; debugPrintfEXT output is shown for the last.
  for (uint32_t i = 0; i <= options.repeat; ++i) {
    runtime::setPrintfSink(i == options.repeat ? stdout : nullptr);
    for (HostBuffer &buffer : job.buffers)
      std::memcpy(buffer.working.data(), buffer.initial.data(),
                  buffer.working.size());
    attachments.clear();
    auto start = std::chrono::steady_clock::now();
    watchdog.arm();
    Expected<runtime::DrawStatistics> statistics =
        draw.run(launcher, state, attributes, call, attachments.target);
    watchdog.disarm();
    if (!statistics)
      return statistics.takeError();
    result.statistics = *statistics;
    double ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - start)
                    .count();
    if (i > 0 || options.repeat == 0) // one run: the warm-up only
      result.milliseconds.push_back(ms);
  }
  return result;
}

struct VulkanShaders {
  VulkanShader vertex, fragment;
  std::optional<VulkanShader> tessControl, tessEvaluation, geometry;
};

Expected<VulkanShaders> loadVulkanShaders(const CompiledShaders &shaders,
                                          const CompileOptions &compile) {
  Expected<VulkanShader> fragment =
      loadVulkanShader(shaders.fragmentName, compile);
  if (!fragment)
    return fragment.takeError();
  Expected<VulkanShader> vertex = [&]() -> Expected<VulkanShader> {
    if (!shaders.generatedVertex)
      return loadVulkanShader(shaders.vertexName, compile);
    return prepareVulkanShader(*shaders.generatedVertex,
                               getGeneratedVertexOptions(compile));
  }();
  if (!vertex)
    return vertex.takeError();
  VulkanShaders loaded{std::move(*vertex), std::move(*fragment), std::nullopt,
                       std::nullopt, std::nullopt};
  for (auto [kernel, name, shader] :
       {std::tuple(&shaders.tessControl, &shaders.tessControlName,
                   &loaded.tessControl),
        std::tuple(&shaders.tessEvaluation, &shaders.tessEvaluationName,
                   &loaded.tessEvaluation),
        std::tuple(&shaders.geometry, &shaders.geometryName,
                   &loaded.geometry)}) {
    if (!*kernel)
      continue;
    Expected<VulkanShader> middle = loadVulkanShader(*name, compile);
    if (!middle)
      return middle.takeError();
    *shader = std::move(*middle);
  }
  return loaded;
}

Expected<vulkan::DrawResult>
drawOnVulkan(const DrawOptions &options, const VulkanShaders &shaders,
             const HostJob &job, const CompileOptions &compile,
             const Geometry &geometry, ArrayRef<AttachmentPlan> plans) {
  vulkan::DrawJob draw;
  draw.vertex = &shaders.vertex.original;
  draw.vertexEntry = shaders.vertex.entryPoint;
  draw.fragment = &shaders.fragment.original;
  draw.fragmentEntry = shaders.fragment.entryPoint;
  for (auto [shader, module, entry] :
       {std::tuple(&shaders.tessControl, &draw.tessControl,
                   &draw.tessControlEntry),
        std::tuple(&shaders.tessEvaluation, &draw.tessEvaluation,
                   &draw.tessEvaluationEntry),
        std::tuple(&shaders.geometry, &draw.geometry, &draw.geometryEntry)})
    if (*shader) {
      *module = &(*shader)->original;
      *entry = (*shader)->entryPoint;
    }
  draw.patchControlPoints = options.patchControlPoints;
  draw.lowerLeftDomainOrigin = options.lowerLeftDomainOrigin;
  draw.specializations = compile.specializations;
  draw.width = options.framebuffer.width;
  draw.height = options.framebuffer.height;
  draw.samples = options.samples;
  for (const AttachmentPlan &plan : plans) {
    vulkan::ColorAttachment attachment;
    attachment.location = plan.location;
    attachment.format = plan.format->format;
    draw.attachments.push_back(attachment);
  }
  draw.topology = geometry.topology;
  for (const VertexDataArgument &data : options.vertexData) {
    uint32_t binding = draw.vertexBuffers.size();
    draw.vertexBuffers.push_back(
        {binding, data.format->texelBytes, false, data.bytes});
    draw.attributes.push_back({data.location, binding, data.format->format, 0});
  }
  draw.instanceCount = options.instances;
  if (options.indices) {
    draw.indices = options.indices->bytes;
    draw.indexType = options.indices->indexSize == 1   ? VK_INDEX_TYPE_UINT8_EXT
                     : options.indices->indexSize == 2 ? VK_INDEX_TYPE_UINT16
                                                       : VK_INDEX_TYPE_UINT32;
    draw.indexCount = geometry.count;
  } else {
    draw.vertexCount = geometry.count;
  }
  if (any_of(job.buffers,
             [](const HostBuffer &buffer) { return buffer.isDevice(); }) ||
      !job.addresses.empty())
    return makeError("--device-buffer and --address are for dispatches; "
                     "draws on Vulkan take descriptors only");
  Expected<VulkanDescriptors> descriptors = makeVulkanDescriptors(
      [&](uint32_t set, uint32_t binding) {
        const ResourceInfo *resource =
            shaders.fragment.reflection.findResource(set, binding);
        return resource ? resource
                        : shaders.vertex.reflection.findResource(set, binding);
      },
      job.buffers, job.samplers);
  if (!descriptors)
    return descriptors.takeError();
  draw.buffers = std::move(descriptors->buffers);
  draw.images = std::move(descriptors->images);
  draw.samplers = std::move(descriptors->samplers);
  if (job.push)
    draw.pushConstants = *job.push;
  draw.repeat = options.repeat;
  draw.deviceIndex = options.device;
  draw.robust = compile.robust;
  Expected<vulkan::DrawResult> result = vulkan::runDraw(draw);
  if (!result)
    return result.takeError();
  // Back in the order of job.buffers, as the CPU has them.
  std::vector<std::vector<uint8_t>> buffers;
  size_t nextBuffer = 0, nextImage = 0;
  for (const HostBuffer &buffer : job.buffers)
    buffers.push_back(std::move(buffer.image ? result->images[nextImage++]
                                             : result->buffers[nextBuffer++]));
  result->buffers = std::move(buffers);
  result->images.clear();
  return result;
}

/// A decoded component as --compare shows buffers' values.
std::string formatComponent(const runtime::Color &color, uint32_t c,
                            bool integer) {
  if (integer)
    return std::to_string(color.i[c]);
  float value = color.f[c];
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return formatScalar(ScalarKind::Float, 4, bits);
}

/// Texel (x, y)'s components of both backends agree: integers exactly,
/// normalized formats within one step of their encoding (the rounding of
/// the last bit is the implementation's), floats as buffers do.
BufferComparison compareAttachment(const AttachmentPlan &plan, uint32_t width,
                                   uint32_t height, ArrayRef<uint8_t> cpu,
                                   ArrayRef<uint8_t> vulkan,
                                   const Tolerance &tolerance) {
  const runtime::VulkanFormat &format = *plan.format;
  BufferComparison comparison;
  comparison.device = formatv("location {0}", plan.location).str();
  comparison.image = true;
  bool integer = runtime::isIntegerFormat(format);
  bool isFloat = format.kind == runtime::ComponentKind::Sfloat ||
                 format.kind == runtime::ComponentKind::Ufloat;
  unsigned bits = format.texelBytes * 8 / format.components;
  double step = isFloat || integer ? 0 : 1.0 / ((1ull << bits) - 1);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      uint64_t offset = (uint64_t(y) * width + x) * format.texelBytes;
      runtime::Color a = runtime::decodeColor(format, cpu.data() + offset);
      runtime::Color b = runtime::decodeColor(format, vulkan.data() + offset);
      ++comparison.compared;
      bool texelAgrees = true;
      for (uint32_t c = 0; c < plan.components; ++c) {
        bool agrees;
        if (integer) {
          agrees = a.i[c] == b.i[c];
        } else if (isFloat) {
          float fa = a.f[c], fb = b.f[c];
          uint32_t ba, bb;
          std::memcpy(&ba, &fa, 4);
          std::memcpy(&bb, &fb, 4);
          agrees = scalarsAgree(ScalarKind::Float, 4, ba, bb, tolerance);
        } else {
          agrees = std::fabs(a.f[c] - b.f[c]) <= step * 1.0001;
        }
        if (agrees)
          continue;
        texelAgrees = false;
        if (comparison.first.size() < 8) {
          ScalarDifference difference;
          difference.index = uint64_t(y) * width + x;
          difference.offset = offset;
          difference.path =
              formatv("texel ({0}, {1}) component {2}", x, y, c).str();
          difference.cpu = formatComponent(a, c, integer);
          difference.vulkan = formatComponent(b, c, integer);
          comparison.first.push_back(std::move(difference));
        }
      }
      if (!texelAgrees)
        ++comparison.differing;
    }
  return comparison;
}

} // namespace

Expected<int> spvb::run::runDrawCommand(const DrawOptions &options,
                                        HostJob &job,
                                        const CompileOptions &compile) {
  // The CPU compiles the fragment shader even for --backend=vulkan: its
  // stage variables give the attachments and the full-screen vertex
  // shader's outputs.
  Expected<std::unique_ptr<JitCompiler>> jit =
      tools::createJitCompiler(compile.debug);
  if (!jit)
    return jit.takeError();
  Expected<CompiledShaders> shaders = compileShaders(**jit, options, compile);
  if (!shaders)
    return shaders.takeError();
  // --debug-pixel: debug builds of the shaders, from a JIT a debugger
  // sees, which outlives the draws.
  std::unique_ptr<JitCompiler> debugJit;
  if (options.debugPixel) {
    Expected<std::unique_ptr<JitCompiler>> created =
        JitCompiler::create(/*debuggable=*/true);
    if (!created)
      return created.takeError();
    debugJit = std::move(*created);
    CompileOptions debugOptions = compile;
    debugOptions.debug = true;
    spvb::DrawShaders &builds = shaders->debugBuilds;
    for (auto [kernel, build, name] :
         {std::tuple(shaders->fragment.get(), &builds.fragment,
                     &shaders->fragmentName),
          std::tuple(options.shaderPaths.size() > 1 ? shaders->vertex.get()
                                                    : nullptr,
                     &builds.vertex, &shaders->vertexName),
          std::tuple(shaders->tessControl.get(), &builds.tessControl,
                     &shaders->tessControlName),
          std::tuple(shaders->tessEvaluation.get(), &builds.tessEvaluation,
                     &shaders->tessEvaluationName),
          std::tuple(shaders->geometry.get(), &builds.geometry,
                     &shaders->geometryName)}) {
      if (!kernel)
        continue;
      Expected<std::shared_ptr<const Kernel>> compiled =
          debugJit->compileFile(*name, debugOptions);
      if (!compiled)
        return compiled.takeError();
      *build = *compiled;
    }
  }
  std::vector<AttachmentPlan> plans = planAttachments(
      shaders->fragment->stageVariables, options.framebuffer.format);
  for (const auto &[flag, list] :
       {std::pair("--png", &options.pngs),
        std::pair("--attachment-out", &options.attachmentOutputs)})
    for (const AttachmentFileArgument &png : *list)
      if (none_of(plans, [&](const AttachmentPlan &plan) {
            return plan.location == png.location;
          }))
        return makeError(formatv("{0} '{1}': the fragment shader has no "
                                 "output at Location {2}",
                                 flag, png.text, png.location));
  Expected<Geometry> geometry =
      planGeometry(options, shaders->generatedVertex.has_value(),
                   shaders->tessControl != nullptr);
  if (!geometry)
    return geometry.takeError();
  for (const auto &[kernel, name] :
       {std::pair(shaders->vertex.get(), shaders->vertexName),
        std::pair(shaders->tessControl.get(), shaders->tessControlName),
        std::pair(shaders->tessEvaluation.get(), shaders->tessEvaluationName),
        std::pair(shaders->geometry.get(), shaders->geometryName),
        std::pair(shaders->fragment.get(), shaders->fragmentName)})
    if (kernel)
      if (Error error =
              checkResources(kernel->reflection, job.buffers, job.samplers,
                             job.push.has_value(), name))
        return error;

  uint32_t width = options.framebuffer.width;
  uint32_t height = options.framebuffer.height;
  std::optional<VulkanShaders> vulkanShaders;
  std::optional<vulkan::DrawResult> vulkanResult;
  if (options.vulkan) {
    Expected<VulkanShaders> loaded = loadVulkanShaders(*shaders, compile);
    if (!loaded)
      return loaded.takeError();
    vulkanShaders = std::move(*loaded);
    Expected<vulkan::DrawResult> result =
        drawOnVulkan(options, *vulkanShaders, job, compile, *geometry, plans);
    if (!result)
      return result.takeError();
    vulkanResult = std::move(*result);
  }

  Attachments attachments(plans, width, height, options.samples);
  std::optional<CpuDraw> cpu;
  if (options.cpu) {
    // Subgroup results depend on the subgroup size: --compare runs the CPU
    // with the device's unless the command line picks one.
    uint32_t subgroupSize = options.subgroupSize.value_or(32);
    if (vulkanResult && !options.subgroupSize) {
      Expected<uint32_t> deviceSize =
          getCompareSubgroupSize(vulkanResult->subgroupSize);
      if (!deviceSize)
        return deviceSize.takeError();
      subgroupSize = *deviceSize;
    }
    Expected<CpuDraw> drawn =
        drawOnCpu(options, *shaders, job, *geometry, subgroupSize, attachments);
    if (!drawn)
      return drawn.takeError();
    cpu = std::move(*drawn);
  } else {
    // Vulkan alone: its results are what --out, --print and --png show.
    for (HostBuffer &buffer : job.buffers)
      buffer.working.assign(
          vulkanResult->buffers[&buffer - job.buffers.data()]);
    for (size_t i = 0; i < plans.size(); ++i)
      attachments.texels[i] = vulkanResult->attachments[i];
  }

  if (Error error = writeOutputs(job.outputs, job.buffers))
    return error;
  for (const AttachmentFileArgument &png : options.pngs)
    for (size_t i = 0; i < plans.size(); ++i)
      if (plans[i].location == png.location)
        if (Error error =
                amber::writePng(png.path, *plans[i].format,
                                attachments.texels[i].data(), width, height))
          return error;

  for (const AttachmentFileArgument &out : options.attachmentOutputs)
    for (size_t i = 0; i < plans.size(); ++i)
      if (plans[i].location == out.location)
        if (Error error = writeFile(out.path, attachments.texels[i]))
          return error;

  std::vector<BufferComparison> comparisons;
  if (cpu && vulkanResult) {
    for (size_t i = 0; i < plans.size(); ++i)
      comparisons.push_back(
          compareAttachment(plans[i], width, height, attachments.texels[i],
                            vulkanResult->attachments[i], options.tolerance));
    std::vector<BufferResults> results;
    for (size_t i = 0; i < job.buffers.size(); ++i) {
      const HostBuffer &buffer = job.buffers[i];
      if (buffer.image || buffer.isDevice())
        continue;
      results.push_back({buffer.argument.set, buffer.argument.binding,
                         buffer.argument.element, buffer.working,
                         vulkanResult->buffers[i]});
    }
    for (const VulkanShader *shader :
         {&vulkanShaders->fragment, &vulkanShaders->vertex}) {
      Expected<std::vector<BufferComparison>> compared = compareStorageBuffers(
          shader->prepared, shader->reflection, results, options.tolerance);
      if (!compared)
        return compared.takeError();
      for (BufferComparison &comparison : *compared)
        if (none_of(comparisons, [&](const BufferComparison &other) {
              return other.device.empty() && other.set == comparison.set &&
                     other.binding == comparison.binding &&
                     other.element == comparison.element;
            }))
          comparisons.push_back(std::move(comparison));
    }
  }
  size_t differing = count_if(
      comparisons, [](const BufferComparison &c) { return !c.agrees(); });

  TimingSummary cpuTimes =
      summarize(cpu ? ArrayRef<double>(cpu->milliseconds) : ArrayRef<double>());
  TimingSummary vulkanTimes =
      summarize(vulkanResult ? ArrayRef<double>(vulkanResult->drawMilliseconds)
                             : ArrayRef<double>());
  json::Array attachmentList;
  for (const AttachmentPlan &plan : plans)
    attachmentList.push_back(json::Object{{"location", plan.location},
                                          {"format", plan.format->name},
                                          {"components", plan.components}});
  if (options.json) {
    json::Object result{{"entry", shaders->fragment->entryPoint},
                        {"framebuffer", json::Array{width, height}},
                        {"samples", options.samples},
                        {"attachments", std::move(attachmentList)},
                        {"vertices", geometry->count},
                        {"repeat", options.repeat}};
    if (cpu) {
      result["device"] = "spvbridge (host CPU)";
      result["compile_ms"] = shaders->compileMilliseconds;
      result["draw_ms"] = cpuTimes.median;
      result["draw_ms_min"] = cpuTimes.min;
      result["draw_ms_max"] = cpuTimes.max;
      result["threads"] = cpu->threads;
      result["vertex_invocations"] = cpu->statistics.vertexInvocations;
      result["fragment_invocations"] = cpu->statistics.fragmentInvocations;
      result["primitives"] = cpu->statistics.primitives;
    }
    if (vulkanResult) {
      json::Object vulkan{
          {"device", vulkanResult->deviceName},
          {"compile_ms", vulkanResult->compileMilliseconds},
          {"first_draw_ms", vulkanResult->firstDrawMilliseconds},
          {"draw_ms", vulkanTimes.median},
          {"draw_ms_min", vulkanTimes.min},
          {"draw_ms_max", vulkanTimes.max}};
      if (cpu)
        result["vulkan"] = std::move(vulkan);
      else
        for (auto &[key, value] : vulkan)
          result[key] = std::move(value);
    }
    if (cpu && vulkanResult)
      result["compare"] = toJSON(comparisons, options.tolerance);
    outs() << formatv("{0:2}", json::Value(std::move(result))) << "\n";
  } else {
    outs() << formatv(
        "entry:     {0} (fragment) framebuffer={1}x{2} "
        "vertices={3}{4}\n",
        shaders->fragment->entryPoint, width, height, geometry->count,
        options.samples > 1 ? formatv(" samples={0}", options.samples).str()
                            : "");
    for (const AttachmentPlan &plan : plans)
      outs() << formatv("attachment: Location {0} {1}\n", plan.location,
                        plan.format->name);
    if (vulkanResult)
      outs() << formatv("vulkan:    {0}: compile {1:F3} ms, draw {2:F3} ms "
                        "median over {3} (min {4:F3}, max {5:F3})\n",
                        vulkanResult->deviceName,
                        vulkanResult->compileMilliseconds, vulkanTimes.median,
                        options.repeat, vulkanTimes.min, vulkanTimes.max);
    if (cpu) {
      outs() << formatv("compile:   {0:F3} ms\n", shaders->compileMilliseconds);
      outs() << formatv("draw:      {0:F3} ms median over {1} (min {2:F3}, "
                        "max {3:F3}) on {4} threads; {5} primitives, {6} "
                        "fragment invocations\n",
                        cpuTimes.median, cpu->milliseconds.size(), cpuTimes.min,
                        cpuTimes.max, cpu->threads, cpu->statistics.primitives,
                        cpu->statistics.fragmentInvocations);
    }
    for (const BufferComparison &comparison : comparisons)
      outs() << formatComparison(comparison);
    if (cpu && vulkanResult) {
      size_t attachmentCount = plans.size();
      std::string compared = formatv(
          "{0} attachment{1} and {2} storage buffer{3}", attachmentCount,
          attachmentCount == 1 ? "" : "s", comparisons.size() - attachmentCount,
          comparisons.size() - attachmentCount == 1 ? "" : "s");
      outs() << formatv("compare: {0} ({1})\n",
                        differing ? formatv("{0} differ", differing).str()
                                  : std::string("all agree"),
                        compared);
    }
  }
  printBuffers(job.prints, job.buffers, options.json);
  return differing ? 1 : 0;
}
