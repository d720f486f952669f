//===- Draw.h - A draw of compiled graphics shaders -------------*- C++ -*-===//
//
// The graphics counterpart of Dispatch: binds resources by (set, binding)
// for both stages (each stage checks what it uses), and runs one draw of
// the runtime's graphics pipeline (cpu_runtime/GraphicsPipeline.h) into a
// render target.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_DRAW_H
#define SPVBRIDGE_BRIDGE_DRAW_H

#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

namespace spvb {

/// The compiled shaders of a graphics pipeline: a vertex shader, an
/// optional fragment shader (without one only the depth and stencil tests
/// write), and optionally a tessellation control and evaluation pair and a
/// geometry shader.
struct DrawShaders {
  std::shared_ptr<const Kernel> vertex;
  std::shared_ptr<const Kernel> tessControl;
  std::shared_ptr<const Kernel> tessEvaluation;
  std::shared_ptr<const Kernel> geometry;
  std::shared_ptr<const Kernel> fragment;
};

class Draw {
public:
  /// Each kernel must be of its stage, and the tessellation shaders come
  /// as a pair.
  static llvm::Expected<Draw> create(DrawShaders shaders);
  /// A vertex and a fragment shader.
  static llvm::Expected<Draw> create(std::shared_ptr<const Kernel> vertex,
                                     std::shared_ptr<const Kernel> fragment) {
    return create(DrawShaders{std::move(vertex), nullptr, nullptr, nullptr,
                              std::move(fragment)});
  }

  /// As Dispatch's: the binding applies to whichever stage uses it.
  void bindBuffer(uint32_t set, uint32_t binding, void *data, uint64_t size,
                  uint32_t arrayElement = 0);
  void bindImage(uint32_t set, uint32_t binding, const spvb_image *image,
                 uint32_t arrayElement = 0);
  void bindSampler(uint32_t set, uint32_t binding, const spvb_sampler *sampler,
                   uint32_t arrayElement = 0);
  void setPushConstants(llvm::ArrayRef<uint8_t> bytes);
  void setLimits(const DeviceLimits &limits);
  /// As Dispatch's: memory reached by address, named in reports.
  void nameMemory(const std::string &name, const void *data, uint64_t size);

  /// --debug-pixel: the fragment invocations that cover pixel (x, y) run
  /// through `debugBuilds.fragment`, a debug build of the fragment shader
  /// (same source and options but --debug); with debug builds of the other
  /// stages, the invocations behind the primitives that cover it (their
  /// vertices, patches and geometry shader invocations) run again through
  /// them (runtime::DebugPixel). The rest of the draw runs optimized.
  void setDebugPixel(uint32_t x, uint32_t y, DrawShaders debugBuilds) {
    this->debugBuilds = std::move(debugBuilds);
    auto entry = [](const std::shared_ptr<const Kernel> &kernel) {
      return kernel ? kernel->entry.invocation : nullptr;
    };
    debugPixel = {x,
                  y,
                  entry(this->debugBuilds.fragment),
                  entry(this->debugBuilds.vertex),
                  entry(this->debugBuilds.tessControl),
                  entry(this->debugBuilds.tessEvaluation),
                  entry(this->debugBuilds.geometry)};
  }

  /// The stages that are there, in pipeline order: to bind into each what
  /// the methods above do not.
  llvm::SmallVector<Dispatch *, 5> getStages();

  /// Draws into `target`. Errors name the stage's shader.
  llvm::Expected<runtime::DrawStatistics>
  run(runtime::Launcher &launcher, const runtime::GraphicsState &state,
      llvm::ArrayRef<runtime::VertexAttribute> attributes,
      const runtime::DrawCall &call, runtime::RenderTarget &target);

private:
  explicit Draw(DrawShaders shaders) : vertex(std::move(shaders.vertex)) {
    if (shaders.tessControl)
      tessControl.emplace(std::move(shaders.tessControl));
    if (shaders.tessEvaluation)
      tessEvaluation.emplace(std::move(shaders.tessEvaluation));
    if (shaders.geometry)
      geometry.emplace(std::move(shaders.geometry));
    if (shaders.fragment)
      fragment.emplace(std::move(shaders.fragment));
  }
  Dispatch vertex;
  std::optional<Dispatch> tessControl;
  std::optional<Dispatch> tessEvaluation;
  std::optional<Dispatch> geometry;
  std::optional<Dispatch> fragment;
  DrawShaders debugBuilds;
  runtime::DebugPixel debugPixel;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_DRAW_H
