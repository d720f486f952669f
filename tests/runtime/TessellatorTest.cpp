//===- TessellatorTest.cpp - The fixed-function tessellator ---------------===//
//
// Edge subdivision and patch tessellation against values derived by hand
// from the specification's "Tessellator" chapter: level clamping and
// rounding, the segment lengths of fractional spacing, the single
// primitive of all-one levels, the 1 + epsilon rule, vertex and triangle
// counts of concentric rings, isolines, point mode, discarded patches, and
// that the triangles tile the domain exactly (their areas sum to its area)
// in the winding asked for.
//
//===----------------------------------------------------------------------===//
#include "graphics/Tessellator.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace spvb::runtime;

namespace {

TessellationMode
makeMode(TessellationDomain domain,
         TessellationSpacing spacing = TessellationSpacing::Equal,
         bool clockwise = false) {
  TessellationMode mode;
  mode.domain = domain;
  mode.spacing = spacing;
  mode.clockwise = clockwise;
  return mode;
}

Tessellation run(const TessellationMode &mode, std::array<float, 4> outer,
                 std::array<float, 2> inner) {
  Tessellation result;
  EXPECT_TRUE(tessellate(mode, outer.data(), inner.data(), result));
  return result;
}

/// Signed (u, v) areas of the triangles: positive is clockwise with v
/// pointing down.
std::vector<double> signedAreas(const Tessellation &t) {
  std::vector<double> areas;
  for (size_t i = 0; i + 2 < t.indices.size(); i += 3) {
    const auto &a = t.coordinates[t.indices[i]];
    const auto &b = t.coordinates[t.indices[i + 1]];
    const auto &c = t.coordinates[t.indices[i + 2]];
    areas.push_back(0.5 * ((double(b[0]) - a[0]) * (double(c[1]) - a[1]) -
                           (double(b[1]) - a[1]) * (double(c[0]) - a[0])));
  }
  return areas;
}

/// Every triangle winds one way (degenerate ones aside) and together they
/// cover `area`: no gaps, no overlaps.
void expectTiles(const Tessellation &t, double area, bool clockwise) {
  double total = 0;
  for (double a : signedAreas(t)) {
    // Slivers of the 1 + epsilon rule's rings may round either way.
    if (std::fabs(a) > 1e-7) {
      EXPECT_EQ(a > 0, clockwise) << a;
    }
    total += std::fabs(a);
  }
  EXPECT_NEAR(total, area, 1e-5);
}

TEST(Tessellator, EdgesClampAndRoundPerSpacing) {
  EXPECT_EQ(subdivideEdge(TessellationSpacing::Equal, 2.2f).size(), 4u);
  EXPECT_EQ(subdivideEdge(TessellationSpacing::Equal, 0.3f).size(), 2u);
  EXPECT_EQ(subdivideEdge(TessellationSpacing::Equal, 100).size(), 65u);
  EXPECT_EQ(subdivideEdge(TessellationSpacing::Equal, NAN).size(), 2u);
  EXPECT_EQ(subdivideEdge(TessellationSpacing::FractionalEven, 0.5f).size(),
            3u);
  EXPECT_EQ(subdivideEdge(TessellationSpacing::FractionalEven, 2.1f).size(),
            5u);
  EXPECT_EQ(subdivideEdge(TessellationSpacing::FractionalOdd, 1.5f).size(), 4u);
  // Odd levels stop at 63.
  EXPECT_EQ(subdivideEdge(TessellationSpacing::FractionalOdd, 64).size(), 64u);
}

TEST(Tessellator, FractionalEdgesHaveTwoShortSegmentsSymmetrically) {
  // Odd 2.5: three segments, one of 1/2.5 and two of 0.75/2.5.
  std::vector<float> odd =
      subdivideEdge(TessellationSpacing::FractionalOdd, 2.5f);
  ASSERT_EQ(odd.size(), 4u);
  EXPECT_FLOAT_EQ(odd[1], 0.3f);
  EXPECT_FLOAT_EQ(odd[2], 0.7f);
  // Even 3: four segments 1/3, 1/6, 1/6, 1/3 (the short pair mid-edge).
  std::vector<float> even =
      subdivideEdge(TessellationSpacing::FractionalEven, 3);
  ASSERT_EQ(even.size(), 5u);
  EXPECT_FLOAT_EQ(even[1], 1.0f / 3);
  EXPECT_FLOAT_EQ(even[2], 0.5f);
  EXPECT_FLOAT_EQ(even[3], 2.0f / 3);
  EXPECT_FLOAT_EQ(even[4], 1);
  // A fractional level at an integer of its parity is equal spacing.
  std::vector<float> exact =
      subdivideEdge(TessellationSpacing::FractionalOdd, 5);
  for (unsigned i = 0; i <= 5; ++i)
    EXPECT_FLOAT_EQ(exact[i], float(i) / 5);
}

TEST(Tessellator, AllOneLevelsGiveOnePrimitive) {
  Tessellation triangle =
      run(makeMode(TessellationDomain::Triangles), {1, 1, 1, 0}, {1, 0});
  EXPECT_EQ(triangle.coordinates.size(), 3u);
  EXPECT_EQ(triangle.indices.size(), 3u);
  std::set<std::array<float, 3>> corners(triangle.coordinates.begin(),
                                         triangle.coordinates.end());
  EXPECT_EQ(corners,
            (std::set<std::array<float, 3>>{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
  Tessellation quad =
      run(makeMode(TessellationDomain::Quads), {1, 1, 1, 1}, {1, 1});
  EXPECT_EQ(quad.coordinates.size(), 4u);
  EXPECT_EQ(quad.indices.size(), 6u);
  expectTiles(quad, 1, false);
}

TEST(Tessellator, TriangleRings) {
  // Level 2: six outer vertices fanned to the centre.
  Tessellation two =
      run(makeMode(TessellationDomain::Triangles), {2, 2, 2, 0}, {2, 0});
  EXPECT_EQ(two.coordinates.size(), 7u);
  EXPECT_EQ(two.indices.size() / 3, 6u);
  EXPECT_NE(std::find(two.coordinates.begin(), two.coordinates.end(),
                      std::array<float, 3>{1.0f / 3, 1.0f / 3, 1.0f / 3}),
            two.coordinates.end());
  // Level 3: nine outer vertices, an inner triangle; 4 triangles per side
  // between them and the inner one.
  Tessellation three =
      run(makeMode(TessellationDomain::Triangles), {3, 3, 3, 0}, {3, 0});
  EXPECT_EQ(three.coordinates.size(), 12u);
  EXPECT_EQ(three.indices.size() / 3, 13u);
  expectTiles(three, 0.5, false);
  // The inner triangle's corner by u = 1: t = 1/3 in, (1 - 4t/3, 2t/3,
  // 2t/3).
  bool found = false;
  for (const auto &c : three.coordinates)
    found |= std::fabs(c[0] - 5.0f / 9) < 1e-6 &&
             std::fabs(c[1] - 2.0f / 9) < 1e-6 &&
             std::fabs(c[2] - 2.0f / 9) < 1e-6;
  EXPECT_TRUE(found);
  for (const auto &c : three.coordinates)
    EXPECT_NEAR(c[0] + c[1] + c[2], 1, 1e-6);
}

TEST(Tessellator, InnerLevelOneSplitsWhenAnOuterLevelDoesNot) {
  // Equal spacing: two segments, so the centre appears.
  Tessellation equal =
      run(makeMode(TessellationDomain::Triangles), {1, 1, 2, 0}, {1, 0});
  EXPECT_EQ(equal.coordinates.size(), 3u + 1 + 1);
  expectTiles(equal, 0.5, false);
  // Quads: inner (1, 1) with one outer of 3 becomes a 2 x 2 inner grid
  // point.
  Tessellation quad =
      run(makeMode(TessellationDomain::Quads), {1, 3, 1, 1}, {1, 1});
  EXPECT_EQ(quad.coordinates.size(), 1u + 6);
  expectTiles(quad, 1, false);
}

TEST(Tessellator, QuadGrids) {
  Tessellation three =
      run(makeMode(TessellationDomain::Quads), {3, 3, 3, 3}, {3, 3});
  EXPECT_EQ(three.coordinates.size(), 16u);
  EXPECT_EQ(three.indices.size() / 3, 18u);
  expectTiles(three, 1, false);
  // Unequal levels still tile.
  Tessellation mixed =
      run(makeMode(TessellationDomain::Quads), {1, 5, 2, 7}, {4, 6});
  expectTiles(mixed, 1, false);
}

TEST(Tessellator, EveryModeTilesInItsWinding) {
  for (auto domain : {TessellationDomain::Triangles, TessellationDomain::Quads})
    for (auto spacing :
         {TessellationSpacing::Equal, TessellationSpacing::FractionalEven,
          TessellationSpacing::FractionalOdd})
      for (bool clockwise : {false, true})
        for (float level : {1.0f, 1.5f, 2.0f, 2.7f, 4.2f, 7.0f, 12.3f}) {
          SCOPED_TRACE(testing::Message() << int(domain) << " " << int(spacing)
                                          << " " << clockwise << " " << level);
          Tessellation t =
              run(makeMode(domain, spacing, clockwise),
                  {level, level + 1, 1, level * 2}, {level, level + 0.5f});
          expectTiles(t, domain == TessellationDomain::Quads ? 1 : 0.5,
                      clockwise);
        }
}

TEST(Tessellator, Isolines) {
  // Amber's tessellation_isolines: 6 lines of 2 segments, at v = j / 6.
  Tessellation lines =
      run(makeMode(TessellationDomain::Isolines), {6, 2, 0, 0}, {0, 0});
  EXPECT_EQ(lines.verticesPerPrimitive, 2u);
  EXPECT_EQ(lines.coordinates.size(), 18u);
  EXPECT_EQ(lines.indices.size() / 2, 12u);
  std::set<float> vs;
  for (const auto &c : lines.coordinates)
    vs.insert(c[1]);
  EXPECT_EQ(vs.size(), 6u);
  EXPECT_EQ(*vs.begin(), 0);
  EXPECT_FLOAT_EQ(*vs.rbegin(), 5.0f / 6);
}

TEST(Tessellator, PointModeGivesEachVertexOnce) {
  TessellationMode mode = makeMode(TessellationDomain::Quads);
  mode.pointMode = true;
  Tessellation points = run(mode, {2, 2, 2, 2}, {2, 2});
  EXPECT_EQ(points.verticesPerPrimitive, 1u);
  EXPECT_EQ(points.coordinates.size(), 9u);
  EXPECT_EQ(points.indices.size(), 9u);
}

TEST(Tessellator, DiscardsPatchesWithoutPositiveOuterLevels) {
  Tessellation result;
  float inner[2] = {1, 1};
  float zero[4] = {1, 0, 1, 1}, nan[4] = {1, 1, NAN, 1},
        negative[4] = {1, 1, 1, -1};
  EXPECT_FALSE(
      tessellate(makeMode(TessellationDomain::Triangles), zero, inner, result));
  EXPECT_FALSE(
      tessellate(makeMode(TessellationDomain::Triangles), nan, inner, result));
  EXPECT_FALSE(
      tessellate(makeMode(TessellationDomain::Quads), negative, inner, result));
  // Only the first two outer levels matter to isolines, the first three to
  // triangles.
  EXPECT_TRUE(tessellate(makeMode(TessellationDomain::Isolines), negative,
                         inner, result));
  EXPECT_TRUE(tessellate(makeMode(TessellationDomain::Triangles), negative,
                         inner, result));
}

} // namespace
