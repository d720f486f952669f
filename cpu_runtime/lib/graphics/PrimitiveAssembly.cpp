//===- PrimitiveAssembly.cpp - Vertices to primitives ---------------------===//
#include "PrimitiveAssembly.h"

#include <algorithm>

using namespace spvb::runtime;

/// The primitives of one run of vertices without restarts: the shaded
/// vertices [first, first + n).
static void assembleRun(VkPrimitiveTopology topology, uint32_t first,
                        uint32_t n, uint32_t &nextId,
                        std::vector<Primitive> &out) {
  auto v = [first](uint32_t i) { return first + i; };
  auto add = [&](std::initializer_list<uint32_t> vertices) {
    Primitive &primitive = out.emplace_back();
    std::copy(vertices.begin(), vertices.end(), primitive.vertices);
    primitive.vertexCount = vertices.size();
    primitive.id = nextId++;
  };
  switch (topology) {
  case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
    for (uint32_t i = 0; i < n; ++i)
      add({v(i)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    for (uint32_t i = 0; i + 1 < n; i += 2)
      add({v(i), v(i + 1)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    for (uint32_t i = 0; i + 1 < n; ++i)
      add({v(i), v(i + 1)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    // A run after a restart starts its own triangles: they are not the
    // draw's triangles of the same numbers (getListTriangle).
    for (uint32_t i = 0; i + 2 < n; i += 3)
      add({v(i), v(i + 1), v(i + 2)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    for (uint32_t i = 0; i + 2 < n; ++i)
      add({v(i), v(i + 1 + i % 2), v(i + 2 - i % 2)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
    for (uint32_t i = 0; i + 2 < n; ++i)
      add({v(i + 1), v(i + 2), v(0)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    for (uint32_t i = 0; i + 3 < n; i += 4)
      add({v(i + 1), v(i + 2)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
    for (uint32_t i = 1; i + 2 < n; ++i)
      add({v(i), v(i + 1)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    for (uint32_t i = 0; i + 5 < n; i += 6)
      add({v(i), v(i + 2), v(i + 4)});
    break;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
    // The main triangles are those of a strip over the even vertices.
    for (uint32_t i = 0; 2 * i + 4 < n; ++i)
      add({v(2 * i), v(2 * (i + 1 + i % 2)), v(2 * (i + 2 - i % 2))});
    break;
  default:
    break;
  }
}

void spvb::runtime::assemblePrimitives(VkPrimitiveTopology topology,
                                       uint32_t first, uint32_t count,
                                       llvm::ArrayRef<uint32_t> restarts,
                                       std::vector<Primitive> &primitives) {
  // Runs between restarts are contiguous.
  uint32_t nextId = 0, start = first;
  for (uint32_t restart : restarts) {
    assembleRun(topology, start, restart - start, nextId, primitives);
    start = restart + 1;
  }
  assembleRun(topology, start, first + count - start, nextId, primitives);
}
