//===- PrimitiveAssemblyTest.cpp - Vertices to primitives -----------------===//
//
// Primitive assembly with restarts, and the primitives a geometry shader
// reads, against the specification's "Primitive Topologies" (the strips
// with adjacency as OpenGL 4.6's Table 10.1 lists them).
//
//===----------------------------------------------------------------------===//
#include "graphics/PrimitiveAssembly.h"
#include "graphics/GeometryStage.h"

#include "gtest/gtest.h"

#include <vector>

using namespace spvb::runtime;

namespace {

std::vector<std::vector<uint32_t>>
verticesOf(const std::vector<Primitive> &primitives) {
  std::vector<std::vector<uint32_t>> result;
  for (const Primitive &primitive : primitives)
    result.emplace_back(primitive.vertices,
                        primitive.vertices + primitive.vertexCount);
  return result;
}

std::vector<std::vector<uint32_t>>
verticesOf(const std::vector<GeometryInput> &inputs, unsigned count) {
  std::vector<std::vector<uint32_t>> result;
  for (const GeometryInput &input : inputs)
    result.emplace_back(input.records.begin(), input.records.begin() + count);
  return result;
}

TEST(PrimitiveAssembly, TriangleListRestartsItsTriangles) {
  // 0 1 2 R 3 4 5 at positions 0..6: the run after the restart (positions
  // 4, 5, 6) is a triangle of its own; ids count on.
  std::vector<Primitive> primitives;
  assemblePrimitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 0, 7, {3},
                     primitives);
  EXPECT_EQ(verticesOf(primitives),
            (std::vector<std::vector<uint32_t>>{{0, 1, 2}, {4, 5, 6}}));
  ASSERT_EQ(primitives.size(), 2u);
  EXPECT_EQ(primitives[1].id, 1u);
}

TEST(PrimitiveAssembly, LineListRestartDropsAnIncompleteLine) {
  // 0 1 2 R 3 4: the lone 2 before the restart makes no line.
  std::vector<Primitive> primitives;
  assemblePrimitives(VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 0, 6, {3}, primitives);
  EXPECT_EQ(verticesOf(primitives),
            (std::vector<std::vector<uint32_t>>{{0, 1}, {4, 5}}));
}

TEST(GeometryInputs, AdjacencyListsKeepEveryVertex) {
  std::vector<GeometryInput> inputs;
  assembleGeometryInputs(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 12,
                         {}, inputs);
  EXPECT_EQ(verticesOf(inputs, 6),
            (std::vector<std::vector<uint32_t>>{{0, 1, 2, 3, 4, 5},
                                                {6, 7, 8, 9, 10, 11}}));
  inputs.clear();
  assembleGeometryInputs(VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY, 5, {},
                         inputs);
  EXPECT_EQ(verticesOf(inputs, 4),
            (std::vector<std::vector<uint32_t>>{{0, 1, 2, 3}, {1, 2, 3, 4}}));
}

TEST(GeometryInputs, TriangleStripWithAdjacencyFollowsTheTable) {
  // Vertices (1st, adjacent 1-2, 2nd, adjacent 2-3, 3rd, adjacent 3-1).
  // One triangle (6 vertices): 0 1 2 5 4 3.
  std::vector<GeometryInput> inputs;
  assembleGeometryInputs(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 6,
                         {}, inputs);
  EXPECT_EQ(verticesOf(inputs, 6),
            (std::vector<std::vector<uint32_t>>{{0, 1, 2, 5, 4, 3}}));
  // Four triangles (12 vertices): first 0 1 2 6 4 3; middle odd (i = 1)
  // 2i+2, 2i-2, 2i, 2i+3, 2i+4, 2i+6; middle even (i = 2) 2i, 2i-2, 2i+2,
  // 2i+6, 2i+4, 2i+3; last odd (i = 3) 2i+2, 2i-2, 2i, 2i+3, 2i+4, 2i+5.
  inputs.clear();
  assembleGeometryInputs(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY,
                         12, {}, inputs);
  EXPECT_EQ(verticesOf(inputs, 6),
            (std::vector<std::vector<uint32_t>>{{0, 1, 2, 6, 4, 3},
                                                {4, 0, 2, 5, 6, 8},
                                                {4, 2, 6, 10, 8, 7},
                                                {8, 4, 6, 9, 10, 11}}));
  // Ids count every primitive of the draw.
  EXPECT_EQ(inputs[3].id, 3u);
}

} // namespace
