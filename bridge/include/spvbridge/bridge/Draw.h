//===- Draw.h - A draw of compiled vertex and fragment shaders -*- C++ -*-===//
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

class Draw {
public:
  /// The kernels must be a vertex, a fragment and (optional) a geometry
  /// shader; without a fragment shader only the depth and stencil tests
  /// write.
  static llvm::Expected<Draw>
  create(std::shared_ptr<const Kernel> vertex,
         std::shared_ptr<const Kernel> fragment,
         std::shared_ptr<const Kernel> geometry = nullptr);

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

  /// Draws into `target`. Errors name the stage's shader.
  llvm::Expected<runtime::DrawStatistics>
  run(runtime::Launcher &launcher, const runtime::GraphicsState &state,
      llvm::ArrayRef<runtime::VertexAttribute> attributes,
      const runtime::DrawCall &call, runtime::RenderTarget &target);

private:
  Draw(std::shared_ptr<const Kernel> vertex,
       std::shared_ptr<const Kernel> fragment,
       std::shared_ptr<const Kernel> geometry)
      : vertex(std::move(vertex)) {
    if (fragment)
      this->fragment.emplace(std::move(fragment));
    if (geometry)
      this->geometry.emplace(std::move(geometry));
  }
  /// The stages that are there, vertex first.
  llvm::SmallVector<Dispatch *, 3> getStages();

  Dispatch vertex;
  std::optional<Dispatch> geometry;
  std::optional<Dispatch> fragment;
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_DRAW_H
