//===- Draw.cpp - A draw with compiled vertex and fragment shaders --------===//
#include "spvbridge/bridge/Draw.h"

#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/spirv.hpp>

using namespace spvb;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

llvm::Expected<Draw> Draw::create(std::shared_ptr<const Kernel> vertex,
                                  std::shared_ptr<const Kernel> fragment) {
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
  return Draw(std::move(vertex), std::move(fragment));
}

void Draw::bindBuffer(uint32_t set, uint32_t binding, void *data, uint64_t size,
                      uint32_t arrayElement) {
  vertex.bindBuffer(set, binding, data, size, arrayElement);
  if (fragment)
    fragment->bindBuffer(set, binding, data, size, arrayElement);
}

void Draw::bindImage(uint32_t set, uint32_t binding, const spvb_image *image,
                     uint32_t arrayElement) {
  vertex.bindImage(set, binding, image, arrayElement);
  if (fragment)
    fragment->bindImage(set, binding, image, arrayElement);
}

void Draw::bindSampler(uint32_t set, uint32_t binding,
                       const spvb_sampler *sampler, uint32_t arrayElement) {
  vertex.bindSampler(set, binding, sampler, arrayElement);
  if (fragment)
    fragment->bindSampler(set, binding, sampler, arrayElement);
}

void Draw::setPushConstants(llvm::ArrayRef<uint8_t> bytes) {
  vertex.setPushConstants(bytes);
  if (fragment)
    fragment->setPushConstants(bytes);
}

void Draw::nameMemory(const std::string &name, const void *data,
                      uint64_t size) {
  vertex.nameMemory(name, data, size);
  if (fragment)
    fragment->nameMemory(name, data, size);
}

void Draw::setLimits(const DeviceLimits &limits) {
  vertex.setLimits(limits);
  if (fragment)
    fragment->setLimits(limits);
}

llvm::Expected<runtime::DrawStatistics>
Draw::run(runtime::Launcher &launcher, const runtime::GraphicsState &state,
          llvm::ArrayRef<runtime::VertexAttribute> attributes,
          const runtime::DrawCall &call, runtime::RenderTarget &target) {
  if (llvm::Error error = checkDrawLimits(vertex.getKernel(), attributes,
                                          target, vertex.getLimits()))
    return error;
  llvm::Expected<runtime::DispatchResources> vertexResources =
      vertex.prepare({1, 1, 1});
  if (!vertexResources)
    return vertexResources.takeError();
  std::optional<runtime::DispatchResources> fragmentResources;
  runtime::StageKernel fragmentStage;
  if (fragment) {
    llvm::Expected<runtime::DispatchResources> prepared =
        fragment->prepare({1, 1, 1});
    if (!prepared)
      return prepared.takeError();
    fragmentResources = std::move(*prepared);
    const Kernel &fragmentKernel = fragment->getKernel();
    fragmentStage = {&fragmentKernel.entry, fragmentKernel.stageVariables,
                     &*fragmentResources, false};
    for (const EntryPointInfo &entry : fragmentKernel.reflection.entryPoints)
      if (entry.name == fragmentKernel.entryPoint &&
          entry.executionModel == spv::ExecutionModelFragment)
        fragmentStage.earlyFragmentTests = entry.earlyFragmentTests;
    fragmentStage.interpolatesAtPoints =
        llvm::is_contained(fragmentKernel.reflection.capabilities,
                           spv::CapabilityInterpolationFunction);
  }
  const Kernel &vertexKernel = vertex.getKernel();
  runtime::StageKernel vertexStage{
      &vertexKernel.entry, vertexKernel.stageVariables, &*vertexResources};
  llvm::Expected<runtime::DrawStatistics> statistics = runtime::draw(
      launcher, state, attributes, call, vertexStage, fragmentStage, target);
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
