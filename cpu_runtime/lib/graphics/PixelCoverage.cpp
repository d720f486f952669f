//===- PixelCoverage.cpp - The primitives that cover one pixel ------------===//
#include "PixelCoverage.h"

using namespace spvb::runtime;

namespace {

/// Whether a primitive's quads cover one pixel (a sample of it).
class PixelProbe final : public QuadSink {
public:
  PixelProbe(int64_t x, int64_t y) : x(x), y(y) {}

  void emit(const Quad &quad) override {
    int64_t dx = x - quad.x, dy = y - quad.y;
    if (dx >= 0 && dx <= 1 && dy >= 0 && dy <= 1 &&
        (quad.coverage & (1u << (dx + 2 * dy))))
      covered = true;
  }
  bool isCovered() const { return covered; }

private:
  int64_t x, y;
  bool covered = false;
};

} // namespace

std::vector<size_t> spvb::runtime::findPixelPrimitives(
    const DebugPixel &pixel, const GraphicsState &state,
    const RasterSetup &setup, llvm::ArrayRef<DrawPrimitive> primitives) {
  int32_t x = int32_t(pixel.x), y = int32_t(pixel.y);
  RasterSetup only = setup.restrictedTo(
      PixelRect{x, y, x + 1, y + 1}.intersect(setup.getScissor()));
  std::vector<size_t> covering;
  if (only.x0 >= only.x1 || only.y0 >= only.y1)
    return covering;
  for (size_t i = 0; i < primitives.size(); ++i) {
    const DrawPrimitive &drawn = primitives[i];
    const PixelRect &bounds = drawn.bounds;
    if (x < bounds.x0 || x >= bounds.x1 || y < bounds.y0 || y >= bounds.y1)
      continue;
    PixelProbe probe(x, y);
    rasterizePrimitive(state, only, drawn, probe);
    if (probe.isCovered())
      covering.push_back(i);
  }
  return covering;
}
