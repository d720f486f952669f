//===- Draw.cpp - A draw of compiled graphics shaders ---------------------===//
#include "spvbridge/bridge/Draw.h"

#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

using namespace spvb;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The reflection of `kernel`'s own entry point.
static const EntryPointInfo *findEntryPoint(const Kernel &kernel,
                                            spv::ExecutionModel model) {
  for (const EntryPointInfo &entry : kernel.reflection.entryPoints)
    if (entry.name == kernel.entryPoint && entry.executionModel == model)
      return &entry;
  return nullptr;
}

/// A stage's kernel with its bound resources, which `resources` holds.
static llvm::Expected<runtime::StageKernel>
prepareStage(Dispatch &stage,
             std::optional<runtime::DispatchResources> &resources) {
  llvm::Expected<runtime::DispatchResources> prepared =
      stage.prepare({1, 1, 1});
  if (!prepared)
    return prepared.takeError();
  resources = std::move(*prepared);
  const Kernel &kernel = stage.getKernel();
  runtime::StageKernel kernelStage;
  kernelStage.entry = &kernel.entry;
  kernelStage.variables = kernel.stageVariables;
  kernelStage.resources = &*resources;
  return kernelStage;
}

/// The tessellation modes of a control and an evaluation shader, merged:
/// each mode may come from either; the domain and the control shader's
/// OutputVertices are required.
static llvm::Expected<runtime::TessellationMode>
getTessellationMode(const Kernel &control, const Kernel &evaluation) {
  EntryPointInfo::TessellationModes merged;
  for (const EntryPointInfo *entry :
       {findEntryPoint(control, spv::ExecutionModelTessellationControl),
        findEntryPoint(evaluation,
                       spv::ExecutionModelTessellationEvaluation)}) {
    if (!entry)
      continue;
    const EntryPointInfo::TessellationModes &modes = entry->tessellation;
    merged.domain = modes.domain ? modes.domain : merged.domain;
    merged.spacing = modes.spacing ? modes.spacing : merged.spacing;
    merged.vertexOrder =
        modes.vertexOrder ? modes.vertexOrder : merged.vertexOrder;
    merged.pointMode |= modes.pointMode;
    // The control shader's OutputVertices is the one that counts.
    if (!merged.outputVertices)
      merged.outputVertices = modes.outputVertices;
  }
  if (!merged.domain)
    return makeError(llvm::formatv(
        "error: {0}: neither tessellation shader declares the domain "
        "(Triangles, Quads or Isolines)",
        evaluation.sourceName));
  if (!merged.outputVertices)
    return makeError(
        llvm::formatv("error: {0}: the tessellation control shader declares no "
                      "OutputVertices",
                      control.sourceName));
  runtime::TessellationMode mode;
  mode.domain = merged.domain == spv::ExecutionModeQuads
                    ? runtime::TessellationDomain::Quads
                : merged.domain == spv::ExecutionModeIsolines
                    ? runtime::TessellationDomain::Isolines
                    : runtime::TessellationDomain::Triangles;
  mode.spacing = merged.spacing == spv::ExecutionModeSpacingFractionalEven
                     ? runtime::TessellationSpacing::FractionalEven
                 : merged.spacing == spv::ExecutionModeSpacingFractionalOdd
                     ? runtime::TessellationSpacing::FractionalOdd
                     : runtime::TessellationSpacing::Equal;
  mode.clockwise = merged.vertexOrder == spv::ExecutionModeVertexOrderCw;
  mode.pointMode = merged.pointMode;
  mode.outputVertices = merged.outputVertices;
  return mode;
}

llvm::Expected<Draw> Draw::create(DrawShaders shaders) {
  auto check = [](const std::shared_ptr<const Kernel> &kernel,
                  spv::ExecutionModel model) -> llvm::Error {
    if (!kernel || kernel->entry.info.execution_model == model)
      return llvm::Error::success();
    return makeError(llvm::formatv("error: {0}: entry point '{1}' is not a {2} "
                                   "shader",
                                   kernel->sourceName, kernel->entryPoint,
                                   getCompiledStageName(model)));
  };
  if (!shaders.vertex)
    return makeError("error: a draw needs a vertex shader");
  for (auto [kernel, model] :
       {std::pair(&shaders.vertex, spv::ExecutionModelVertex),
        std::pair(&shaders.tessControl, spv::ExecutionModelTessellationControl),
        std::pair(&shaders.tessEvaluation,
                  spv::ExecutionModelTessellationEvaluation),
        std::pair(&shaders.geometry, spv::ExecutionModelGeometry),
        std::pair(&shaders.fragment, spv::ExecutionModelFragment)})
    if (llvm::Error error = check(*kernel, model))
      return error;
  if (bool(shaders.tessControl) != bool(shaders.tessEvaluation))
    return makeError(llvm::formatv(
        "error: {0}: a tessellation {1} shader needs a tessellation {2} "
        "shader too",
        (shaders.tessControl ? shaders.tessControl : shaders.tessEvaluation)
            ->sourceName,
        shaders.tessControl ? "control" : "evaluation",
        shaders.tessControl ? "evaluation" : "control"));
  return Draw(std::move(shaders));
}

llvm::SmallVector<Dispatch *, 5> Draw::getStages() {
  llvm::SmallVector<Dispatch *, 5> stages{&vertex};
  for (std::optional<Dispatch> *stage :
       {&tessControl, &tessEvaluation, &geometry, &fragment})
    if (*stage)
      stages.push_back(&**stage);
  return stages;
}

void Draw::bindBuffer(uint32_t set, uint32_t binding, void *data, uint64_t size,
                      uint32_t arrayElement) {
  for (Dispatch *stage : getStages())
    stage->bindBuffer(set, binding, data, size, arrayElement);
}

void Draw::bindImage(uint32_t set, uint32_t binding, const spvb_image *image,
                     uint32_t arrayElement) {
  for (Dispatch *stage : getStages())
    stage->bindImage(set, binding, image, arrayElement);
}

void Draw::bindSampler(uint32_t set, uint32_t binding,
                       const spvb_sampler *sampler, uint32_t arrayElement) {
  for (Dispatch *stage : getStages())
    stage->bindSampler(set, binding, sampler, arrayElement);
}

void Draw::setPushConstants(llvm::ArrayRef<uint8_t> bytes) {
  for (Dispatch *stage : getStages())
    stage->setPushConstants(bytes);
}

void Draw::nameMemory(const std::string &name, const void *data,
                      uint64_t size) {
  for (Dispatch *stage : getStages())
    stage->nameMemory(name, data, size);
}

void Draw::setLimits(const DeviceLimits &limits) {
  for (Dispatch *stage : getStages())
    stage->setLimits(limits);
}

llvm::Expected<runtime::DrawStatistics>
Draw::run(runtime::Launcher &launcher, const runtime::GraphicsState &state,
          llvm::ArrayRef<runtime::VertexAttribute> attributes,
          const runtime::DrawCall &call, runtime::RenderTarget &target) {
  if (llvm::Error error = checkDrawLimits(vertex.getKernel(), attributes,
                                          target, vertex.getLimits()))
    return error;
  std::optional<runtime::DispatchResources> vertexResources,
      tessControlResources, tessEvaluationResources, geometryResources,
      fragmentResources;
  llvm::Expected<runtime::StageKernel> vertexStage =
      prepareStage(vertex, vertexResources);
  if (!vertexStage)
    return vertexStage.takeError();
  runtime::PipelineStages stages;
  stages.vertex = &*vertexStage;
  runtime::StageKernel fragmentStage;
  if (fragment) {
    llvm::Expected<runtime::StageKernel> prepared =
        prepareStage(*fragment, fragmentResources);
    if (!prepared)
      return prepared.takeError();
    fragmentStage = *prepared;
    const Kernel &kernel = fragment->getKernel();
    if (const EntryPointInfo *entry =
            findEntryPoint(kernel, spv::ExecutionModelFragment))
      fragmentStage.earlyFragmentTests = entry->earlyFragmentTests;
    fragmentStage.interpolatesAtPoints = llvm::is_contained(
        kernel.reflection.capabilities, spv::CapabilityInterpolationFunction);
  }
  stages.fragment = &fragmentStage;
  runtime::StageKernel tessControlStage, tessEvaluationStage;
  if (tessControl) {
    llvm::Expected<runtime::StageKernel> control =
        prepareStage(*tessControl, tessControlResources);
    if (!control)
      return control.takeError();
    llvm::Expected<runtime::StageKernel> evaluation =
        prepareStage(*tessEvaluation, tessEvaluationResources);
    if (!evaluation)
      return evaluation.takeError();
    tessControlStage = *control;
    tessEvaluationStage = *evaluation;
    llvm::Expected<runtime::TessellationMode> mode = getTessellationMode(
        tessControl->getKernel(), tessEvaluation->getKernel());
    if (!mode)
      return mode.takeError();
    tessControlStage.tessellation = tessEvaluationStage.tessellation = *mode;
    stages.tessControl = &tessControlStage;
    stages.tessEvaluation = &tessEvaluationStage;
  }
  runtime::StageKernel geometryStage;
  if (geometry) {
    llvm::Expected<runtime::StageKernel> prepared =
        prepareStage(*geometry, geometryResources);
    if (!prepared)
      return prepared.takeError();
    geometryStage = *prepared;
    if (const EntryPointInfo *entry = findEntryPoint(
            geometry->getKernel(), spv::ExecutionModelGeometry)) {
      runtime::GeometryShape &shape = geometryStage.geometry;
      shape.inputVertices = entry->geometry.inputVertices;
      shape.output =
          entry->geometry.output == spv::ExecutionModeOutputPoints
              ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
          : entry->geometry.output == spv::ExecutionModeOutputLineStrip
              ? VK_PRIMITIVE_TOPOLOGY_LINE_STRIP
              : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
      shape.maxVertices = entry->geometry.maxVertices;
      shape.invocations = std::max(1u, entry->geometry.invocations);
    }
    stages.geometry = &geometryStage;
  }
  if (debugBuilds.fragment)
    stages.debugPixel = &debugPixel;
  llvm::Expected<runtime::DrawStatistics> statistics =
      runtime::draw(launcher, state, attributes, call, stages, target);
  if (statistics)
    return statistics;
  // A fault names the buffer nearest to it; which stage faulted is not
  // known, so the fragment shader's bindings (a superset in most draws)
  // name it.
  llvm::Error error =
      (fragment ? *fragment : vertex).explainFault(statistics.takeError());
  return llvm::handleErrors(std::move(error), [&](const llvm::StringError &e) {
    llvm::StringRef message = e.getMessage();
    // The runtime's own messages say which stage they are about.
    return makeError(message.starts_with("error: ") ? message
                                                    : "error: " + message);
  });
}
