//===- Tessellator.h - The fixed-function tessellator -----------*- C++ -*-===//
//
// The specification's "Tessellator": one patch's outer and inner levels
// become the (u, v, w) coordinates of its vertices and the triangles,
// lines or points over them, by the rules the specification fixes (level
// clamping and rounding per spacing, the 1 + epsilon rule, concentric
// rings, the lines of an isoline patch). Where it leaves the choice to the
// implementation we take the plainest one and say so: the two short
// segments of a fractional edge sit symmetrically around its middle, the
// region between two rings is stitched by walking both edges in order,
// and the inside of a quad's first ring is a grid over the same vertices.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_TESSELLATOR_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_TESSELLATOR_H

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include <array>
#include <cstdint>
#include <vector>

namespace spvb::runtime {

/// One patch's tessellation: coordinates of its vertices ((u, v, 0) for
/// quads and isolines) and its primitives, `verticesPerPrimitive` indices
/// each.
struct Tessellation {
  std::vector<std::array<float, 3>> coordinates;
  std::vector<uint32_t> indices;
  unsigned verticesPerPrimitive = 3;
};

/// maxTessellationGenerationLevel.
inline constexpr float kMaxTessellationLevel = 64;

/// Tessellates one patch into `result` (cleared first). Returns false when
/// the patch is discarded: a relevant outer level is zero, negative or NaN.
bool tessellate(const TessellationMode &mode, const float outer[4],
                const float inner[2], Tessellation &result);

/// The points of an edge of level `level` under `spacing` (clamped and
/// rounded to n segments): n + 1 ascending positions from 0 to 1.
std::vector<float> subdivideEdge(TessellationSpacing spacing, float level);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_TESSELLATOR_H
