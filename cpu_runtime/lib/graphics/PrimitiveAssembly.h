//===- PrimitiveAssembly.h - Vertices to primitives -------------*- C++ -*-===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_PRIMITIVEASSEMBLY_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_PRIMITIVEASSEMBLY_H

#include "llvm/ADT/ArrayRef.h"

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

namespace spvb::runtime {

/// A point, line or triangle: positions in the shaded-vertex array, the
/// provoking vertex first (VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT, the
/// default).
struct Primitive {
  uint32_t vertices[3] = {0, 0, 0};
  unsigned vertexCount = 0;
  /// gl_PrimitiveID: its number in the instance.
  uint32_t id = 0;
};

/// The primitives of one instance whose shaded vertices are
/// [first, first + count), with restarts (primitive restart) before the
/// positions in `restarts` (ascending, each in [first, first + count)), by
/// the specification's "Primitive Topologies": strips p_i = {v_i,
/// v_(i+1+i%2), v_(i+2-i%2)}, fans {v_(i+1), v_(i+2), v_0}; adjacency
/// topologies give their main primitives. Patch lists give nothing.
void assemblePrimitives(VkPrimitiveTopology topology, uint32_t first,
                        uint32_t count, llvm::ArrayRef<uint32_t> restarts,
                        std::vector<Primitive> &primitives);

/// Triangle `index` of a triangle list without restarts over shaded
/// vertices from 0, as assemblePrimitives makes it: a draw computes these
/// where it reads them instead of storing them all first.
inline Primitive getListTriangle(uint32_t index) {
  Primitive triangle;
  triangle.vertices[0] = 3 * index;
  triangle.vertices[1] = 3 * index + 1;
  triangle.vertices[2] = 3 * index + 2;
  triangle.vertexCount = 3;
  triangle.id = index;
  return triangle;
}

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_PRIMITIVEASSEMBLY_H
