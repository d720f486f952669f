//===- VulkanDraws.h - An Amber draw through the Vulkan API -----*- C++ -*-===//
//
// spv-run SCRIPT --backend=vulkan: a draw of the script runs on the system's
// Vulkan driver (vulkan/VulkanDraw.h) instead of the runtime, from the
// current bytes of its attachments, buffers and images, which its results
// then replace. The executor binds the draw's descriptors into a
// RecordedBindings as it would into the runtime's Draw, so both paths see
// the same descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_AMBER_EXECUTOR_VULKANDRAWS_H
#define SPVBRIDGE_AMBER_EXECUTOR_VULKANDRAWS_H

#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"
#include "spvbridge/spirv/Specialization.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/Support/Error.h"

#include <map>
#include <tuple>
#include <vector>

namespace spvb::amber {

/// The descriptors of one draw, by (set, binding, array element), as the
/// executor's bindDescriptor gives them.
class RecordedBindings {
public:
  void bindBuffer(uint32_t set, uint32_t binding, uint8_t *data, uint64_t size,
                  uint32_t element) {
    buffers[{set, binding, element}] = {data, size};
  }
  void bindImage(uint32_t set, uint32_t binding, const spvb_image *image,
                 uint32_t element) {
    images[{set, binding, element}] = image;
  }
  void bindSampler(uint32_t set, uint32_t binding, const spvb_sampler *sampler,
                   uint32_t element) {
    samplers[{set, binding, element}] = sampler;
  }

  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;
  std::map<Key, std::pair<uint8_t *, uint64_t>> buffers;
  std::map<Key, const spvb_image *> images;
  std::map<Key, const spvb_sampler *> samplers;
};

/// A shader of the draw: its module as built (not specialized), its entry
/// point and specialization, and its kernel (whose reflection types the
/// descriptors).
struct StageModule {
  const SpirvBinary *binary = nullptr;
  std::string entry;
  std::vector<SpecConstantValue> specializations;
  const Kernel *kernel = nullptr;
};

struct VulkanDrawInput {
  StageModule vertex, tessControl, tessEvaluation, geometry, fragment;
  const RecordedBindings *bindings = nullptr;
  llvm::ArrayRef<uint8_t> pushConstants;
  const runtime::GraphicsState *state = nullptr;
  llvm::ArrayRef<runtime::VertexAttribute> attributes;
  const runtime::DrawCall *call = nullptr;
  /// Updated in place with what the draw left.
  const runtime::RenderTarget *target = nullptr;
  bool robust = false;
};

/// Runs the draw on the Vulkan driver and writes its attachments, buffers
/// and images back. The attachments' images are drawn whole, within the
/// framebuffer's viewport and scissor. Errors name what the Vulkan path
/// cannot carry (attachments of different sizes, several samples, resolve
/// targets, input attachments) or the driver's failure.
llvm::Error runVulkanDraw(const VulkanDrawInput &input);

} // namespace spvb::amber

#endif // SPVBRIDGE_AMBER_EXECUTOR_VULKANDRAWS_H
