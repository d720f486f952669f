//===- Rasterizer.h - Triangles to 2x2 quads of samples ---------*- C++ -*-===//
//
// The specification's "Polygons" rasterization: clip-space triangles are
// clipped (near and far planes, unless depth clamping, and a guard band far
// outside the viewport), transformed to framebuffer coordinates, snapped to
// 8 sub-pixel bits (lavapipe's subPixelPrecisionBits), culled by facing,
// and rasterized with exact integer edge functions and the top-left rule at
// the pixel centres, or at the four standard sample locations when
// multisampled. Each 2x2 quad with a covered sample comes out with its
// triangle's plane equations (and, multisampled, the weights of its pixels
// at their samples and centroids), which also hold for helpers outside
// the triangle (extrapolated), so the fragment shader's derivatives see
// smooth values.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_RASTERIZER_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_RASTERIZER_H

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <array>
#include <optional>

namespace spvb::runtime {

/// One pixel of a quad.
struct QuadPixel {
  /// Weights of the primitive's three vertices: perspective-correct and
  /// linear in screen space (noperspective); each sums to 1.
  std::array<double, 3> perspective{};
  std::array<double, 3> linear{};
  /// Framebuffer depth before the depth bias and 1/w, interpolated.
  double depth = 0;
  double inverseW = 1;
  /// The depth at each sample (sample 0's is `depth` when single-sampled).
  std::array<double, 4> sampleDepth{};
  /// For `centroid` inputs (Quad::centroid): the weights at the first
  /// covered sample of a partly covered pixel, which lies in both the
  /// pixel and the primitive, else at the centre.
  std::array<double, 3> centroidPerspective{};
  std::array<double, 3> centroidLinear{};
};

/// A rasterized triangle as interpolation needs it: its vertices in
/// sub-pixels with depth, 1/w and their weights of the primitive's
/// vertices (a clipped polygon's, a line's or a point's corners carry the
/// original vertices' weights).
struct TriangleSetup {
  /// An affine function of the framebuffer position (x, y) relative to
  /// the origin, (originX + x, originY + y).
  struct Plane {
    double a = 0, dx = 0, dy = 0;
    double at(double x, double y) const { return a + dx * x + dy * y; }
  };

  std::array<std::array<int64_t, 2>, 3> fixed;
  std::array<double, 3> z, inverseW;
  std::array<std::array<double, 3>, 3> weights;
  /// Vertex k is the primitive's vertex corners[k] (its weights are one
  /// there), or -1: a clipped polygon's corner.
  std::array<int8_t, 3> corners;
  /// Twice the area in sub-pixels squared, positive.
  int64_t area;
  /// Distinguishes the triangles a thread rasterizes.
  uint64_t serial;
  /// Where the planes are relative to: a pixel near the triangle, so that
  /// they are evaluated without cancellation.
  int32_t originX, originY;
  /// Vertex k's screen-space weight (edge k over the area), the depth and
  /// 1/w: interpolating a value v_k perspective-correctly is
  /// sum(barycentric_k * inverseW_k * v_k) / inverseWPlane.
  std::array<Plane, 3> barycentric;
  Plane depth, inverseWPlane;

  /// Sets the planes for the origin (x, y), once the vertices are set.
  void setPlanes(int32_t x, int32_t y);

  /// Weights, depth and 1/w at the point whose edge values (edge k is
  /// opposite vertex k) are `e`; outside the triangle they extrapolate.
  void interpolate(const double *e, QuadPixel &pixel) const;
  /// The same at (x, y) in framebuffer coordinates (interpolateAt*).
  void interpolateAt(double x, double y, QuadPixel &pixel) const;
};

/// A quad of a single-sampled triangle whose pixels are covered at their
/// centres.
struct QuadCoverage {
  int32_t x, y;
  /// Bit i: pixel i is covered.
  uint8_t coverage;
};

/// A 2x2 block of pixels at even (x, y); pixel i is (x + i % 2, y + i / 2).
struct Quad {
  int32_t x = 0, y = 0;
  /// Bit i: pixel i is covered (else a helper invocation).
  uint8_t coverage = 0;
  /// Per pixel, bit s: sample s is covered (with sample shading, the
  /// quad's sample only).
  std::array<uint8_t, 4> samples{};
  /// Per pixel, every covered sample, also with sample shading.
  std::array<uint8_t, 4> covered{};
  /// Sample shading: the sample this quad's invocations shade (the weights
  /// are at its location); -1 shades pixels at their centres.
  int sample = -1;
  /// Whether the pixels' centroid weights are set.
  bool centroid = false;
  bool frontFacing = true;
  /// The depth bias of the primitive, to add to each pixel's depth.
  double depthBias = 0;
  /// Points: the centre and size, for gl_PointCoord (size 0 otherwise).
  double pointX = 0, pointY = 0, pointSize = 0;
  /// The triangle the quad was rasterized from, while it is emitted.
  const TriangleSetup *triangle = nullptr;
  /// The four pixels' weights, or null: single-sampled triangles leave
  /// them to the consumer, which evaluates the triangle's planes at the
  /// pixel centres (most quads need only a few of the values).
  const QuadPixel *pixels = nullptr;

  /// Moves the quad to `covered`, its covered pixels sampled at their
  /// centres.
  void setCentred(const QuadCoverage &covered) {
    x = covered.x;
    y = covered.y;
    coverage = covered.coverage;
    for (unsigned i = 0; i < 4; ++i)
      samples[i] = this->covered[i] = (covered.coverage >> i) & 1;
  }

  /// Pixel `lane`'s depth at `sample`, before the depth bias.
  double getDepth(unsigned lane, unsigned sample) const {
    if (pixels)
      return pixels[lane].sampleDepth[sample];
    return triangle->depth.at(x + lane % 2 + 0.5 - triangle->originX,
                              y + lane / 2 + 0.5 - triangle->originY);
  }
};

/// Where a rasterizer's quads go.
class QuadSink {
public:
  /// A quad with a covered sample.
  virtual void emit(const Quad &quad) = 0;
  /// Quads of one single-sampled triangle covered at their pixel centres,
  /// in raster order: `base` (the triangle, facing and depth bias, no
  /// per-pixel weights) at each quad's position with its coverage. Each is
  /// emitted alone unless a sink does better.
  virtual void emitCentred(const Quad &base,
                           llvm::ArrayRef<QuadCoverage> quads);

protected:
  ~QuadSink() = default;
};

/// Where sample `sample` of `samples` (1 or 4) lies in its pixel, in
/// pixels: the centre, or Vulkan's standard 4-sample locations.
std::array<double, 2> getSampleLocation(uint32_t samples, uint32_t sample);

/// Clip-space position of a vertex (gl_Position).
using ClipPosition = std::array<float, 4>;

/// Pixels [x0, x1) x [y0, y1).
struct PixelRect {
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool empty() const { return x0 >= x1 || y0 >= y1; }
  PixelRect intersect(const PixelRect &other) const {
    return {std::max(x0, other.x0), std::max(y0, other.y0),
            std::min(x1, other.x1), std::min(y1, other.y1)};
  }
};

/// The framebuffer region and transforms a draw uses.
struct RasterSetup {
  VkViewport viewport;
  /// Pixels [x0, x1) x [y0, y1): the scissor within the framebuffer.
  int32_t x0, y0, x1, y1;
  /// Resolution of the depth attachment's format, for the depth bias:
  /// 2^-bits for UNORM, 0 for float formats (the bias then uses the
  /// primitive's largest exponent).
  double depthResolution = 0;
  bool depthFloat = false;
  /// Rasterization samples (1 or 4), the pipeline's sample mask, and
  /// whether each sample is shaded by its own invocation.
  uint32_t samples = 1;
  uint32_t sampleMask = ~0u;
  bool perSample = false;
  /// Whether quads carry centroid weights (multisampled draws of shaders
  /// with `centroid` inputs).
  bool centroid = false;

  PixelRect getScissor() const { return {x0, y0, x1, y1}; }
  /// The same draw restricted to `pixels` (within the scissor).
  RasterSetup restrictedTo(const PixelRect &pixels) const {
    RasterSetup restricted = *this;
    restricted.x0 = pixels.x0;
    restricted.y0 = pixels.y0;
    restricted.x1 = pixels.x1;
    restricted.y1 = pixels.y1;
    return restricted;
  }
};

/// A vertex of a draw, projected once for all its primitives.
struct ProjectedVertex {
  /// Its clip-space position (gl_Position).
  ClipPosition clip{};
  /// Framebuffer coordinates and depth, 1/w, and x and y snapped to
  /// sub-pixels (meaningful when `unclipped`).
  double x = 0, y = 0, z = 0, inverseW = 0;
  int64_t fx = 0, fy = 0;
  /// Whether w > 0 and x and y are finite (else the primitive's bounds
  /// are the whole scissor).
  bool projected = false;
  /// Whether the vertex lies inside every clip plane: a triangle of three
  /// such vertices goes to the screen without clipping.
  bool unclipped = false;
};
/// Projects `count` positions, the vec4 at `offset` in each record of
/// `recordSize` bytes from `records`, into `projected`.
void projectVertices(const GraphicsState &state, const RasterSetup &setup,
                     const uint8_t *records, uint64_t recordSize,
                     uint32_t offset, uint64_t count,
                     ProjectedVertex *projected);

/// Vertices are snapped to 1/256 pixel (lavapipe's subPixelPrecisionBits).
constexpr int kSubPixelBits = 8;
constexpr int64_t kSubPixels = int64_t(1) << kSubPixelBits;

/// getPrimitiveBounds of a filled, single-sampled triangle of three
/// `unclipped` vertices: exactly the pixels whose centres its snapped
/// vertices' bounds hold, within `scissor`. Inline: a draw's primitive
/// loop calls it for most triangles.
inline PixelRect getUnclippedTriangleBounds(const ProjectedVertex &a,
                                            const ProjectedVertex &b,
                                            const ProjectedVertex &c,
                                            const PixelRect &scissor) {
  // The triangle reaches the edge set-up with these snapped vertices: its
  // bounds, the pixels whose centre lies within theirs, computed as there.
  int64_t minX = std::min(std::min(a.fx, b.fx), c.fx);
  int64_t maxX = std::max(std::max(a.fx, b.fx), c.fx);
  int64_t minY = std::min(std::min(a.fy, b.fy), c.fy);
  int64_t maxY = std::max(std::max(a.fy, b.fy), c.fy);
  constexpr int64_t kHalf = kSubPixels / 2;
  auto first = [](int64_t min, int32_t low, int32_t high) {
    return int32_t(std::clamp<int64_t>(
        (min - kHalf + kSubPixels - 1) >> kSubPixelBits, low, high));
  };
  auto past = [](int64_t max, int32_t low, int32_t high) {
    return int32_t(
        std::clamp<int64_t>(((max - kHalf) >> kSubPixelBits) + 1, low, high));
  };
  return {
      first(minX, scissor.x0, scissor.x1), first(minY, scissor.y0, scissor.y1),
      past(maxX, scissor.x0, scissor.x1), past(maxY, scissor.y0, scissor.y1)};
}

/// Pixels within the scissor that a primitive with these projected
/// vertices (1 to 3) may touch, in any polygon mode, for lines of the
/// state's width and points of `pointSize`: their bounds, widened. When a
/// vertex has no projection that is the whole scissor.
PixelRect getPrimitiveBounds(const GraphicsState &state,
                             const RasterSetup &setup,
                             llvm::ArrayRef<const ProjectedVertex *> vertices,
                             double pointSize);

/// Rasterizes one triangle, whose vertices are `projected`; sends
/// each quad with a covered pixel to `sink`, in raster order. Polygon
/// modes LINE and POINT draw its edges and vertices (after culling).
void rasterizeTriangle(const GraphicsState &state, const RasterSetup &setup,
                       const std::array<const ProjectedVertex *, 3> &projected,
                       QuadSink &sink);

/// A line of the state's width as the rectangle around the segment
/// (strict lines, no end caps); weights are of vertices 0 and 1, linear in
/// screen space.
void rasterizeLine(const GraphicsState &state, const RasterSetup &setup,
                   const std::array<ClipPosition, 2> &positions,
                   QuadSink &sink);

/// A point: the square of side `size` around it; every weight is vertex
/// 0's.
void rasterizePoint(const GraphicsState &state, const RasterSetup &setup,
                    const ClipPosition &position, double size, QuadSink &sink);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_RASTERIZER_H
