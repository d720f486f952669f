//===- DrawRun.h - spv-run's draws ------------------------------*- C++ -*-===//
//
// `spv-run shader.frag --framebuffer WxH[:FORMAT]` draws a fragment shader
// over the whole framebuffer (FullScreenVertexShader.h), and `spv-run
// shader.vert shader.frag --framebuffer ...` a vertex shader's primitives
// (DrawArguments.h), on the CPU (bridge/Draw.h), on the Vulkan driver
// (VulkanDraw.h) or on both with every attachment compared texel by texel
// (--compare). Each output Location of the fragment shader gets a colour
// attachment: float outputs in the --framebuffer format, integer ones in
// R32G32B32A32_SINT or _UINT; all are cleared to zero before each draw.
// Resources (--buffer, --image, --sampler, --push) bind as for compute and
// are visible to both stages.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_DRAWRUN_H
#define SPVBRIDGE_TOOLS_SPV_RUN_DRAWRUN_H

#include "DrawArguments.h"
#include "HostJob.h"
#include "spvbridge/vulkan/BufferCompare.h"

#include "spvbridge/bridge/Compiler.h"
#include "spvbridge/bridge/DeviceLimits.h"

#include <optional>
#include <string>
#include <vector>

namespace spvb::run {

struct DrawOptions {
  /// The fragment shader; or a vertex shader, optional tessellation
  /// control and evaluation and geometry shaders, and a fragment shader.
  std::vector<std::string> shaderPaths;
  FramebufferArgument framebuffer;
  std::vector<AttachmentFileArgument> pngs;
  /// --attachment-out.
  std::vector<AttachmentFileArgument> attachmentOutputs;
  std::vector<VertexDataArgument> vertexData;
  std::optional<IndexDataArgument> indices;
  /// Unset: triangle_list, or patch_list with tessellation shaders.
  std::optional<VkPrimitiveTopology> topology;
  /// patch_list: the control points of each patch.
  uint32_t patchControlPoints = 3;
  /// --tessellation-domain-origin lower-left.
  bool lowerLeftDomainOrigin = false;
  /// --debug-pixel: the pixel whose fragments run through a debug build.
  std::optional<std::array<uint32_t, 2>> debugPixel;
  std::optional<uint32_t> vertices;
  uint32_t instances = 1;
  /// Samples per pixel (1 or 4): multisampled attachments, resolved.
  uint32_t samples = 1;
  uint32_t repeat = 10;
  /// 0: every hardware thread.
  unsigned threads = 0;
  /// --subgroup-size; unset: 32, or the Vulkan device's with --compare.
  std::optional<uint32_t> subgroupSize;
  double timeoutSeconds = 60;
  DeviceLimits limits;
  bool json = false;
  bool cpu = true;
  bool vulkan = false;
  std::optional<uint32_t> device;
  vulkan::Tolerance tolerance;
};

/// Runs the draw(s) and prints the report (text or --json) on stdout.
/// Returns the exit status: 0, or 1 when --compare finds a difference.
/// Errors: the front end's, DrawArguments.h's, checkResources', the CPU
/// draw's and VulkanDraw.h's, and
///   error: PATH: entry point 'E' is a STAGE shader, not a STAGE shader;
///          --framebuffer draws a fragment shader, or a vertex shader,
///          then optional tessellation control and evaluation shaders and
///          a geometry shader, then a fragment shader
///   error: --png|--attachment-out 'ARG': the fragment shader has no output
///          at Location L
///   error: --vertex-data: the full-screen rectangle of a fragment shader
///          alone takes no vertex data; give a vertex shader first
///   error: --vertices N is needed: no --vertex-data or --index-data says
///          how many vertices to draw
///   error: the draw did not finish in S s (--timeout; 0 waits forever)
llvm::Expected<int> runDrawCommand(const DrawOptions &options, HostJob &job,
                                   const CompileOptions &compile);

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_DRAWRUN_H
