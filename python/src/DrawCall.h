//===- DrawCall.h - spvbridge.draw ------------------------------*- C++ -*-===//
//
// One draw of a fragment shader (over the whole framebuffer, as spv-run
// shader.frag --framebuffer draws it) or of a vertex and a fragment shader
// with vertex arrays from Python, into cleared colour attachments; returns
// the texels of one attachment.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_PYTHON_DRAWCALL_H
#define SPVBRIDGE_PYTHON_DRAWCALL_H

#include "ShaderKernel.h"

namespace spvb::python {

struct VertexInput {
  uint32_t location = 0;
  pybind11::object data;
  /// A VkFormat name without VK_FORMAT_ (R32G32_SFLOAT, ...).
  std::string format;
};

struct DrawRequest {
  std::shared_ptr<ShaderKernel> fragment;
  /// None: the full-screen rectangle.
  std::shared_ptr<ShaderKernel> vertex;
  /// Optional: a tessellation pair (both or neither), a geometry shader.
  std::shared_ptr<ShaderKernel> tessControl, tessEvaluation, geometry;
  uint32_t patchControlPoints = 3;
  uint32_t width = 0, height = 0;
  /// The format of float outputs' attachments.
  std::string format = "R8G8B8A8_UNORM";
  std::vector<VertexInput> vertices;
  std::optional<pybind11::object> indices;
  unsigned indexSize = 4;
  std::string topology = "triangle_list";
  std::optional<uint32_t> count;
  uint32_t instances = 1;
  /// The output Location whose attachment is returned.
  uint32_t location = 0;
  /// Samples per texel (1 or 4); multisampled attachments are resolved.
  uint32_t samples = 1;
  /// debug_pixel=(x, y): the pixel's fragment and vertex invocations run
  /// through debug builds (Draw::setDebugPixel).
  std::optional<std::array<uint32_t, 2>> debugPixel;
  /// Resources, push constants, threads, checks and timeout, as for a
  /// dispatch.
  DispatchRequest resources;
};

/// Draws; returns {texels (bytearray), width, height, format, components,
/// texel_bytes, kind, draw_ms, primitives, fragment_invocations, printf}.
pybind11::dict runDraw(const DrawRequest &request);

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_DRAWCALL_H
