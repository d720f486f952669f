//===- GraphicsPipeline.h - Draws on the CPU --------------------*- C++ -*-===//
//
// The fixed-function half of a Vulkan graphics pipeline around compiled
// vertex and fragment kernels (kernel_abi.h), as the specification's
// "Drawing", "Fixed-Function Vertex Processing", "Rasterization" and
// "Fragment Operations" chapters describe it:
//
//   vertex fetch -> vertex kernel (one invocation per vertex) -> primitive
//   assembly -> clipping -> viewport transform -> culling -> rasterization
//   (8 sub-pixel bits, top-left rule; one sample at the pixel centre, or
//   four at the standard locations) -> fragment kernel (2x2 quads, helper
//   invocations; per pixel, or per sample with sample shading) ->
//   depth/stencil tests -> blending -> attachments -> resolve.
//
// State uses Vulkan's enumerations. Fragments are shaded in batches over
// the launcher's threads; the fragment operations then run in primitive
// order, so the result never depends on the thread count.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_GRAPHICSPIPELINE_H
#define SPVBRIDGE_CPU_RUNTIME_GRAPHICSPIPELINE_H

#include "spvbridge/cpu_runtime/Launcher.h"
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vulkan/vulkan_core.h>

#include <array>
#include <optional>
#include <vector>

namespace spvb::runtime {

struct StencilState {
  VkStencilOp failOp = VK_STENCIL_OP_KEEP;
  VkStencilOp passOp = VK_STENCIL_OP_KEEP;
  VkStencilOp depthFailOp = VK_STENCIL_OP_KEEP;
  VkCompareOp compareOp = VK_COMPARE_OP_ALWAYS;
  uint32_t compareMask = 0xff;
  uint32_t writeMask = 0xff;
  uint32_t reference = 0;
};

struct BlendState {
  bool enable = false;
  VkBlendFactor srcColor = VK_BLEND_FACTOR_ONE;
  VkBlendFactor dstColor = VK_BLEND_FACTOR_ZERO;
  VkBlendOp colorOp = VK_BLEND_OP_ADD;
  VkBlendFactor srcAlpha = VK_BLEND_FACTOR_ONE;
  VkBlendFactor dstAlpha = VK_BLEND_FACTOR_ZERO;
  VkBlendOp alphaOp = VK_BLEND_OP_ADD;
  /// VkColorComponentFlags.
  uint32_t writeMask = 0xf;
};

/// Everything a draw needs besides the shaders and the resources.
struct GraphicsState {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  bool primitiveRestart = false;
  /// PATCH_LIST: the vertices of each patch.
  uint32_t patchControlPoints = 3;
  /// VkPipelineTessellationDomainOriginStateCreateInfo: with the origin at
  /// the lower left, VertexOrderCw and VertexOrderCcw swap meanings in the
  /// upper-left domain the tessellator works in.
  VkTessellationDomainOrigin tessellationDomainOrigin =
      VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT;
  /// Unset: the whole framebuffer, depth 0 to 1.
  std::optional<VkViewport> viewport;
  /// Unset: the whole framebuffer.
  std::optional<VkRect2D> scissor;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool depthClamp = false;
  /// VK_EXT_depth_range_unrestricted: a float depth attachment keeps
  /// depths outside [0, 1]. Otherwise every fragment depth is clamped to
  /// [0, 1] before the depth test: what depthClampZeroOne requires, and one
  /// of the values the specification allows without it.
  bool depthRangeUnrestricted = false;
  bool rasterizerDiscard = false;
  bool depthBias = false;
  float depthBiasConstant = 0, depthBiasClamp = 0, depthBiasSlope = 0;
  float lineWidth = 1;
  bool depthTest = false;
  bool depthWrite = false;
  VkCompareOp depthCompare = VK_COMPARE_OP_LESS;
  bool depthBoundsTest = false;
  float minDepthBounds = 0, maxDepthBounds = 1;
  bool stencilTest = false;
  StencilState front, back;
  std::array<float, 4> blendConstants = {0, 0, 0, 0};
  /// Per colour attachment (by Location); missing entries: blending off,
  /// every component written.
  std::vector<BlendState> blend;
  /// A logic operation turns blending off on every attachment and combines
  /// the encodings bit by bit on UNORM, SNORM, UINT and SINT ones (float
  /// and sRGB ones take the colour as it is).
  bool logicOpEnable = false;
  VkLogicOp logicOp = VK_LOGIC_OP_COPY;
  /// Sample shading (VkPipelineMultisampleStateCreateInfo): the fragment
  /// shader runs once per covered sample when minSampleShading x samples
  /// exceeds 1, or when it reads SampleId or SamplePosition.
  bool sampleShading = false;
  float minSampleShading = 0;
  /// pSampleMask: samples whose bit is clear are never covered.
  uint32_t sampleMask = ~0u;
};

/// An image drawn into: tightly packed rows of `format` texels, each with
/// `samples` (1 or 4) adjacent samples.
struct Attachment {
  uint8_t *data = nullptr;
  const VulkanFormat *format = nullptr;
  uint32_t width = 0, height = 0;
  uint32_t samples = 1;

  uint8_t *at(uint32_t x, uint32_t y, uint32_t sample = 0) const {
    return data +
           ((uint64_t(y) * width + x) * samples + sample) * format->texelBytes;
  }
};

/// Colour attachments by Location (an unset one is not written), the
/// depth/stencil attachment, and the single-sample images multisampled
/// colour attachments resolve into (by Location) at the end of a draw.
struct RenderTarget {
  uint32_t width = 0, height = 0;
  std::vector<Attachment> colors;
  std::optional<Attachment> depthStencil;
  std::vector<Attachment> resolves;
  /// The sample count of a draw without attachments (1 or 4).
  uint32_t attachmentlessSamples = 1;

  /// The attachments' common sample count (attachmentlessSamples without
  /// attachments), or an error naming the two that differ.
  llvm::Expected<uint32_t> getSamples() const;
};

/// Averages the samples of `from` into single-sample `to` over the
/// framebuffer (integer formats take sample 0), as a render pass's resolve
/// does.
void resolveAttachment(const Attachment &from, const Attachment &to,
                       uint32_t width, uint32_t height);
/// Resolves every colour attachment that has a resolve attachment.
void resolveAttachments(const RenderTarget &target);

/// A vertex attribute: where Location `location`'s data is.
struct VertexAttribute {
  uint32_t location = 0;
  const uint8_t *data = nullptr;
  uint64_t size = 0; ///< bytes at data (fetches past it read zero)
  const VulkanFormat *format = nullptr;
  uint32_t offset = 0;
  uint32_t stride = 0;
  bool perInstance = false;
};

struct DrawCall {
  uint32_t vertexCount = 0; ///< or index count when indices is set
  uint32_t instanceCount = 1;
  uint32_t firstVertex = 0; ///< or first index
  uint32_t firstInstance = 0;
  int32_t vertexOffset = 0; ///< added to each index
  /// Indexed draws: the index buffer and its element size (1, 2 or 4).
  const uint8_t *indices = nullptr;
  uint64_t indexBytes = 0;
  unsigned indexSize = 4;
};

/// A geometry shader's execution modes.
struct GeometryShape {
  /// The input primitive's vertices: 1, 2, 4 (lines with adjacency), 3 or
  /// 6 (triangles with adjacency).
  uint32_t inputVertices = 3;
  /// POINT_LIST, LINE_STRIP or TRIANGLE_STRIP.
  VkPrimitiveTopology output = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  /// OutputVertices: each invocation emits at most this many.
  uint32_t maxVertices = 0;
  uint32_t invocations = 1;
};

/// maxTessellationPatchSize: a patch's most control points.
inline constexpr uint32_t kMaxPatchVertices = 32;

enum class TessellationDomain { Triangles, Quads, Isolines };
enum class TessellationSpacing { Equal, FractionalEven, FractionalOdd };

/// The tessellation execution modes of a pipeline's two tessellation
/// shaders, merged (either may declare each).
struct TessellationMode {
  TessellationDomain domain = TessellationDomain::Triangles;
  TessellationSpacing spacing = TessellationSpacing::Equal;
  /// VertexOrderCw: triangles run clockwise in the domain with its origin
  /// at the upper left (VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT).
  bool clockwise = false;
  bool pointMode = false;
  /// OutputVertices: the control shader's invocations per patch.
  uint32_t outputVertices = 0;
};

/// A compiled kernel of one stage with its bound resources; a draw
/// without a fragment shader has a null fragment entry.
struct StageKernel {
  const KernelEntry *entry = nullptr;
  llvm::ArrayRef<spvb_stage_variable> variables;
  const DispatchResources *resources = nullptr;
  /// Fragment shaders with EarlyFragmentTests: the depth and stencil tests
  /// (and their writes) come before the shader, a failing fragment runs as
  /// a helper only, and gl_FragDepth is ignored.
  bool earlyFragmentTests = false;
  /// Whether the shader may call InterpolateAt* (the InterpolationFunction
  /// capability): fragment batches then keep each quad's triangle.
  bool interpolatesAtPoints = true;
  /// Geometry shaders.
  GeometryShape geometry;
  /// Tessellation shaders: the pipeline's tessellation modes.
  TessellationMode tessellation;
};

/// --debug-pixel: the fragment invocations that cover pixel (x, y) run
/// through `fragment`, the invocation entry of a debug build of the
/// fragment shader (the same ABI and layouts), each in a thread named
/// "pixel X,Y" while it runs; the rest of the draw runs optimized. With
/// debug builds of the other stages, the invocations behind the primitives
/// that cover the pixel run again through them before any fragment is
/// shaded, each in a thread named for it: the vertices ("vertex N", "vertex
/// N/I" for instance I), each patch's control shader workgroup ("tesc P/J"
/// for its invocation J) and its evaluation shader invocations ("tese P/V",
/// its tessellated vertex V), and the geometry shader invocations
/// ("primitive N", "prim N inv J"). Their outputs are the same, but their
/// stores and atomics happen twice.
struct DebugPixel {
  uint32_t x = 0, y = 0;
  spvb_entry_fn fragment = nullptr;
  spvb_entry_fn vertex = nullptr;
  spvb_entry_fn tessControl = nullptr;
  spvb_entry_fn tessEvaluation = nullptr;
  spvb_entry_fn geometry = nullptr;
};

/// The shaders of a graphics pipeline: a vertex and a fragment shader
/// (whose entry may be null), and optionally a tessellation control and
/// evaluation pair and a geometry shader.
struct PipelineStages {
  const StageKernel *vertex = nullptr;
  const StageKernel *tessControl = nullptr;
  const StageKernel *tessEvaluation = nullptr;
  const StageKernel *geometry = nullptr;
  const StageKernel *fragment = nullptr;
  /// Optional.
  const DebugPixel *debugPixel = nullptr;
};

/// What a draw did, for tools to report.
struct DrawStatistics {
  uint64_t vertexInvocations = 0;
  uint64_t tessControlInvocations = 0;
  uint64_t tessEvaluationInvocations = 0;
  uint64_t geometryInvocations = 0;
  uint64_t primitives = 0;
  uint64_t fragmentInvocations = 0; ///< helpers included
  /// Samples that passed the fragment tests and were not discarded by the
  /// shader or its SampleMask output (occlusion queries).
  uint64_t samplesPassed = 0;
};

/// Runs one draw of `stages` into `target`. Errors name what is wrong (a
/// vertex input without an attribute, a fault in a shader, ...).
llvm::Expected<DrawStatistics>
draw(Launcher &launcher, const GraphicsState &state,
     llvm::ArrayRef<VertexAttribute> attributes, const DrawCall &call,
     const PipelineStages &stages, RenderTarget &target);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_GRAPHICSPIPELINE_H
