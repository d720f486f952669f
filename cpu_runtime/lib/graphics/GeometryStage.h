//===- GeometryStage.h - Primitives through a geometry shader ---*- C++ -*-===//
//
// The specification's "Geometry Shading": each input primitive (with its
// adjacent vertices) runs the geometry shader Invocations times; each
// invocation's OpEmitVertex appends its output variables as a vertex and
// OpEndPrimitive ends a strip (GeometryPatterns.cpp compiles both into the
// shader: each invocation emits into room of its own). The emitted strips
// become the points, lines or triangles the rasterizer draws, in input
// primitive order and, within one, in invocation order.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_GEOMETRYSTAGE_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_GEOMETRYSTAGE_H

#include "PrimitiveAssembly.h"
#include "StageRecords.h"
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include <array>
#include <string>
#include <vector>

namespace spvb::runtime {

/// A geometry shader's input primitive: the vertex output records of its
/// vertices, in the order the shader sees them (adjacent vertices
/// included), and its gl_PrimitiveIDIn.
struct GeometryInput {
  std::array<uint32_t, 6> records{};
  uint32_t id = 0;
};

/// The vertices of `topology`'s primitives as a geometry shader sees them
/// (adjacency ones with their adjacent vertices); 0 for patches.
uint32_t getTopologyVertices(VkPrimitiveTopology topology);

/// The input primitives of one instance over vertex positions [0, count),
/// with restarts before the positions in `restarts`: lists and strips by
/// the specification's "Primitive Topologies", adjacency ones with their
/// adjacent vertices (vertices 1, 3 and 5 of a triangle). Positions go into
/// `records`; the caller maps them to shaded vertices.
void assembleGeometryInputs(VkPrimitiveTopology topology, uint32_t count,
                            llvm::ArrayRef<uint32_t> restarts,
                            std::vector<GeometryInput> &inputs);

/// What the geometry shader emitted: its output records (one per emitted
/// vertex) and the primitives over them.
struct GeometryOutput {
  StageRecords records{0, 0};
  uint64_t vertexCount = 0;
  std::vector<Primitive> primitives;
  /// For each primitive, the invocation that emitted it: input primitive
  /// i / Invocations, gl_InvocationID i % Invocations.
  std::vector<uint32_t> primitiveInvocations;
};

/// Runs `geometry` over `inputs`, whose records are `vertex`'s outputs;
/// inputs take the vertex outputs of their Location and builtin. `result`
/// is overwritten in the memory it has (a thread's, kept from one draw to
/// the next, costs no page faults).
llvm::Error runGeometryStage(Launcher &launcher, const StageKernel &vertex,
                             const StageRecords &vertexOutputs,
                             const StageKernel &geometry,
                             llvm::ArrayRef<GeometryInput> inputs,
                             GeometryOutput &result);

/// --debug-pixel: reruns invocation `invocation` (as primitiveInvocations
/// counts) of `geometry` over `inputs` through `debugEntry`, a debug
/// build's invocation entry, alone on a thread named `threadName`; what it
/// emits is dropped (the first run's is drawn).
llvm::Error rerunGeometryInvocation(
    Launcher &launcher, spvb_entry_fn debugEntry, const StageKernel &vertex,
    const StageRecords &vertexOutputs, const StageKernel &geometry,
    llvm::ArrayRef<GeometryInput> inputs, uint32_t invocation,
    const std::string &threadName);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_GEOMETRYSTAGE_H
