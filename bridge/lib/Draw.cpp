//===- Draw.cpp - A draw with compiled vertex and fragment shaders --------===//
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

llvm::Expected<Draw> Draw::create(std::shared_ptr<const Kernel> vertex,
                                  std::shared_ptr<const Kernel> fragment,
                                  std::shared_ptr<const Kernel> geometry) {
  auto check = [](const Kernel &kernel, uint32_t model,
                  llvm::StringRef stage) -> llvm::Error {
    if (kernel.entry.info.execution_model == model)
      return llvm::Error::success();
    return makeError(llvm::formatv("error: {0}: entry point '{1}' is not a {2} "
                                   "shader",
                                   kernel.sourceName, kernel.entryPoint,
                                   stage));
  };
  if (llvm::Error error = check(*vertex, spv::ExecutionModelVertex, "vertex"))
    return error;
  if (fragment)
    if (llvm::Error error =
            check(*fragment, spv::ExecutionModelFragment, "fragment"))
      return error;
  if (geometry)
    if (llvm::Error error =
            check(*geometry, spv::ExecutionModelGeometry, "geometry"))
      return error;
  return Draw(std::move(vertex), std::move(fragment), std::move(geometry));
}

llvm::SmallVector<Dispatch *, 3> Draw::getStages() {
  llvm::SmallVector<Dispatch *, 3> stages{&vertex};
  if (geometry)
    stages.push_back(&*geometry);
  if (fragment)
    stages.push_back(&*fragment);
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
  std::optional<runtime::DispatchResources> vertexResources, geometryResources,
      fragmentResources;
  llvm::Expected<runtime::StageKernel> vertexStage =
      prepareStage(vertex, vertexResources);
  if (!vertexStage)
    return vertexStage.takeError();
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
  }
  llvm::Expected<runtime::DrawStatistics> statistics =
      runtime::draw(launcher, state, attributes, call, *vertexStage,
                    geometry ? &geometryStage : nullptr, fragmentStage, target);
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
