//===- VulkanDraw.h - Run one draw through Vulkan ---------------*- C++ -*-===//
//
// The graphics counterpart of VulkanBackend.h: one draw of a vertex and a
// fragment shader into colour attachments on the system's Vulkan driver
// (lavapipe in tests), for spv-run --backend=vulkan and --compare on
// fragment shaders and the fragment differential runner. The device,
// features, descriptors, push constants and specialization are the compute
// job's (VulkanBackend.h), with every descriptor visible to both stages.
//
// Fixed state, unless DrawJob::state gives the runtime's whole graphics
// state (spv-amber --draw-backend=vulkan): the viewport is the whole
// framebuffer (depth 0 to 1), no scissor beyond it, fill mode, no culling,
// counter-clockwise front faces, blending off, every component written,
// one sample or four resolved at the end of the render pass. Each
// attachment is cleared to its clear value before every draw
// (VK_ATTACHMENT_LOAD_OP_CLEAR), or starts from the texels it is given
// (copied in, then VK_ATTACHMENT_LOAD_OP_LOAD), as does a depth/stencil
// attachment.
//
// Errors are those of runJob, plus:
//   error: --framebuffer: WxH has no texels
//   error: --framebuffer: WxH exceeds the Vulkan device's limit of
//          MAXWxMAXH (maxFramebufferWidth/Height)
//   error: --framebuffer: Location L exceeds the Vulkan device's limit of N
//          colour attachments (maxColorAttachments)
//   error: --framebuffer: the Vulkan device 'NAME' cannot use FORMAT as a
//          colour attachment (vkGetPhysicalDeviceFormatProperties)
//   error: --framebuffer: the Vulkan backend does not know the texel size
//          of FORMAT (not in cpu_runtime's VulkanFormats.h)
//   error: vertex data: the Vulkan device 'NAME' cannot use FORMAT as a
//          vertex attribute (Location L)
//   error: --samples 4: the Vulkan device 'NAME' cannot draw 4 samples
//          [of FORMAT] (framebufferColorSampleCounts,
//          vkGetPhysicalDeviceImageFormatProperties)
//   error: --samples 4: Vulkan resolves no integer format (FORMAT at
//          Location L); the CPU takes sample 0
//   error: vulkan: an attachment's initial texels need one sample per
//          pixel
//   error: vulkan: the depth/stencil attachment has format FORMAT, which
//          is no depth/stencil format the backend copies
//   error: vertex data: Location L (or N attributes, N buffers, binding B,
//          a stride, an offset) exceeds the Vulkan device's limit of M ...
//          (maxVertexInputAttributes, maxVertexInputBindings,
//          maxVertexInputBindingStride, maxVertexInputAttributeOffset)
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_VULKAN_VULKANDRAW_H
#define SPVBRIDGE_TOOLS_VULKAN_VULKANDRAW_H

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"
#include "spvbridge/vulkan/VulkanBackend.h"

#include <vulkan/vulkan_core.h>

namespace spvb::vulkan {

/// A vertex buffer binding: `data` read with `stride` per vertex (or per
/// instance).
struct VertexBuffer {
  uint32_t binding = 0;
  uint32_t stride = 0;
  bool perInstance = false;
  /// Not empty.
  llvm::ArrayRef<uint8_t> data;
};

struct VertexAttribute {
  uint32_t location = 0;
  uint32_t binding = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  uint32_t offset = 0;
};

/// A colour attachment, the fragment shader's output Location `location`.
struct ColorAttachment {
  uint32_t location = 0;
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  /// The clear value's bits: float32 for UNORM, SNORM, SRGB and float
  /// formats, uint32 for UINT, int32 for SINT (VkClearColorValue).
  std::array<uint32_t, 4> clear = {0, 0, 0, 0};
  /// Not empty: the texels every draw starts from instead (rows of `width`
  /// texels, tightly packed, in the format's own layout).
  llvm::ArrayRef<uint8_t> initial;
};

/// A depth/stencil attachment, whose texels every draw starts from, in the
/// runtime's layout of `format` (cpu_runtime/VulkanFormats.h).
struct DepthStencilAttachment {
  VkFormat format = VK_FORMAT_D32_SFLOAT;
  llvm::ArrayRef<uint8_t> initial;
};

struct DrawJob {
  /// As loaded, not specialized (Job::spirv); the specializations apply to
  /// both stages.
  const SpirvBinary *vertex = nullptr;
  std::string vertexEntry = "main";
  /// Optional (a draw that only writes depth, stencil or buffers).
  const SpirvBinary *fragment = nullptr;
  std::string fragmentEntry = "main";
  /// Optional: a tessellation control and evaluation pair (both or
  /// neither), a geometry shader.
  const SpirvBinary *tessControl = nullptr;
  std::string tessControlEntry = "main";
  const SpirvBinary *tessEvaluation = nullptr;
  std::string tessEvaluationEntry = "main";
  const SpirvBinary *geometry = nullptr;
  std::string geometryEntry = "main";
  llvm::ArrayRef<SpecConstantValue> specializations;

  uint32_t width = 1, height = 1;
  /// Ordered by location, no two with the same one.
  std::vector<ColorAttachment> attachments;
  std::optional<DepthStencilAttachment> depthStencil;
  /// The fixed-function state (viewport, scissor, rasterization, sample
  /// shading and mask, depth, stencil, blending, logic operation, primitive
  /// restart, patch size and domain origin) instead of the fixed state the
  /// file comment lists; `topology` still gives the topology.
  const runtime::GraphicsState *state = nullptr;
  /// 1, or 4: the attachments are then drawn multisampled and resolved
  /// (averaged) into the single-sample images that are read back.
  uint32_t samples = 1;

  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  /// VK_PRIMITIVE_TOPOLOGY_PATCH_LIST: the control points of each patch.
  uint32_t patchControlPoints = 3;
  /// VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT instead of the default.
  bool lowerLeftDomainOrigin = false;
  std::vector<VertexBuffer> vertexBuffers;
  std::vector<VertexAttribute> attributes;
  /// vkCmdDraw(vertexCount, instanceCount, firstVertex, firstInstance), or
  /// with indices vkCmdDrawIndexed(indexCount, instanceCount, firstVertex,
  /// vertexOffset, firstInstance).
  uint32_t vertexCount = 0;
  uint32_t instanceCount = 1;
  uint32_t firstVertex = 0;
  int32_t vertexOffset = 0;
  uint32_t firstInstance = 0;
  /// Indexed draws: the index buffer (not empty) and its type; primitive
  /// restart is on for strips and fans.
  llvm::ArrayRef<uint8_t> indices;
  VkIndexType indexType = VK_INDEX_TYPE_UINT32;
  uint32_t indexCount = 0;

  /// Descriptors and push constants, as Job's (visible to both stages).
  std::vector<BufferBinding> buffers;
  std::vector<ImageBinding> images;
  std::vector<SamplerBinding> samplers;
  llvm::ArrayRef<uint8_t> pushConstants;

  /// Timed draws after the warm-up (at least 1).
  uint32_t repeat = 10;
  std::optional<uint32_t> deviceIndex;
  bool robust = false;
};

struct DrawResult {
  std::string deviceName;
  /// VkPhysicalDeviceSubgroupProperties::subgroupSize.
  uint32_t subgroupSize = 0;
  /// vkCreateShaderModule (both) + vkCreateGraphicsPipelines.
  double compileMilliseconds = 0;
  /// The untimed warm-up draw.
  double firstDrawMilliseconds = 0;
  /// Submit + fence wait of each timed draw.
  std::vector<double> drawMilliseconds;
  /// Each attachment of DrawJob::attachments after the last draw: rows of
  /// `width` texels, tightly packed, in the format's own texel layout.
  std::vector<std::vector<uint8_t>> attachments;
  /// DrawJob::depthStencil after the last draw, in the runtime's layout.
  std::vector<uint8_t> depthStencil;
  /// Each buffer of DrawJob::buffers after the last draw.
  std::vector<std::vector<uint8_t>> buffers;
  /// Each image of DrawJob::images after the last draw (Result::images).
  std::vector<std::vector<uint8_t>> images;
};

/// Runs the draw; see the file comment for the errors.
llvm::Expected<DrawResult> runDraw(const DrawJob &job);

} // namespace spvb::vulkan

#endif // SPVBRIDGE_TOOLS_VULKAN_VULKANDRAW_H
