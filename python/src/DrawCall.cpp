//===- DrawCall.cpp - spvbridge.draw --------------------------------------===//
#include "DrawCall.h"

#include "Errors.h"
#include "ResourceBinding.h"
#include "Session.h"

#include "spvbridge/amber/GraphicsSettings.h"
#include "spvbridge/bridge/DrawAttachments.h"
#include "spvbridge/bridge/FullScreenVertexShader.h"

#include "spvbridge/bridge/Draw.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <tuple>

namespace py = pybind11;
using namespace spvb;
using namespace spvb::python;
using llvm::formatv;

static const char *getComponentKindName(runtime::ComponentKind kind) {
  switch (kind) {
  case runtime::ComponentKind::Snorm:
  case runtime::ComponentKind::Sscaled:
  case runtime::ComponentKind::Sint:
    return "signed";
  case runtime::ComponentKind::Sfloat:
  case runtime::ComponentKind::Ufloat:
    return "float";
  default:
    return "unsigned";
  }
}

static void checkStage(const Kernel &kernel, const char *argument,
                       uint32_t expected) {
  uint32_t model = kernel.entry.info.execution_model;
  if (model == expected)
    return;
  throwBindingError(formatv("{0}: entry point '{1}' of {2} is not a {3} "
                            "shader",
                            argument, kernel.entryPoint, kernel.sourceName,
                            getCompiledStageName(expected)));
}

/// The full-screen rectangle's vertex shader for \p fragment.
static std::shared_ptr<const Kernel>
compileFullScreenVertex(const Kernel &fragment, CompileOptions options) {
  llvm::Expected<std::string> source =
      makeFullScreenVertexShader(fragment.stageVariables, fragment.sourceName);
  if (!source)
    throwCompileError(source.takeError());
  SourceOptions sourceOptions;
  sourceOptions.targetEnv = options.source.targetEnv;
  llvm::Expected<SpirvBinary> binary =
      compileGlsl(*source, "<full-screen vertex shader>", ShaderStage::Vertex,
                  sourceOptions);
  if (!binary)
    throwCompileError(binary.takeError());
  options.entryPoint = "main";
  options.source.entry = "main";
  options.specializations.clear();
  options.executionModel = spv::ExecutionModelVertex;
  llvm::Expected<std::shared_ptr<const Kernel>> kernel =
      Session::get().getJit().compile(*binary, options);
  if (!kernel)
    throwCompileError(kernel.takeError());
  return *kernel;
}

static const runtime::VulkanFormat *findFormat(llvm::StringRef name,
                                               const std::string &argument) {
  std::string upper = name.upper();
  llvm::StringRef bare(upper);
  bare.consume_front("VK_FORMAT_");
  const runtime::VulkanFormat *format = runtime::findVulkanFormat(bare);
  if (!format)
    throwBindingError(formatv("{0}: unknown format '{1}' (expected a VkFormat "
                              "name such as R8G8B8A8_UNORM or "
                              "R32G32B32A32_SFLOAT)",
                              argument, name));
  return format;
}

py::dict spvb::python::runDraw(const DrawRequest &request) {
  const DispatchRequest &resources = request.resources;
  std::shared_ptr<const Kernel> fragment =
      request.fragment->getVariant(resources);
  checkStage(*fragment, "fragment", spv::ExecutionModelFragment);
  std::shared_ptr<const Kernel> vertex;
  if (request.vertex) {
    vertex = request.vertex->getVariant(resources);
    checkStage(*vertex, "vertex", spv::ExecutionModelVertex);
  } else {
    if (!request.vertices.empty() || request.indices)
      throwBindingError("vertices: the full-screen rectangle of a fragment "
                        "shader alone takes no vertex data; give a vertex "
                        "shader too");
    CompileOptions options = request.fragment->getOptions();
    py::gil_scoped_release release;
    vertex = compileFullScreenVertex(*fragment, options);
  }
  // The optional stages between the vertex and the fragment shader.
  DrawShaders shaders{vertex, nullptr, nullptr, nullptr, fragment};
  for (auto [kernel, argument, model, into] :
       {std::tuple(&request.tessControl, "tess_control",
                   spv::ExecutionModelTessellationControl,
                   &shaders.tessControl),
        std::tuple(&request.tessEvaluation, "tess_evaluation",
                   spv::ExecutionModelTessellationEvaluation,
                   &shaders.tessEvaluation),
        std::tuple(&request.geometry, "geometry", spv::ExecutionModelGeometry,
                   &shaders.geometry)}) {
    if (!*kernel)
      continue;
    if (!request.vertex)
      throwBindingError(formatv("{0}: a full-screen draw has no vertex "
                                "shader for it to follow; give a vertex "
                                "shader too",
                                argument));
    *into = (*kernel)->getVariant(resources);
    checkStage(**into, argument, model);
  }
  DeviceLimits limits = DeviceLimits::lavapipe();
  if (request.width == 0 || request.height == 0 ||
      request.width > limits.maxFramebufferWidth ||
      request.height > limits.maxFramebufferHeight)
    throwBindingError(formatv("size=({0}, {1}): expected a width from 1 to "
                              "{2} and a height from 1 to {3}",
                              request.width, request.height,
                              limits.maxFramebufferWidth,
                              limits.maxFramebufferHeight));
  if (request.samples != 1 && request.samples != 4)
    throwBindingError(formatv("samples={0}: expected 1 or 4 (Vulkan's "
                              "standard sample locations)",
                              request.samples));
  const runtime::VulkanFormat *format = findFormat(request.format, "format");
  if (format->components == 0 || format->kind == runtime::ComponentKind::Uint ||
      format->kind == runtime::ComponentKind::Sint)
    throwBindingError(formatv("format: {0} is not a float colour format "
                              "(integer outputs get R32G32B32A32_UINT or "
                              "_SINT attachments of their own)",
                              format->name));

  std::vector<const Kernel *> kernels{fragment.get(), vertex.get()};
  for (const std::shared_ptr<const Kernel> &kernel :
       {shaders.tessControl, shaders.tessEvaluation, shaders.geometry})
    if (kernel)
      kernels.push_back(kernel.get());
  llvm::Expected<Draw> created = Draw::create(shaders);
  if (!created)
    throw BindingError(llvm::toString(created.takeError()));
  Draw &draw = *created;
  if (request.debugPixel) {
    auto [x, y] = *request.debugPixel;
    if (x >= request.width || y >= request.height)
      throwBindingError(formatv("debug_pixel=({0}, {1}): outside the {2}x{3} "
                                "framebuffer",
                                x, y, request.width, request.height));
    // Debug builds of the shaders given (not of a full-screen vertex
    // shader).
    auto debugBuild = [&](const auto &shader) -> std::shared_ptr<const Kernel> {
      return shader ? shader->getVariant(resources, true) : nullptr;
    };
    draw.setDebugPixel(x, y,
                       DrawShaders{debugBuild(request.vertex),
                                   debugBuild(request.tessControl),
                                   debugBuild(request.tessEvaluation),
                                   debugBuild(request.geometry),
                                   debugBuild(request.fragment)});
  }
  ResourceBinder binder(kernels);
  BindTargetFor<Draw> target(draw);
  binder.bind(target, resources);
  if (resources.push)
    draw.setPushConstants(getPushConstants(*resources.push, kernels));

  runtime::GraphicsState state;
  std::optional<VkPrimitiveTopology> topology =
      request.vertex ? amber::parseTopology(request.topology)
                     : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  if (!topology)
    throwBindingError(formatv("topology='{0}': expected point_list, "
                              "line_list, line_strip, triangle_list, "
                              "triangle_strip, triangle_fan, one of these "
                              "with _with_adjacency, or patch_list",
                              request.topology));
  state.topology = *topology;
  state.patchControlPoints = request.patchControlPoints;
  state.primitiveRestart = request.indices.has_value();

  std::vector<std::unique_ptr<PinnedMemory>> pinned;
  auto pin = [&](py::handle object, const std::string &argument) {
    auto memory = std::make_unique<PinnedMemory>();
    if (std::optional<std::string> problem = memory->pin(object, true))
      throwBindingError(argument + ": the object given " + *problem);
    pinned.push_back(std::move(memory));
    return pinned.back().get();
  };
  std::vector<runtime::VertexAttribute> attributes;
  uint64_t vertexCount = UINT32_MAX;
  for (const VertexInput &input : request.vertices) {
    std::string argument = formatv("vertices[{0}]", input.location);
    runtime::VertexAttribute attribute;
    attribute.location = input.location;
    attribute.format = findFormat(input.format, argument);
    PinnedMemory *memory = pin(input.data, argument);
    attribute.data = memory->getData();
    attribute.size = memory->getSize();
    attribute.stride = attribute.format->texelBytes;
    vertexCount = std::min(vertexCount, attribute.size / attribute.stride);
    attributes.push_back(attribute);
  }
  runtime::DrawCall call;
  if (request.indices) {
    PinnedMemory *memory = pin(*request.indices, "indices");
    call.indices = memory->getData();
    call.indexBytes = memory->getSize();
    call.indexSize = request.indexSize;
    vertexCount = call.indexBytes / call.indexSize;
  }
  if (request.count)
    call.vertexCount = *request.count;
  else if (!request.vertex)
    call.vertexCount = FullScreenVertexCount;
  else if (vertexCount != UINT32_MAX)
    call.vertexCount = uint32_t(vertexCount);
  else
    throwBindingError("count is needed: no vertices or indices say how many "
                      "vertices to draw");
  call.instanceCount = request.instances;

  std::vector<AttachmentPlan> plans =
      planAttachments(fragment->stageVariables, format);
  auto plan = llvm::find_if(plans, [&](const AttachmentPlan &plan) {
    return plan.location == request.location;
  });
  if (plan == plans.end()) {
    std::string locations;
    for (const AttachmentPlan &other : plans)
      locations +=
          (locations.empty() ? "" : ", ") + std::to_string(other.location);
    throwBindingError(formatv("location={0}: {1} has no output at Location "
                              "{0} (its outputs: {2})",
                              request.location, fragment->sourceName,
                              locations.empty() ? "none" : locations));
  }
  Attachments attachments(plans, request.width, request.height,
                          request.samples);
  size_t index = plan - plans.begin();

  runtime::Launcher &launcher =
      Session::get().getLauncher(resources.threads, resources.subgroupSize);
  runtime::DrawStatistics statistics;
  double milliseconds = 0;
  std::string printed;
  llvm::Error error = [&] {
    py::gil_scoped_release release;
    std::chrono::duration<double> timeout(resources.timeoutSeconds);
    auto describe = [&] {
      if (Session::getInterrupt())
        return std::string("error: the draw was interrupted");
      return formatv("error: the draw did not finish in {0} s (the "
                     "timeout; timeout=0 waits forever); the shader may "
                     "loop forever",
                     formatSeconds(resources.timeoutSeconds))
          .str();
    };
    runtime::Watchdog &watchdog = Session::get().getWatchdog();
    return Session::get().runExclusive(
        [&](FILE *) -> llvm::Error {
          auto start = std::chrono::steady_clock::now();
          watchdog.arm(
              timeout, describe,
              [&](const std::string &message) { launcher.cancel(message); },
              &Session::getInterrupt());
          llvm::Expected<runtime::DrawStatistics> drawn =
              draw.run(launcher, state, attributes, call, attachments.target);
          watchdog.disarm();
          if (!drawn)
            return drawn.takeError();
          statistics = *drawn;
          milliseconds = std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - start)
                             .count();
          return llvm::Error::success();
        },
        printed);
  }();
  if (error)
    throwDispatchError(std::move(error), printed);

  const std::vector<uint8_t> &texels = attachments.texels[index];
  py::dict result;
  result["texels"] = py::bytearray(
      reinterpret_cast<const char *>(texels.data()), texels.size());
  result["width"] = request.width;
  result["height"] = request.height;
  result["format"] = std::string(plan->format->name);
  result["components"] = plan->format->components;
  result["texel_bytes"] = plan->format->texelBytes;
  result["kind"] = getComponentKindName(plan->format->kind);
  result["draw_ms"] = milliseconds;
  result["primitives"] = statistics.primitives;
  result["fragment_invocations"] = statistics.fragmentInvocations;
  result["printf"] = printed;
  return result;
}
