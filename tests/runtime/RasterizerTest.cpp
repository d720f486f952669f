//===- RasterizerTest.cpp - The rasterizer's rules, hand-derived ----------===//
//
// Vulkan's polygon rasterization rules on small framebuffers, each expected
// coverage derived by hand from the specification (as llvmpipe's lp_test_*
// check its pieces alone): the top-left rule at shared edges, snapping to 8
// sub-pixel bits, the near plane, facing and culling, the standard 4-sample
// locations.
//
//===----------------------------------------------------------------------===//
#include "graphics/Rasterizer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace spvb::runtime;

namespace {

using Pixel = std::pair<int, int>;

/// Counts each covered pixel (and its sample mask) the rasterizer emits.
class CoverageSink : public QuadSink {
public:
  void emit(const Quad &quad) override {
    emptyQuads += quad.coverage == 0;
    for (unsigned i = 0; i < 4; ++i)
      if (quad.coverage & (1u << i)) {
        Pixel pixel{quad.x + int(i % 2), quad.y + int(i / 2)};
        ++hits[pixel];
        samples[pixel] |= quad.samples[i];
      }
  }
  std::map<Pixel, int> hits;
  std::map<Pixel, unsigned> samples;
  int emptyQuads = 0;

  std::set<Pixel> covered() const {
    std::set<Pixel> pixels;
    for (const auto &[pixel, count] : hits)
      pixels.insert(pixel);
    return pixels;
  }
};

constexpr int kSize = 8;

RasterSetup makeSetup(uint32_t samples = 1) {
  RasterSetup setup{};
  setup.viewport = {0, 0, float(kSize), float(kSize), 0, 1};
  setup.x0 = setup.y0 = 0;
  setup.x1 = setup.y1 = kSize;
  setup.samples = samples;
  return setup;
}

/// The clip position of framebuffer point (x, y) at depth z (w = 1).
ClipPosition at(double x, double y, double z = 0.5) {
  return {float(2 * x / kSize - 1), float(2 * y / kSize - 1), float(z), 1};
}

void draw(const GraphicsState &state, const RasterSetup &setup,
          const std::array<ClipPosition, 3> &corners, QuadSink &sink) {
  std::array<ProjectedVertex, 3> projected;
  projectVertices(state, setup,
                  reinterpret_cast<const uint8_t *>(corners.data()),
                  sizeof(ClipPosition), 0, 3, projected.data());
  rasterizeTriangle(state, setup, {&projected[0], &projected[1], &projected[2]},
                    sink);
}

/// The rectangle [x0, x1] x [y0, y1] as two triangles sharing a diagonal.
void drawRect(const GraphicsState &state, const RasterSetup &setup, double x0,
              double y0, double x1, double y1, QuadSink &sink, double z0 = 0.5,
              double z1 = 0.5) {
  draw(state, setup, {at(x0, y0, z0), at(x1, y0, z1), at(x0, y1, z0)}, sink);
  draw(state, setup, {at(x1, y0, z1), at(x1, y1, z1), at(x0, y1, z0)}, sink);
}

std::set<Pixel> block(int x0, int y0, int x1, int y1) {
  std::set<Pixel> pixels;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x)
      pixels.insert({x, y});
  return pixels;
}

TEST(Rasterizer, SharedEdgeCoversEachPixelOnce) {
  // The diagonal x + y = 8 runs through the centres of the 8 pixels with
  // x + y = 7: the top-left rule gives each to exactly one triangle.
  CoverageSink sink;
  drawRect(GraphicsState(), makeSetup(), 0, 0, kSize, kSize, sink);
  EXPECT_EQ(sink.covered(), block(0, 0, kSize, kSize));
  for (const auto &[pixel, count] : sink.hits)
    EXPECT_EQ(count, 1) << "pixel " << pixel.first << "," << pixel.second;
}

TEST(Rasterizer, TopAndLeftEdgesIncludeCentresOnThem) {
  // Edges through pixel centres: x = 0.5 (left) and y = 0.5 (top) keep the
  // centres on them, x = 2.5 (right) and y = 2.5 (bottom) do not.
  CoverageSink sink;
  drawRect(GraphicsState(), makeSetup(), 0.5, 0.5, 2.5, 2.5, sink);
  EXPECT_EQ(sink.covered(), block(0, 0, 2, 2));
}

TEST(Rasterizer, VerticesSnapToEightSubPixelBits) {
  // 0.4/256 of a pixel right of the centre rounds back onto it (the left
  // edge keeps column 0); 0.6/256 rounds to the next sub-pixel, past it.
  CoverageSink near, far;
  drawRect(GraphicsState(), makeSetup(), 0.5 + 0.4 / 256, 0, 4, 4, near);
  drawRect(GraphicsState(), makeSetup(), 0.5 + 0.6 / 256, 0, 4, 4, far);
  EXPECT_EQ(near.covered(), block(0, 0, 4, 4));
  EXPECT_EQ(far.covered(), block(1, 0, 4, 4));
}

TEST(Rasterizer, NearPlaneClipsUnlessDepthClamps) {
  // Depth runs from -0.5 at x = 0 to 0.5 at x = 8: the near plane (z = 0)
  // cuts at x = 4, a left edge, so columns 4 to 7 remain.
  CoverageSink clipped, clamped;
  GraphicsState state;
  drawRect(state, makeSetup(), 0, 0, kSize, kSize, clipped, -0.5, 0.5);
  EXPECT_EQ(clipped.covered(), block(4, 0, kSize, kSize));
  state.depthClamp = true;
  drawRect(state, makeSetup(), 0, 0, kSize, kSize, clamped, -0.5, 0.5);
  EXPECT_EQ(clamped.covered(), block(0, 0, kSize, kSize));
}

TEST(Rasterizer, BackFacesAreCulled) {
  // In framebuffer coordinates (y down), (0,0) (8,0) (0,8) has
  // a = -1/2 sum(x_i y_i+1 - x_i+1 y_i) = -32 < 0: clockwise, a back face
  // with VK_FRONT_FACE_COUNTER_CLOCKWISE. The reverse order is a front face.
  GraphicsState state;
  state.cullMode = VK_CULL_MODE_BACK_BIT;
  CoverageSink back, front;
  draw(state, makeSetup(), {at(0, 0), at(kSize, 0), at(0, kSize)}, back);
  draw(state, makeSetup(), {at(0, 0), at(0, kSize), at(kSize, 0)}, front);
  EXPECT_TRUE(back.hits.empty());
  // The 28 pixels with x + y < 7: those on the diagonal (x + y = 7) are
  // not this triangle's, whose diagonal is a right edge.
  std::set<Pixel> expected;
  for (int y = 0; y < kSize; ++y)
    for (int x = 0; x + y < 7; ++x)
      expected.insert({x, y});
  EXPECT_EQ(front.covered(), expected);
}

TEST(Rasterizer, FourSamplesAtTheStandardLocations) {
  // Vulkan's standard locations: (0.375, 0.125), (0.875, 0.375),
  // (0.125, 0.625), (0.625, 0.875). A left edge at x = 0.5 covers samples
  // 1 and 3 of column 0, every sample of column 1.
  CoverageSink sink;
  drawRect(GraphicsState(), makeSetup(4), 0.5, 0, 2, 2, sink);
  EXPECT_EQ(sink.covered(), block(0, 0, 2, 2));
  for (int y = 0; y < 2; ++y) {
    EXPECT_EQ(sink.samples[Pixel(0, y)], 0b1010u) << "row " << y;
    EXPECT_EQ(sink.samples[Pixel(1, y)], 0b1111u) << "row " << y;
  }
}

TEST(Rasterizer, ScissorLimitsQuadsToItsPixels) {
  // A scissor starting at an odd pixel: quads still start at even pixels,
  // but only pixels inside the scissor are covered.
  RasterSetup setup = makeSetup();
  setup.x0 = 3;
  setup.y0 = 1;
  setup.x1 = 6;
  setup.y1 = 4;
  CoverageSink sink;
  drawRect(GraphicsState(), setup, 0, 0, kSize, kSize, sink);
  EXPECT_EQ(sink.covered(), block(3, 1, 6, 4));

  // Odd right and bottom edges too, and edge values past 32 bits (a
  // triangle hundreds of framebuffers wide): the same pixels, each once.
  setup.x0 = 1;
  setup.y0 = 3;
  setup.x1 = 5;
  setup.y1 = 7;
  CoverageSink odd, wide;
  drawRect(GraphicsState(), setup, 0, 0, kSize, kSize, odd);
  EXPECT_EQ(odd.covered(), block(1, 3, 5, 7));
  draw(GraphicsState(), setup, {at(-2000, -2000), at(2000, -2000), at(0, 2000)},
       wide);
  EXPECT_EQ(wide.covered(), block(1, 3, 5, 7));
  for (const auto &[pixel, count] : odd.hits)
    EXPECT_EQ(count, 1) << "pixel " << pixel.first << "," << pixel.second;
}

} // namespace

TEST(Rasterizer, ProjectsVerticesInBulkAsOneAtATime) {
  // 13 positions (three groups of four and one more) in records of 24
  // bytes with the position at offset 4, as a stage's output records hold
  // them.
  std::vector<ClipPosition> positions = {
      at(2, 3, 0.25),
      {0.5f, -0.5f, 0.5f, 2.0f},
      {0, 0, 0.5f, 0},                // w = 0: not projected
      {1, 1, 0.5f, -1},               // behind the eye
      {100, 0, 0.5f, 1},              // outside the guard band
      {0, 0, -0.5f, 1},               // in front of the near plane
      {NAN, 0, 0.5f, 1},              // NaN
      {0x1p100f, 0, 0.5f, 0x1p-100f}, // beyond the sub-pixel range
      at(7.5, 0.5, 1),
      // Half a sub-pixel right of pixel 2 and left of pixel 0: rounded
      // away from zero, to sub-pixels 513 and -1.
      {-0.5f + 0x1p-11f, 0, 0.5f, 1},
      {-1 - 0x1p-11f, 0, 0.5f, 1},
      at(1, 1),
      at(2, 3)};
  std::vector<uint8_t> records(positions.size() * 24, 0xcd);
  for (size_t i = 0; i < positions.size(); ++i)
    std::memcpy(records.data() + i * 24 + 4, positions[i].data(), 16);
  RasterSetup setup = makeSetup();
  for (bool clamp : {false, true}) {
    GraphicsState state;
    state.depthClamp = clamp;
    std::vector<ProjectedVertex> batch(positions.size());
    projectVertices(state, setup, records.data(), 24, 4, positions.size(),
                    batch.data());
    for (size_t i = 0; i < positions.size(); ++i) {
      // Alone: one vertex takes the scalar path.
      ProjectedVertex one;
      projectVertices(state, setup,
                      reinterpret_cast<const uint8_t *>(positions[i].data()),
                      sizeof(ClipPosition), 0, 1, &one);
      SCOPED_TRACE(testing::Message() << "vertex " << i << " clamp " << clamp);
      EXPECT_EQ(std::memcmp(batch[i].clip.data(), positions[i].data(), 16), 0);
      EXPECT_EQ(batch[i].projected, one.projected);
      EXPECT_EQ(batch[i].unclipped, one.unclipped);
      if (!one.projected)
        continue;
      EXPECT_EQ(batch[i].fx, one.fx);
      EXPECT_EQ(batch[i].fy, one.fy);
      EXPECT_EQ(batch[i].x, one.x);
      EXPECT_EQ(batch[i].y, one.y);
      EXPECT_EQ(batch[i].z, one.z);
      EXPECT_EQ(batch[i].inverseW, one.inverseW);
    }
    // By hand: (2, 3) is sub-pixel (512, 768) at depth 0.25; clip
    // (0.5, -0.5, 0.5, 2) is (0.25, -0.25, 0.25) after the divide, pixel
    // (5, 3), sub-pixel (1280, 768); w = 0 and w < 0 are not projected.
    EXPECT_EQ(batch[0].fx, 512);
    EXPECT_EQ(batch[0].fy, 768);
    EXPECT_DOUBLE_EQ(batch[0].z, 0.25);
    EXPECT_TRUE(batch[0].unclipped);
    EXPECT_EQ(batch[1].fx, 1280);
    EXPECT_EQ(batch[1].fy, 768);
    EXPECT_DOUBLE_EQ(batch[1].inverseW, 0.5);
    EXPECT_FALSE(batch[2].projected);
    EXPECT_FALSE(batch[3].projected);
    EXPECT_TRUE(batch[4].projected);
    EXPECT_FALSE(batch[4].unclipped);
    EXPECT_EQ(batch[5].unclipped, clamp);
    EXPECT_FALSE(batch[6].projected);
    EXPECT_EQ(batch[8].fx, 7 * 256 + 128);
    EXPECT_EQ(batch[8].fy, 128);
    EXPECT_EQ(batch[9].fx, 513);
    EXPECT_EQ(batch[10].fx, -1);
  }
}

TEST(Rasterizer, LongQuadRowsCoverEachPixelOnce) {
  // The walk queues a triangle's quads 64 at a time: rectangles whose rows
  // are 30 quads (60 pixels), which fill the queue every other row, and
  // 100 quads (a flat 200 x 4 one), longer than it; both small enough for
  // the walk's 32-bit edge values. Every pixel once, no empty quad.
  for (auto [width, height] : {std::pair{60, 60}, std::pair{200, 4}}) {
    RasterSetup setup{};
    setup.viewport = {0, 0, float(width), float(height), 0, 1};
    setup.x1 = width;
    setup.y1 = height;
    setup.samples = 1;
    auto corner = [&](double x, double y) {
      return ClipPosition{float(2 * x / width - 1), float(2 * y / height - 1),
                          0.5f, 1};
    };
    CoverageSink sink;
    draw(GraphicsState(), setup,
         {corner(0, 0), corner(width, 0), corner(0, height)}, sink);
    draw(GraphicsState(), setup,
         {corner(width, 0), corner(width, height), corner(0, height)}, sink);
    EXPECT_EQ(sink.covered(), block(0, 0, width, height)) << width;
    for (const auto &[pixel, count] : sink.hits)
      EXPECT_EQ(count, 1) << "pixel " << pixel.first << "," << pixel.second;
    EXPECT_EQ(sink.emptyQuads, 0) << width;
  }
}
