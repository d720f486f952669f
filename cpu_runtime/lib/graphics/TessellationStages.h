//===- TessellationStages.h - Patches through tessellation ------*- C++ -*-===//
//
// The specification's "Tessellation": each patch's control points run the
// tessellation control shader (a workgroup of OutputVertices invocations
// sharing the patch's records, so gl_out[] and barrier() work as they do
// on a GPU); the tessellator subdivides the patch by the levels it wrote;
// each tessellated vertex runs the tessellation evaluation shader, whose
// outputs and the tessellator's primitives go on to the geometry shader or
// the rasterizer. Patches go through in batches, which bounds the memory
// their records take (a patch's input record holds gl_MaxPatchVertices
// vertices).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_TESSELLATIONSTAGES_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_TESSELLATIONSTAGES_H

#include "PrimitiveAssembly.h"
#include "StageRecords.h"
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include <vector>

namespace spvb::runtime {

/// What the tessellation stages produced: the evaluation shader's output
/// records (one per tessellated vertex) and the primitives over them,
/// which carry their patch's gl_PrimitiveID.
struct TessellationOutput {
  explicit TessellationOutput(uint64_t recordSize) : records(recordSize, 0) {}
  StageRecords records;
  uint64_t vertexCount = 0;
  std::vector<Primitive> primitives;
  /// 1, 2 or 3: points (point mode), isolines' lines or triangles.
  unsigned verticesPerPrimitive = 3;
  uint64_t controlInvocations = 0;
  uint64_t evaluationInvocations = 0;
  /// Patch p's tessellated vertices are records [patchFirstVertex[p],
  /// patchFirstVertex[p + 1]).
  std::vector<uint64_t> patchFirstVertex;
};

/// A draw's patches and the stages they go through: patch p's control
/// points are the records controlPoints[p * patchVertices + i] of
/// `vertexOutputs` (`vertex`'s outputs), its gl_PrimitiveID patchIds[p].
/// `lowerLeftOrigin`: the domain's origin is at its lower left
/// (VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT), which reverses the winding.
struct TessellationInputs {
  const StageKernel &vertex;
  const StageRecords &vertexOutputs;
  const StageKernel &control;
  const StageKernel &evaluation;
  llvm::ArrayRef<uint32_t> controlPoints;
  llvm::ArrayRef<uint32_t> patchIds;
  uint32_t patchVertices = 0;
  bool lowerLeftOrigin = false;
};

/// Runs the control and evaluation shaders over the patches.
llvm::Expected<TessellationOutput>
runTessellationStages(Launcher &launcher, const TessellationInputs &patches);

/// --debug-pixel: reruns patch `patch`: its control shader workgroup
/// through `pixel.tessControl` (the optimized build without one), each
/// invocation J on a thread named "tesc P/J" for gl_PrimitiveID P, then
/// its tessellated vertices `vertices` (indices among the patch's)
/// through `pixel.tessEvaluation`, each alone on a thread named "tese P/V".
/// What they output is dropped: the first run's is drawn.
llvm::Error rerunPatch(Launcher &launcher, const TessellationInputs &patches,
                       const DebugPixel &pixel, uint64_t patch,
                       llvm::ArrayRef<uint64_t> vertices);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_TESSELLATIONSTAGES_H
