//===- Rasterizer.cpp - Triangles to 2x2 quads of samples -----------------===//
#include "Rasterizer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace spvb::runtime;

namespace {

/// A vertex of the clipped polygon: clip coordinates and its weights of the
/// original triangle's vertices.
struct ClipVertex {
  std::array<double, 4> c;
  std::array<double, 3> weights;
};

/// Positions far outside the viewport stay in the fixed-point range: the
/// guard band is this many viewport half-extents from its centre.
constexpr double kGuardBand = 64;

/// Sutherland-Hodgman against one plane, `distance` >= 0 inside.
template <typename Distance>
void clipAgainst(llvm::SmallVectorImpl<ClipVertex> &polygon,
                 Distance distance) {
  llvm::SmallVector<ClipVertex, 12> result;
  for (size_t i = 0, n = polygon.size(); i < n; ++i) {
    const ClipVertex &a = polygon[i], &b = polygon[(i + 1) % n];
    double da = distance(a), db = distance(b);
    if (da >= 0)
      result.push_back(a);
    if ((da >= 0) != (db >= 0)) {
      double t = da / (da - db);
      ClipVertex v;
      for (int k = 0; k < 4; ++k)
        v.c[k] = a.c[k] + t * (b.c[k] - a.c[k]);
      for (int k = 0; k < 3; ++k)
        v.weights[k] = a.weights[k] + t * (b.weights[k] - a.weights[k]);
      result.push_back(v);
    }
  }
  polygon.assign(result.begin(), result.end());
}

/// A vertex in framebuffer coordinates.
struct ScreenVertex {
  double x, y, z, inverseW;
  int64_t fx, fy; // snapped to sub-pixels
  std::array<double, 3> weights;
  /// The primitive's vertex this is (weights one there, zero elsewhere),
  /// or -1.
  int8_t corner = -1;
};

bool isTopLeft(const ScreenVertex &a, const ScreenVertex &b) {
  int64_t dx = b.fx - a.fx, dy = b.fy - a.fy;
  // Framebuffer y grows downwards: a top edge is horizontal with the
  // interior below it, a left edge has the interior to its right.
  return (dy == 0 && dx > 0) || dy < 0;
}

int64_t edge(const ScreenVertex &a, const ScreenVertex &b, int64_t px,
             int64_t py) {
  return (b.fx - a.fx) * (py - a.fy) - (b.fy - a.fy) * (px - a.fx);
}

double getDepthBias(const GraphicsState &state, const RasterSetup &setup,
                    const ScreenVertex &v0, const ScreenVertex &v1,
                    const ScreenVertex &v2) {
  if (!state.depthBias)
    return 0;
  double det = (v1.x - v0.x) * (v2.y - v0.y) - (v2.x - v0.x) * (v1.y - v0.y);
  double slope = 0;
  if (det != 0) {
    double dzdx =
        ((v1.z - v0.z) * (v2.y - v0.y) - (v2.z - v0.z) * (v1.y - v0.y)) / det;
    double dzdy =
        ((v2.z - v0.z) * (v1.x - v0.x) - (v1.z - v0.z) * (v2.x - v0.x)) / det;
    slope = std::max(std::fabs(dzdx), std::fabs(dzdy));
  }
  double resolution = setup.depthResolution;
  if (setup.depthFloat) {
    // 2^(e - 23) for the largest exponent e of the primitive's depths.
    double largest =
        std::max({std::fabs(v0.z), std::fabs(v1.z), std::fabs(v2.z)});
    int exponent = 0;
    std::frexp(largest, &exponent);
    resolution = largest == 0 ? 0 : std::ldexp(1.0, exponent - 1 - 23);
  }
  double bias =
      slope * state.depthBiasSlope + resolution * state.depthBiasConstant;
  if (state.depthBiasClamp > 0)
    bias = std::min<double>(bias, state.depthBiasClamp);
  else if (state.depthBiasClamp < 0)
    bias = std::max<double>(bias, state.depthBiasClamp);
  return bias;
}

/// A triangle ready for the edge walk: its vertices counter-clockwise in
/// framebuffer coordinates, the pixels to walk within the scissor, and its
/// edge functions. Edge k is opposite vertex k; its value at sub-pixel
/// (sx, sy) grows by stepX[k] per pixel to the right and stepY[k] per pixel
/// down, so pixel centres are reached by adding steps instead of
/// evaluating three products per sample.
struct EdgeSetup {
  std::array<const ScreenVertex *, 3> v;
  /// Twice the area in sub-pixels squared, positive.
  int64_t area;
  /// 0 for a top or left edge, else 1: a sample on an edge is inside only
  /// if the edge is a top or left one.
  int64_t bias[3];
  /// Pixels [x0, x1) x [y0, y1) with a sample in the triangle's bounds.
  int64_t x0, x1, y0, y1;
  int64_t stepX[3], stepY[3];
  /// Sample locations in sub-pixels.
  uint32_t samples;
  int64_t offsets[4][2];

  void edgesAt(int64_t sx, int64_t sy, int64_t *e) const {
    e[0] = edge(*v[1], *v[2], sx, sy);
    e[1] = edge(*v[2], *v[0], sx, sy);
    e[2] = edge(*v[0], *v[1], sx, sy);
  }
  /// Whether a sample whose edge values are `e` is inside.
  bool inside(const int64_t *e) const {
    return e[0] - bias[0] >= 0 && e[1] - bias[1] >= 0 && e[2] - bias[2] >= 0;
  }
  double depthAt(int64_t sx, int64_t sy) const {
    int64_t e[3];
    edgesAt(sx, sy, e);
    double depth = 0;
    for (int k = 0; k < 3; ++k)
      depth += double(e[k]) / double(area) * v[k]->z;
    return depth;
  }
  /// Whether the only sample of each pixel is its centre.
  bool centreSamples() const {
    return samples == 1 && offsets[0][0] == kSubPixels / 2 &&
           offsets[0][1] == kSubPixels / 2;
  }
};

/// Triangle set-up: orients the triangle counter-clockwise, applies the
/// top-left rule and bounds the walk by the scissor. False for a triangle
/// of no area or outside the scissor. Filled in place: a returned copy
/// stalled on store forwarding for every triangle.
bool setUpEdges(const RasterSetup &setup, const ScreenVertex &first,
                const ScreenVertex &second, const ScreenVertex &third,
                EdgeSetup &edges) {
  int64_t area = edge(first, second, third.fx, third.fy);
  if (area == 0)
    return false;
  bool flip = area < 0;
  edges.v = {&first, flip ? &third : &second, flip ? &second : &third};
  edges.area = std::abs(area);
  const ScreenVertex &v0 = *edges.v[0], &v1 = *edges.v[1], &v2 = *edges.v[2];
  edges.bias[0] = isTopLeft(v1, v2) ? 0 : 1;
  edges.bias[1] = isTopLeft(v2, v0) ? 0 : 1;
  edges.bias[2] = isTopLeft(v0, v1) ? 0 : 1;
  int64_t minX = std::min({v0.fx, v1.fx, v2.fx});
  int64_t maxX = std::max({v0.fx, v1.fx, v2.fx});
  int64_t minY = std::min({v0.fy, v1.fy, v2.fy});
  int64_t maxY = std::max({v0.fy, v1.fy, v2.fy});
  // Pixels with a sample in the bounds: a sample lies within [low, high]
  // sub-pixels of its pixel's corner (the centre when single-sampled).
  int64_t low = setup.samples == 1 ? kSubPixels / 2 : 0;
  int64_t high = setup.samples == 1 ? kSubPixels / 2 : kSubPixels;
  auto firstPixel = [&](int64_t min) {
    return (min - high + kSubPixels - 1) >> kSubPixelBits;
  };
  auto pastPixel = [&](int64_t max) {
    return ((max - low) >> kSubPixelBits) + 1;
  };
  edges.x0 = std::max<int64_t>(setup.x0, firstPixel(minX));
  edges.x1 = std::min<int64_t>(setup.x1, pastPixel(maxX));
  edges.y0 = std::max<int64_t>(setup.y0, firstPixel(minY));
  edges.y1 = std::min<int64_t>(setup.y1, pastPixel(maxY));
  if (edges.x0 >= edges.x1 || edges.y0 >= edges.y1)
    return false;
  const ScreenVertex *from[3] = {&v1, &v2, &v0}, *to[3] = {&v2, &v0, &v1};
  for (int k = 0; k < 3; ++k) {
    edges.stepX[k] = -(to[k]->fy - from[k]->fy) * kSubPixels;
    edges.stepY[k] = (to[k]->fx - from[k]->fx) * kSubPixels;
  }
  edges.samples = setup.samples;
  if (setup.samples == 1) { // the centre, without a call per triangle
    edges.offsets[0][0] = edges.offsets[0][1] = kSubPixels / 2;
    return true;
  }
  for (uint32_t sample = 0; sample < setup.samples; ++sample) {
    std::array<double, 2> location = getSampleLocation(setup.samples, sample);
    edges.offsets[sample][0] = int64_t(location[0] * kSubPixels);
    edges.offsets[sample][1] = int64_t(location[1] * kSubPixels);
  }
  return true;
}

/// The edge walk of a triangle sampled at pixel centres only, whose
/// consumer evaluates the planes itself: each quad with a covered pixel
/// goes to the sink with its coverage, in raster order, many at a time.
void walkCentredQuads(const EdgeSetup &edges, const RasterSetup &setup,
                      const Quad &quad, QuadSink &sink) {
  if (!(setup.sampleMask & 1))
    return;
  // Copies the walk keeps in registers across the sink's calls.
  int64_t stepX[3], stepY[3], bias[3];
  for (int k = 0; k < 3; ++k) {
    stepX[k] = edges.stepX[k];
    stepY[k] = edges.stepY[k];
    bias[k] = edges.bias[k];
  }
  int64_t qx0 = edges.x0 & ~int64_t(1), qy0 = edges.y0 & ~int64_t(1);
  int64_t row[3];
  edges.edgesAt(qx0 * kSubPixels + kSubPixels / 2,
                qy0 * kSubPixels + kSubPixels / 2, row);
  // The scissor's pixels of a quad: the walk's bounds lie within the
  // scissor, whose edges need not be even, so only the first column and
  // row and the last ones can have pixels outside it.
  auto columnMask = [&](int64_t qx) {
    return (qx >= setup.x0 ? 0x5u : 0) | (qx + 1 < setup.x1 ? 0xau : 0);
  };
  auto rowMask = [&](int64_t qy) {
    return (qy >= setup.y0 ? 0x3u : 0) | (qy + 1 < setup.y1 ? 0xcu : 0);
  };
  QuadCoverage covered[64];
  size_t count = 0;
  auto add = [&](int64_t qx, int64_t qy, unsigned coverage) {
    if (count == std::size(covered)) {
      sink.emitCentred(quad, covered);
      count = 0;
    }
    covered[count++] = {int32_t(qx), int32_t(qy), uint8_t(coverage)};
  };
  int64_t quadColumns = (edges.x1 - qx0 + 1) / 2;
  int64_t quadRows = (edges.y1 - qy0 + 1) / 2;
  // Over most triangles' bounding boxes the edge values fit 32 bits: a
  // quad's four pixels are then tested with one vector per edge, stepped
  // from quad to quad by adding a vector.
  bool narrow = true;
  for (int k = 0; k < 3; ++k) {
    int64_t sx = std::abs(stepX[k]), sy = std::abs(stepY[k]);
    int64_t bound = std::abs(row[k]) + 2 * sx * (quadColumns + 1) +
                    2 * sy * (quadRows + 1) + sx + sy;
    narrow &= bound < (int64_t(1) << 30);
  }
  if (narrow) {
    typedef int32_t Int4 __attribute__((vector_size(16)));
    typedef float Float4 __attribute__((vector_size(16)));
    Int4 rowEdges[3], columnStep[3], rowStep[3], limit[3];
    for (int k = 0; k < 3; ++k) {
      rowEdges[k] =
          int32_t(row[k]) + Int4{0, int32_t(stepX[k]), int32_t(stepY[k]),
                                 int32_t(stepX[k] + stepY[k])};
      columnStep[k] = Int4{} + int32_t(2 * stepX[k]);
      rowStep[k] = Int4{} + int32_t(2 * stepY[k]);
      // e >= bias, as e > bias - 1 (the vector compare is signed >).
      limit[k] = Int4{} + int32_t(bias[k] - 1);
    }
    unsigned firstColumn = columnMask(qx0);
    unsigned lastColumn = columnMask(qx0 + 2 * (quadColumns - 1));
    // A row fits the array: each quad is written and counted if covered,
    // with no branch on its coverage (mispredicted along the edges) and
    // no call in the loop (which kept the vectors in memory).
    bool rowsFit = quadColumns <= int64_t(std::size(covered));
    // Most triangles lie inside the scissor's even columns: no column mask.
    bool wholeColumns = rowsFit && (firstColumn & lastColumn) == 0xfu;
    // The covered pixels of the quad whose edge values are e0..e2 (the
    // lanes' sign bits, movmskps), which then step to the next column.
    auto testQuad = [&](Int4 &e0, Int4 &e1, Int4 &e2, unsigned rows) {
      Int4 inside = (e0 > limit[0]) & (e1 > limit[1]) & (e2 > limit[2]);
      e0 += columnStep[0];
      e1 += columnStep[1];
      e2 += columnStep[2];
      return unsigned(__builtin_ia32_movmskps(Float4(inside))) & rows;
    };
    for (int64_t r = 0, qy = qy0; r < quadRows; ++r, qy += 2) {
      unsigned rows = rowMask(qy);
      Int4 e0 = rowEdges[0], e1 = rowEdges[1], e2 = rowEdges[2];
      if (rowsFit && count + quadColumns > std::size(covered)) {
        sink.emitCentred(quad, llvm::ArrayRef(covered, count));
        count = 0;
      }
      for (int k = 0; k < 3; ++k)
        rowEdges[k] += rowStep[k];
      if (wholeColumns) {
        for (int64_t c = 0, qx = qx0; c < quadColumns; ++c, qx += 2) {
          unsigned coverage = testQuad(e0, e1, e2, rows);
          covered[count] = {int32_t(qx), int32_t(qy), uint8_t(coverage)};
          count += coverage != 0;
        }
        continue;
      }
      for (int64_t c = 0, qx = qx0; c < quadColumns; ++c, qx += 2) {
        unsigned coverage = testQuad(e0, e1, e2, rows);
        coverage &= c == 0 ? firstColumn : 0xfu;
        coverage &= c == quadColumns - 1 ? lastColumn : 0xfu;
        if (rowsFit) {
          covered[count] = {int32_t(qx), int32_t(qy), uint8_t(coverage)};
          count += coverage != 0;
        } else if (coverage) {
          add(qx, qy, coverage);
        }
      }
    }
  } else {
    for (int64_t qy = qy0; qy < edges.y1; qy += 2) {
      unsigned rows = rowMask(qy);
      int64_t e[3] = {row[0], row[1], row[2]};
      for (int64_t qx = qx0; qx < edges.x1; qx += 2) {
        unsigned coverage = 0;
        for (unsigned i = 0; i < 4; ++i) {
          int64_t dx = i % 2, dy = i / 2;
          bool inside = true;
          for (int k = 0; k < 3; ++k)
            inside &= e[k] + dx * stepX[k] + dy * stepY[k] >= bias[k];
          coverage |= unsigned(inside) << i;
        }
        coverage &= rows & columnMask(qx);
        for (int k = 0; k < 3; ++k)
          e[k] += 2 * stepX[k];
        if (coverage)
          add(qx, qy, coverage);
      }
      for (int k = 0; k < 3; ++k)
        row[k] += 2 * stepY[k];
    }
  }
  if (count)
    sink.emitCentred(quad, llvm::ArrayRef(covered, count));
}

/// Quad emission: the quad at (qx, qy), whose pixels' centres have the edge
/// values `centre` and whose covered samples are `covered`, with its pixels
/// interpolated; with sample shading, a quad per covered sample, each
/// interpolated at that sample's location. `pixels` holds the weights
/// while the sink reads them (one array for all of a triangle's quads).
void emitQuad(const EdgeSetup &edges, const RasterSetup &setup,
              const TriangleSetup &triangle, int64_t qx, int64_t qy,
              const int64_t (&centre)[4][3],
              const std::array<uint8_t, 4> &covered, uint8_t coverage,
              Quad &quad, std::array<QuadPixel, 4> &pixels, QuadSink &sink) {
  // Helpers (outside the triangle) are extrapolated.
  auto interpolate = [&](QuadPixel &pixel, const int64_t *e) {
    double values[3] = {double(e[0]), double(e[1]), double(e[2])};
    triangle.interpolate(values, pixel);
  };
  // Centroid weights: at the first covered sample of a partly covered
  // pixel (inside the pixel and the primitive), else at the centre, whose
  // edge values are `centreEdges`; with sample shading too, as lavapipe.
  uint32_t samples = edges.samples, allSamples = (1u << samples) - 1;
  auto setCentroid = [&](QuadPixel &pixel, const int64_t *centreEdges,
                         int64_t px, int64_t py, uint8_t coveredSamples) {
    QuadPixel at;
    if (coveredSamples && coveredSamples != allSamples) {
      unsigned first = llvm::countr_zero(unsigned(coveredSamples));
      int64_t e[3];
      edges.edgesAt(px + edges.offsets[first][0], py + edges.offsets[first][1],
                    e);
      interpolate(at, e);
    } else {
      interpolate(at, centreEdges);
    }
    pixel.centroidPerspective = at.perspective;
    pixel.centroidLinear = at.linear;
  };
  quad.x = qx;
  quad.y = qy;
  quad.covered = covered;
  quad.centroid = setup.centroid;
  quad.pixels = pixels.data();
  if (!setup.perSample || samples == 1) {
    quad.coverage = coverage;
    quad.samples = covered;
    quad.sample = -1;
    for (int i = 0; i < 4; ++i) {
      int64_t px = (qx + i % 2) * kSubPixels, py = (qy + i / 2) * kSubPixels;
      QuadPixel &pixel = pixels[i];
      interpolate(pixel, centre[i]);
      pixel.sampleDepth[0] = pixel.depth;
      if (samples > 1)
        for (uint32_t sample = 0; sample < samples; ++sample)
          pixel.sampleDepth[sample] = edges.depthAt(
              px + edges.offsets[sample][0], py + edges.offsets[sample][1]);
      if (setup.centroid)
        setCentroid(pixel, centre[i], px, py, covered[i]);
    }
    sink.emit(quad);
    return;
  }
  for (uint32_t sample = 0; sample < samples; ++sample) {
    uint8_t shaded = 0;
    for (int i = 0; i < 4; ++i)
      if (covered[i] & (1u << sample))
        shaded |= 1u << i;
    if (!shaded)
      continue;
    quad.coverage = shaded;
    quad.sample = int(sample);
    for (int i = 0; i < 4; ++i) {
      QuadPixel &pixel = pixels[i];
      int64_t px = (qx + i % 2) * kSubPixels, py = (qy + i / 2) * kSubPixels;
      int64_t e[3];
      edges.edgesAt(px + edges.offsets[sample][0],
                    py + edges.offsets[sample][1], e);
      interpolate(pixel, e);
      pixel.sampleDepth[sample] = pixel.depth;
      quad.samples[i] = (shaded & (1u << i)) ? 1u << sample : 0;
      if (setup.centroid)
        setCentroid(pixel, centre[i], px, py, covered[i]);
    }
    sink.emit(quad);
  }
}

/// The edge walk of any triangle: each pixel's samples (its centre when
/// single-sampled) tested against the edges, and each quad with a covered
/// sample emitted with its pixels interpolated (emitQuad), in raster order.
void walkSampledQuads(const EdgeSetup &edges, const RasterSetup &setup,
                      const TriangleSetup &triangle, Quad &quad,
                      QuadSink &sink) {
  int64_t qx0 = edges.x0 & ~int64_t(1), qy0 = edges.y0 & ~int64_t(1);
  int64_t row[3];
  edges.edgesAt(qx0 * kSubPixels + kSubPixels / 2,
                qy0 * kSubPixels + kSubPixels / 2, row);
  bool centreSamples = edges.centreSamples();
  std::array<QuadPixel, 4> pixels;
  for (int64_t qy = qy0; qy < edges.y1; qy += 2) {
    // Edge values at the centres of the quad's four pixels.
    int64_t centre[4][3];
    for (int k = 0; k < 3; ++k) {
      centre[0][k] = row[k];
      centre[1][k] = row[k] + edges.stepX[k];
      centre[2][k] = row[k] + edges.stepY[k];
      centre[3][k] = row[k] + edges.stepX[k] + edges.stepY[k];
      row[k] += 2 * edges.stepY[k];
    }
    for (int64_t qx = qx0; qx < edges.x1; qx += 2) {
      if (qx != qx0)
        for (int i = 0; i < 4; ++i)
          for (int k = 0; k < 3; ++k)
            centre[i][k] += 2 * edges.stepX[k];
      std::array<uint8_t, 4> covered{};
      uint8_t coverage = 0;
      for (int i = 0; i < 4; ++i) {
        int64_t px = qx + i % 2, py = qy + i / 2;
        if (px < setup.x0 || px >= setup.x1 || py < setup.y0 || py >= setup.y1)
          continue;
        if (centreSamples) {
          if ((setup.sampleMask & 1) && edges.inside(centre[i]))
            covered[i] = 1;
        } else {
          for (uint32_t sample = 0; sample < edges.samples; ++sample) {
            if (!(setup.sampleMask & (1u << sample)))
              continue;
            int64_t e[3];
            edges.edgesAt(px * kSubPixels + edges.offsets[sample][0],
                          py * kSubPixels + edges.offsets[sample][1], e);
            if (edges.inside(e))
              covered[i] |= 1u << sample;
          }
        }
        if (covered[i])
          coverage |= 1u << i;
      }
      if (coverage)
        emitQuad(edges, setup, triangle, qx, qy, centre, covered, coverage,
                 quad, pixels, sink);
    }
  }
}

void rasterizeScreenTriangle(const GraphicsState &state,
                             const RasterSetup &setup,
                             const ScreenVertex &first,
                             const ScreenVertex &second,
                             const ScreenVertex &third, bool frontFacing,
                             QuadSink &sink, const Quad &base = Quad()) {
  EdgeSetup edges;
  if (!setUpEdges(setup, first, second, third, edges))
    return;
  Quad quad = base;
  quad.frontFacing = frontFacing;
  quad.depthBias =
      getDepthBias(state, setup, *edges.v[0], *edges.v[1], *edges.v[2]);
  TriangleSetup triangle;
  for (int k = 0; k < 3; ++k) {
    triangle.fixed[k] = {edges.v[k]->fx, edges.v[k]->fy};
    triangle.z[k] = edges.v[k]->z;
    triangle.inverseW[k] = edges.v[k]->inverseW;
    triangle.weights[k] = edges.v[k]->weights;
    triangle.corners[k] = edges.v[k]->corner;
  }
  triangle.area = edges.area;
  static thread_local uint64_t serial = 0;
  triangle.serial = ++serial;
  triangle.setPlanes(int32_t(edges.x0 & ~int64_t(1)),
                     int32_t(edges.y0 & ~int64_t(1)));
  quad.triangle = &triangle;
  // Pixel centres are all the consumer needs: it evaluates the planes.
  if (edges.centreSamples() && !setup.centroid)
    walkCentredQuads(edges, setup, quad, sink);
  else
    walkSampledQuads(edges, setup, triangle, quad, sink);
}

/// std::llround without the library call: half away from zero.
int64_t roundToSubPixel(double v) {
  if (!(std::fabs(v) < 0x1p62))
    return std::llround(v);
  int64_t whole = int64_t(v); // truncated, exactly
  double fraction = v - double(whole);
  return whole + (fraction >= 0.5) - (fraction <= -0.5);
}

/// A draw's viewport transform, its float terms computed once (in float,
/// as the viewport's fields are), and its projection of clip positions.
struct Projection {
  explicit Projection(const VkViewport &vp, bool depthClamp = false)
      : centreX(vp.x + vp.width / 2), centreY(vp.y + vp.height / 2),
        width(vp.width), height(vp.height), minDepth(vp.minDepth),
        depthRange(vp.maxDepth - vp.minDepth), depthClamp(depthClamp) {}

  /// Framebuffer x, y and z of clip position `c` whose 1/w is `inverseW`.
  std::array<double, 3> toFramebuffer(const double *c, double inverseW) const {
    return {centreX + c[0] * inverseW * width / 2,
            centreY + c[1] * inverseW * height / 2,
            minDepth + c[2] * inverseW * depthRange};
  }

  /// Fills `projected` in place: a returned copy stalled on store
  /// forwarding for every vertex.
  void project(const ClipPosition &position, ProjectedVertex &projected) const {
    projected.clip = position;
    double c[4] = {position[0], position[1], position[2], position[3]};
    // Clipping keeps what has w > 0 of a primitive whose vertices all do
    // within their projection's convex hull.
    if (!(c[3] > 0)) {
      projected.x = projected.y = projected.z = projected.inverseW = 0;
      projected.fx = projected.fy = 0;
      projected.projected = projected.unclipped = false;
      return;
    }
    double inverseW = 1.0 / c[3];
    auto [x, y, z] = toFramebuffer(c, inverseW);
    projected.x = x;
    projected.y = y;
    projected.z = z;
    projected.inverseW = inverseW;
    projected.fx = roundToSubPixel(x * kSubPixels);
    projected.fy = roundToSubPixel(y * kSubPixels);
    projected.projected = std::isfinite(x) && std::isfinite(y);
    projected.unclipped =
        (depthClamp || (c[2] >= 0 && c[3] - c[2] >= 0)) && c[3] - 1e-30 >= 0 &&
        c[3] * kGuardBand + c[0] >= 0 && c[3] * kGuardBand - c[0] >= 0 &&
        c[3] * kGuardBand + c[1] >= 0 && c[3] * kGuardBand - c[1] >= 0;
  }

  double centreX, centreY, width, height, minDepth, depthRange;
  bool depthClamp;
};

ScreenVertex toScreen(const VkViewport &vp, const std::array<double, 4> &c,
                      std::array<double, 3> weights) {
  ScreenVertex s;
  double inverseW = 1.0 / c[3];
  std::array<double, 3> xyz = Projection(vp).toFramebuffer(c.data(), inverseW);
  s.x = xyz[0];
  s.y = xyz[1];
  s.z = xyz[2];
  s.inverseW = inverseW;
  s.fx = roundToSubPixel(s.x * kSubPixels);
  s.fy = roundToSubPixel(s.y * kSubPixels);
  s.weights = weights;
  return s;
}

/// A corner of a line's or point's rectangle: `from` moved by (dx, dy)
/// pixels.
ScreenVertex offset(ScreenVertex from, double dx, double dy) {
  from.x += dx;
  from.y += dy;
  from.fx = roundToSubPixel(from.x * kSubPixels);
  from.fy = roundToSubPixel(from.y * kSubPixels);
  return from;
}

void rasterizeScreenLine(const GraphicsState &state, const RasterSetup &setup,
                         ScreenVertex a, ScreenVertex b, bool frontFacing,
                         QuadSink &sink) {
  double dx = b.x - a.x, dy = b.y - a.y, length = std::hypot(dx, dy);
  if (length == 0)
    return;
  double half = std::max(1.0f, state.lineWidth) / 2;
  double nx = -dy / length * half, ny = dx / length * half;
  // Lines are interpolated linearly along the segment: no perspective
  // weights across the rectangle.
  a.inverseW = b.inverseW = 1;
  ScreenVertex a0 = offset(a, nx, ny), a1 = offset(a, -nx, -ny);
  ScreenVertex b0 = offset(b, nx, ny), b1 = offset(b, -nx, -ny);
  rasterizeScreenTriangle(state, setup, a0, b0, a1, frontFacing, sink);
  rasterizeScreenTriangle(state, setup, a1, b0, b1, frontFacing, sink);
}

void rasterizeScreenPoint(const GraphicsState &state, const RasterSetup &setup,
                          ScreenVertex p, double size, bool frontFacing,
                          QuadSink &sink) {
  double half = std::max(1.0, size) / 2;
  Quad base;
  base.pointX = p.x;
  base.pointY = p.y;
  base.pointSize = std::max(1.0, size);
  p.inverseW = 1;
  ScreenVertex c00 = offset(p, -half, -half), c10 = offset(p, half, -half);
  ScreenVertex c01 = offset(p, -half, half), c11 = offset(p, half, half);
  rasterizeScreenTriangle(state, setup, c00, c10, c01, frontFacing, sink, base);
  rasterizeScreenTriangle(state, setup, c01, c10, c11, frontFacing, sink, base);
}

/// Whether a point survives the near and far planes.
bool isInDepthRange(const GraphicsState &state, const ClipPosition &c) {
  if (c[3] <= 0)
    return false;
  return state.depthClamp || (c[2] >= 0 && c[2] <= c[3]);
}

} // namespace

void QuadSink::emitCentred(const Quad &base,
                           llvm::ArrayRef<QuadCoverage> quads) {
  Quad quad = base;
  for (const QuadCoverage &covered : quads) {
    quad.setCentred(covered);
    emit(quad);
  }
}

std::array<double, 2> spvb::runtime::getSampleLocation(uint32_t samples,
                                                       uint32_t sample) {
  // VkPhysicalDeviceLimits::standardSampleLocations, 4 samples.
  static const double kFour[4][2] = {
      {0.375, 0.125}, {0.875, 0.375}, {0.125, 0.625}, {0.625, 0.875}};
  if (samples == 4 && sample < 4)
    return {kFour[sample][0], kFour[sample][1]};
  return {0.5, 0.5};
}

void spvb::runtime::rasterizeLine(const GraphicsState &state,
                                  const RasterSetup &setup,
                                  const std::array<ClipPosition, 2> &positions,
                                  QuadSink &sink) {
  // Clipped against the near and far planes (unless depth clamp) and w > 0
  // as a segment a + t (b - a), t in [t0, t1].
  std::array<double, 4> a, b;
  for (int k = 0; k < 4; ++k) {
    a[k] = positions[0][k];
    b[k] = positions[1][k];
  }
  double t0 = 0, t1 = 1;
  // `da` and `db` are the ends' distances to a plane, >= 0 inside.
  auto clip = [&](double da, double db) {
    if (da < 0 && db < 0)
      return false;
    if (da < 0)
      t0 = std::max(t0, da / (da - db));
    else if (db < 0)
      t1 = std::min(t1, da / (da - db));
    return true;
  };
  if (!state.depthClamp &&
      (!clip(a[2], b[2]) || !clip(a[3] - a[2], b[3] - b[2])))
    return;
  if (!clip(a[3] - 1e-30, b[3] - 1e-30) || t0 > t1)
    return;
  std::array<double, 4> c0, c1;
  for (int k = 0; k < 4; ++k) {
    c0[k] = a[k] + t0 * (b[k] - a[k]);
    c1[k] = a[k] + t1 * (b[k] - a[k]);
  }
  rasterizeScreenLine(
      state, setup, toScreen(setup.viewport, c0, {1 - t0, t0, 0}),
      toScreen(setup.viewport, c1, {1 - t1, t1, 0}), true, sink);
}

void spvb::runtime::rasterizePoint(const GraphicsState &state,
                                   const RasterSetup &setup,
                                   const ClipPosition &position, double size,
                                   QuadSink &sink) {
  if (!isInDepthRange(state, position))
    return;
  std::array<double, 4> c;
  for (int k = 0; k < 4; ++k)
    c[k] = position[k];
  rasterizeScreenPoint(state, setup, toScreen(setup.viewport, c, {1, 0, 0}),
                       size, true, sink);
}

/// A clipped polygon in framebuffer coordinates: culled by facing, then
/// filled as a fan, or its edges or vertices drawn.
static void rasterizePolygon(const GraphicsState &state,
                             const RasterSetup &setup,
                             llvm::ArrayRef<ScreenVertex> screen,
                             QuadSink &sink) {
  // Facing: a = -1/2 sum(x_i y_(i+1) - x_(i+1) y_i) over the polygon;
  // a > 0 is counter-clockwise.
  double a = 0;
  for (size_t i = 0, n = screen.size(); i < n; ++i) {
    const ScreenVertex &p = screen[i], &q = screen[(i + 1) % n];
    a += p.x * q.y - q.x * p.y;
  }
  a = -a / 2;
  if (a == 0)
    return;
  bool counterClockwise = a > 0;
  bool front = state.frontFace == VK_FRONT_FACE_COUNTER_CLOCKWISE
                   ? counterClockwise
                   : !counterClockwise;
  if ((front && (state.cullMode & VK_CULL_MODE_FRONT_BIT)) ||
      (!front && (state.cullMode & VK_CULL_MODE_BACK_BIT)))
    return;
  if (state.polygonMode == VK_POLYGON_MODE_LINE) {
    for (size_t i = 0, n = screen.size(); i < n; ++i)
      rasterizeScreenLine(state, setup, screen[i], screen[(i + 1) % n], front,
                          sink);
    return;
  }
  if (state.polygonMode == VK_POLYGON_MODE_POINT) {
    for (const ScreenVertex &vertex : screen)
      rasterizeScreenPoint(state, setup, vertex, 1.0, front, sink);
    return;
  }
  for (size_t i = 1; i + 1 < screen.size(); ++i)
    rasterizeScreenTriangle(state, setup, screen[0], screen[i], screen[i + 1],
                            front, sink);
}

#if defined(__x86_64__)
/// roundToSubPixel of four doubles below 2^51 in magnitude: half away from
/// zero, in doubles, then to integers by adding 2^52 + 2^51 (which leaves
/// an integer of that size in the low mantissa bits).
__attribute__((target("avx2"))) static inline __m256i roundAvx2(__m256d value) {
  const __m256d one = _mm256_set1_pd(1.0), magic = _mm256_set1_pd(0x1.8p52);
  __m256d whole =
      _mm256_round_pd(value, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m256d fraction = _mm256_sub_pd(value, whole);
  whole = _mm256_add_pd(
      whole,
      _mm256_and_pd(_mm256_cmp_pd(fraction, _mm256_set1_pd(0.5), _CMP_GE_OQ),
                    one));
  whole = _mm256_sub_pd(
      whole,
      _mm256_and_pd(_mm256_cmp_pd(fraction, _mm256_set1_pd(-0.5), _CMP_LE_OQ),
                    one));
  return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(whole, magic)),
                          _mm256_castpd_si256(magic));
}

/// Lanes >= 0 (false for NaN, as the scalar comparison).
__attribute__((target("avx2"))) static inline __m256d
atLeastZeroAvx2(__m256d value) {
  return _mm256_cmp_pd(value, _mm256_setzero_pd(), _CMP_GE_OQ);
}

/// projectVertices' loop over whole groups of four vertices with AVX2:
/// each lane's arithmetic is Projection::project's (no fused
/// multiply-adds), its rounding done in doubles for sub-pixels below 2^51;
/// lanes beyond that, or with w <= 0, take the scalar path. A vertex cost a
/// scalar division and two roundings' dependency chains, and a geometry
/// shader's draw projects every vertex it emits.
__attribute__((target("avx2"))) static uint64_t
projectFourAtATimeAvx2(const Projection &projection, const uint8_t *records,
                       uint64_t recordSize, uint32_t offset, uint64_t count,
                       ProjectedVertex *projected) {
  static_assert(offsetof(ProjectedVertex, inverseW) ==
                    offsetof(ProjectedVertex, x) + 3 * sizeof(double),
                "x, y, z and inverseW are stored as one vector");
  static_assert(offsetof(ProjectedVertex, fy) ==
                    offsetof(ProjectedVertex, fx) + sizeof(int64_t),
                "fx and fy are stored as one vector");
  const __m256d centreX = _mm256_set1_pd(projection.centreX);
  const __m256d centreY = _mm256_set1_pd(projection.centreY);
  const __m256d width = _mm256_set1_pd(projection.width);
  const __m256d height = _mm256_set1_pd(projection.height);
  const __m256d minDepth = _mm256_set1_pd(projection.minDepth);
  const __m256d depthRange = _mm256_set1_pd(projection.depthRange);
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d half = _mm256_set1_pd(0.5);
  const __m256d subPixels = _mm256_set1_pd(double(kSubPixels));
  const __m256d guardBand = _mm256_set1_pd(kGuardBand);
  const __m256d tiny = _mm256_set1_pd(1e-30);
  const __m256d limit = _mm256_set1_pd(0x1p51);
  const __m256d signless = _mm256_castsi256_pd(_mm256_set1_epi64x(INT64_MAX));
  uint64_t v = 0;
  for (; v + 4 <= count; v += 4) {
    __m128 clip[4];
    for (int lane = 0; lane < 4; ++lane)
      clip[lane] = _mm_loadu_ps(reinterpret_cast<const float *>(
          records + (v + lane) * recordSize + offset));
    __m128 c0f = clip[0], c1f = clip[1], c2f = clip[2], c3f = clip[3];
    _MM_TRANSPOSE4_PS(c0f, c1f, c2f, c3f);
    __m256d c0 = _mm256_cvtps_pd(c0f), c1 = _mm256_cvtps_pd(c1f);
    __m256d c2 = _mm256_cvtps_pd(c2f), w = _mm256_cvtps_pd(c3f);
    __m256d inverseW = _mm256_div_pd(one, w);
    __m256d x = _mm256_add_pd(
        centreX,
        _mm256_mul_pd(_mm256_mul_pd(_mm256_mul_pd(c0, inverseW), width), half));
    __m256d y = _mm256_add_pd(
        centreY, _mm256_mul_pd(
                     _mm256_mul_pd(_mm256_mul_pd(c1, inverseW), height), half));
    __m256d z = _mm256_add_pd(
        minDepth, _mm256_mul_pd(_mm256_mul_pd(c2, inverseW), depthRange));
    __m256d sx = _mm256_mul_pd(x, subPixels), sy = _mm256_mul_pd(y, subPixels);
    __m256d fast = _mm256_and_pd(
        _mm256_cmp_pd(w, zero, _CMP_GT_OQ),
        _mm256_and_pd(
            _mm256_cmp_pd(_mm256_and_pd(sx, signless), limit, _CMP_LT_OQ),
            _mm256_cmp_pd(_mm256_and_pd(sy, signless), limit, _CMP_LT_OQ)));
    __m256i fx = roundAvx2(sx), fy = roundAvx2(sy);
    __m256d guard = _mm256_mul_pd(w, guardBand);
    __m256d unclipped = _mm256_and_pd(
        atLeastZeroAvx2(_mm256_sub_pd(w, tiny)),
        _mm256_and_pd(
            _mm256_and_pd(atLeastZeroAvx2(_mm256_add_pd(guard, c0)),
                          atLeastZeroAvx2(_mm256_sub_pd(guard, c0))),
            _mm256_and_pd(atLeastZeroAvx2(_mm256_add_pd(guard, c1)),
                          atLeastZeroAvx2(_mm256_sub_pd(guard, c1)))));
    if (!projection.depthClamp)
      unclipped = _mm256_and_pd(
          unclipped, _mm256_and_pd(atLeastZeroAvx2(c2),
                                   atLeastZeroAvx2(_mm256_sub_pd(w, c2))));
    // Each lane's x, y, z and 1/w, and its fx and fy, as one vector.
    __m256d xy02 = _mm256_unpacklo_pd(x, y), xy13 = _mm256_unpackhi_pd(x, y);
    __m256d zw02 = _mm256_unpacklo_pd(z, inverseW);
    __m256d zw13 = _mm256_unpackhi_pd(z, inverseW);
    __m256d doubles[4] = {_mm256_permute2f128_pd(xy02, zw02, 0x20),
                          _mm256_permute2f128_pd(xy13, zw13, 0x20),
                          _mm256_permute2f128_pd(xy02, zw02, 0x31),
                          _mm256_permute2f128_pd(xy13, zw13, 0x31)};
    __m256i fxy02 = _mm256_unpacklo_epi64(fx, fy);
    __m256i fxy13 = _mm256_unpackhi_epi64(fx, fy);
    __m128i snapped[4] = {
        _mm256_castsi256_si128(fxy02), _mm256_castsi256_si128(fxy13),
        _mm256_extracti128_si256(fxy02, 1), _mm256_extracti128_si256(fxy13, 1)};
    int fastLanes = _mm256_movemask_pd(fast);
    int unclippedLanes = _mm256_movemask_pd(unclipped);
    for (int lane = 0; lane < 4; ++lane) {
      ProjectedVertex &out = projected[v + lane];
      uint8_t *bytes = reinterpret_cast<uint8_t *>(&out);
      _mm_storeu_ps(out.clip.data(), clip[lane]);
      if (!(fastLanes & (1 << lane))) {
        ClipPosition position;
        _mm_storeu_ps(position.data(), clip[lane]);
        projection.project(position, out);
        continue;
      }
      _mm256_storeu_pd(
          reinterpret_cast<double *>(bytes + offsetof(ProjectedVertex, x)),
          doubles[lane]);
      _mm_storeu_si128(
          reinterpret_cast<__m128i *>(bytes + offsetof(ProjectedVertex, fx)),
          snapped[lane]);
      // x and y are finite: their sub-pixels are below 2^51.
      out.projected = true;
      out.unclipped = (unclippedLanes >> lane) & 1;
    }
  }
  return v;
}
#endif

void spvb::runtime::projectVertices(const GraphicsState &state,
                                    const RasterSetup &setup,
                                    const uint8_t *records, uint64_t recordSize,
                                    uint32_t offset, uint64_t count,
                                    ProjectedVertex *projected) {
  Projection projection(setup.viewport, state.depthClamp);
  uint64_t v = 0;
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2)
    v = projectFourAtATimeAvx2(projection, records, recordSize, offset, count,
                               projected);
#endif
  for (; v < count; ++v) {
    ClipPosition clip;
    std::memcpy(clip.data(), records + v * recordSize + offset, 16);
    projection.project(clip, projected[v]);
  }
}

/// Clipping: the part of the triangle inside the near and far planes
/// (unless depth clamping), w > 0 and the guard band, as a polygon whose
/// vertices carry their weights of the triangle's vertices.
static llvm::SmallVector<ClipVertex, 12>
clipTriangle(const GraphicsState &state,
             const std::array<const ProjectedVertex *, 3> &projected) {
  llvm::SmallVector<ClipVertex, 12> polygon;
  for (int i = 0; i < 3; ++i) {
    ClipVertex v;
    for (int k = 0; k < 4; ++k)
      v.c[k] = projected[i]->clip[k];
    v.weights = {0, 0, 0};
    v.weights[i] = 1;
    polygon.push_back(v);
  }
  if (!state.depthClamp) {
    clipAgainst(polygon, [](const ClipVertex &v) { return v.c[2]; });
    clipAgainst(polygon, [](const ClipVertex &v) { return v.c[3] - v.c[2]; });
  }
  clipAgainst(polygon, [](const ClipVertex &v) { return v.c[3] - 1e-30; });
  for (int axis = 0; axis < 2; ++axis) {
    clipAgainst(polygon, [&](const ClipVertex &v) {
      return v.c[3] * kGuardBand + v.c[axis];
    });
    clipAgainst(polygon, [&](const ClipVertex &v) {
      return v.c[3] * kGuardBand - v.c[axis];
    });
  }
  return polygon;
}

void spvb::runtime::rasterizeTriangle(
    const GraphicsState &state, const RasterSetup &setup,
    const std::array<const ProjectedVertex *, 3> &projected, QuadSink &sink) {
  // Most triangles lie inside every clip plane: clipping would keep them
  // as they are.
  if (llvm::all_of(projected, [](const ProjectedVertex *vertex) {
        return vertex->unclipped;
      })) {
    std::array<ScreenVertex, 3> screen;
    for (int i = 0; i < 3; ++i) {
      const ProjectedVertex &vertex = *projected[i];
      screen[i] = {vertex.x,  vertex.y,  vertex.z, vertex.inverseW,
                   vertex.fx, vertex.fy, {0, 0, 0}};
      screen[i].weights[i] = 1;
      screen[i].corner = int8_t(i);
    }
    rasterizePolygon(state, setup, screen, sink);
    return;
  }
  llvm::SmallVector<ClipVertex, 12> polygon = clipTriangle(state, projected);
  if (polygon.size() < 3)
    return;
  llvm::SmallVector<ScreenVertex, 12> screen;
  for (const ClipVertex &c : polygon)
    screen.push_back(toScreen(setup.viewport, c.c, c.weights));
  rasterizePolygon(state, setup, screen, sink);
}

PixelRect spvb::runtime::getPrimitiveBounds(
    const GraphicsState &state, const RasterSetup &setup,
    llvm::ArrayRef<const ProjectedVertex *> vertices, double pointSize) {
  PixelRect scissor = setup.getScissor();
  if (vertices.size() == 3 && state.polygonMode == VK_POLYGON_MODE_FILL &&
      setup.samples == 1 && vertices[0]->unclipped && vertices[1]->unclipped &&
      vertices[2]->unclipped)
    return getUnclippedTriangleBounds(*vertices[0], *vertices[1], *vertices[2],
                                      scissor);
  double minX = INFINITY, minY = INFINITY, maxX = -INFINITY, maxY = -INFINITY;
  for (const ProjectedVertex *vertex : vertices) {
    if (!vertex->projected)
      return scissor;
    minX = std::min(minX, vertex->x);
    maxX = std::max(maxX, vertex->x);
    minY = std::min(minY, vertex->y);
    maxY = std::max(maxY, vertex->y);
  }
  // Half a line's width or a point's size, and a pixel for snapping.
  double pad = 1 + std::max({1.0, double(state.lineWidth), pointSize}) / 2;
  // Clamped first, so that the floor and ceiling are of small values.
  auto floorIn = [](double value, int32_t low, int32_t high) {
    value = std::clamp(value, double(low), double(high));
    int32_t truncated = int32_t(value);
    return truncated - int32_t(double(truncated) > value);
  };
  auto ceilIn = [](double value, int32_t low, int32_t high) {
    value = std::clamp(value, double(low), double(high));
    int32_t truncated = int32_t(value);
    return truncated + int32_t(double(truncated) < value);
  };
  if (vertices.size() == 3 && state.polygonMode == VK_POLYGON_MODE_FILL &&
      setup.samples == 1) {
    // A filled triangle covers pixels by their centres, x + 0.5 within
    // the snapped bounds (snapping moves a vertex by at most half a
    // sub-pixel; a whole one is allowed).
    double snap = 1.0 / kSubPixels;
    auto pastIn = [&](double value, int32_t low, int32_t high) {
      return std::min(floorIn(value, low, high) + 1, high);
    };
    return {floorIn(minX - 0.5 - snap, scissor.x0, scissor.x1),
            floorIn(minY - 0.5 - snap, scissor.y0, scissor.y1),
            pastIn(maxX - 0.5 + snap, scissor.x0, scissor.x1),
            pastIn(maxY - 0.5 + snap, scissor.y0, scissor.y1)};
  }
  return {floorIn(minX - pad, scissor.x0, scissor.x1),
          floorIn(minY - pad, scissor.y0, scissor.y1),
          ceilIn(maxX + pad, scissor.x0, scissor.x1),
          ceilIn(maxY + pad, scissor.y0, scissor.y1)};
}

void TriangleSetup::interpolate(const double *e, QuadPixel &pixel) const {
  double l[3], q[3], sum = 0;
  for (int k = 0; k < 3; ++k) {
    l[k] = e[k] / double(area);
    q[k] = l[k] * inverseW[k];
    sum += q[k];
  }
  pixel.depth = 0;
  pixel.inverseW = sum;
  pixel.perspective = {0, 0, 0};
  pixel.linear = {0, 0, 0};
  // One division, not three: the weights go to 32-bit floats, far coarser
  // than the reciprocal's rounding.
  double inverseSum = sum != 0 ? 1 / sum : 0;
  for (int k = 0; k < 3; ++k) {
    pixel.depth += l[k] * z[k];
    double p = sum != 0 ? q[k] * inverseSum : l[k];
    for (int j = 0; j < 3; ++j) {
      pixel.perspective[j] += p * weights[k][j];
      pixel.linear[j] += l[k] * weights[k][j];
    }
  }
}

void TriangleSetup::interpolateAt(double x, double y, QuadPixel &pixel) const {
  double sx = x * kSubPixels, sy = y * kSubPixels;
  double e[3];
  for (int k = 0; k < 3; ++k) {
    // Edge k runs from vertex k + 1 to vertex k + 2, as edge() computes.
    const std::array<int64_t, 2> &a = fixed[(k + 1) % 3],
                                 &b = fixed[(k + 2) % 3];
    e[k] = double(b[0] - a[0]) * (sy - double(a[1])) -
           double(b[1] - a[1]) * (sx - double(a[0]));
  }
  interpolate(e, pixel);
}

void TriangleSetup::setPlanes(int32_t x, int32_t y) {
  originX = x;
  originY = y;
  int64_t sx = int64_t(x) * kSubPixels, sy = int64_t(y) * kSubPixels;
  depth = inverseWPlane = Plane();
  // One division, not nine: they bound the set-up of small triangles.
  double inverseArea = 1 / double(area);
  for (int k = 0; k < 3; ++k) {
    // Edge k runs from vertex k + 1 to vertex k + 2, as edge() computes.
    const std::array<int64_t, 2> &a = fixed[(k + 1) % 3],
                                 &b = fixed[(k + 2) % 3];
    int64_t e = (b[0] - a[0]) * (sy - a[1]) - (b[1] - a[1]) * (sx - a[0]);
    Plane &l = barycentric[k];
    l.a = double(e) * inverseArea;
    l.dx = double(-(b[1] - a[1]) * kSubPixels) * inverseArea;
    l.dy = double((b[0] - a[0]) * kSubPixels) * inverseArea;
    depth.a += l.a * z[k];
    depth.dx += l.dx * z[k];
    depth.dy += l.dy * z[k];
    inverseWPlane.a += l.a * inverseW[k];
    inverseWPlane.dx += l.dx * inverseW[k];
    inverseWPlane.dy += l.dy * inverseW[k];
  }
}
