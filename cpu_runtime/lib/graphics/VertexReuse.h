//===- VertexReuse.h - Each vertex of an indexed draw shaded once -*- C++
//-*-===//
//
// Vulkan leaves how often the vertex shader runs for a vertex to the
// implementation (Shaders, "Vertex Shaders": it may run once per index
// value); lavapipe and every GPU reuse shaded vertices, and a mesh's
// indices name each vertex about six times.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_VERTEXREUSE_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_VERTEXREUSE_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace spvb::runtime {

struct VertexReuse {
  /// The vertex index of each shaded vertex, in order of first use.
  std::vector<uint32_t> shaded;
  /// For each position of the draw, its shaded vertex.
  std::vector<uint32_t> slots;

  /// Shades each distinct value of `indices` once, except at the
  /// positions in `restarts` (ascending), which name no vertex (their slot
  /// is 0 and never read).
  static VertexReuse deduplicate(llvm::ArrayRef<uint32_t> indices,
                                 llvm::ArrayRef<uint32_t> restarts);
  /// Shades every position (non-indexed draws, whose indices differ).
  static VertexReuse identity(llvm::ArrayRef<uint32_t> indices);
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_VERTEXREUSE_H
