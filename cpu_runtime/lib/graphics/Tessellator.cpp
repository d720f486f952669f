//===- Tessellator.cpp - The fixed-function tessellator -------------------===//
#include "Tessellator.h"

#include <algorithm>
#include <cmath>

using namespace spvb::runtime;

std::vector<float> spvb::runtime::subdivideEdge(TessellationSpacing spacing,
                                                float level) {
  // Clamped (NaN to the minimum) and rounded up per spacing.
  float low = spacing == TessellationSpacing::FractionalEven ? 2 : 1;
  float high = spacing == TessellationSpacing::FractionalOdd
                   ? kMaxTessellationLevel - 1
                   : kMaxTessellationLevel;
  float f = level >= low ? std::min(level, high) : low;
  auto n = static_cast<unsigned>(std::ceil(f));
  if (spacing == TessellationSpacing::FractionalEven && n % 2)
    ++n;
  if (spacing == TessellationSpacing::FractionalOdd && n % 2 == 0)
    ++n;
  std::vector<float> points(n + 1);
  // Equal spacing, or a fractional level already at n: n equal segments.
  if (spacing == TessellationSpacing::Equal || f == float(n) || n <= 2) {
    for (unsigned i = 0; i <= n; ++i)
      points[i] = float(i) / float(n);
    return points;
  }
  // n - 2 segments of 1/f and two of (f - (n - 2)) / 2f, the short ones
  // beside the middle (the middle pair when n is even); mirrored so the
  // edge reads the same from either end.
  unsigned shortAt = n % 2 ? (n - 1) / 2 - 1 : n / 2 - 1;
  float longLength = 1 / f, shortLength = (f - float(n - 2)) / (2 * f);
  float at = 0;
  for (unsigned i = 0; i <= n / 2; ++i) {
    points[i] = at;
    points[n - i] = 1 - at;
    at += i == shortAt || n - 1 - i == shortAt ? shortLength : longLength;
  }
  return points;
}

namespace {

using Coordinate = std::array<float, 3>;

/// Builds one patch's vertices and triangles.
class Builder {
public:
  explicit Builder(Tessellation &result) : result(result) {}

  uint32_t addVertex(float u, float v, float w) {
    result.coordinates.push_back({u, v, w});
    return uint32_t(result.coordinates.size() - 1);
  }
  void addTriangle(uint32_t a, uint32_t b, uint32_t c) {
    result.indices.insert(result.indices.end(), {a, b, c});
  }

  /// Fills the strip between an outer and an inner edge running the same
  /// way (positions along it ascending): walks both, each step taking the
  /// edge whose next vertex comes first. An inner edge of one vertex (the
  /// centre) makes a fan.
  void stitch(const std::vector<uint32_t> &outer,
              const std::vector<float> &outerAt,
              const std::vector<uint32_t> &inner,
              const std::vector<float> &innerAt) {
    size_t i = 0, j = 0;
    while (i + 1 < outer.size() || j + 1 < inner.size()) {
      bool takeOuter =
          j + 1 == inner.size() ||
          (i + 1 < outer.size() && outerAt[i + 1] <= innerAt[j + 1]);
      if (takeOuter) {
        addTriangle(outer[i], outer[i + 1], inner[j]);
        ++i;
      } else {
        addTriangle(outer[i], inner[j + 1], inner[j]);
        ++j;
      }
    }
  }

  /// Puts every triangle in the winding `clockwise` asks for: in (u, v)
  /// with v pointing down, clockwise is a positive cross product.
  void orient(bool clockwise) {
    std::vector<uint32_t> &indices = result.indices;
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
      const Coordinate &a = result.coordinates[indices[t]];
      const Coordinate &b = result.coordinates[indices[t + 1]];
      const Coordinate &c = result.coordinates[indices[t + 2]];
      float cross =
          (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
      if (cross != 0 && (cross > 0) != clockwise)
        std::swap(indices[t + 1], indices[t + 2]);
    }
  }

private:
  Tessellation &result;
};

/// An inner level of one where the patch is more than one primitive acts
/// as 1 + epsilon: two or three segments.
std::vector<float> subdivideInner(TessellationSpacing spacing, float level,
                                  bool split) {
  std::vector<float> points = subdivideEdge(spacing, level);
  if (points.size() == 2 && split)
    points = subdivideEdge(spacing, std::nextafter(1.0f, 2.0f));
  return points;
}

bool isPositive(float level) { return level > 0; } // false for NaN

void tessellateTriangles(const TessellationMode &mode, const float outer[4],
                         const float inner[2], Builder &builder) {
  // Corner X of side s runs to corner Y; Z is opposite. Corners are
  // u = 1, v = 1, w = 1; side s is the edge of outer level (s + 2) % 3.
  std::vector<float> edges[3];
  bool allOne = true;
  for (unsigned s = 0; s < 3; ++s) {
    edges[s] = subdivideEdge(mode.spacing, outer[(s + 2) % 3]);
    allOne &= edges[s].size() == 2;
  }
  std::vector<float> p = subdivideEdge(mode.spacing, inner[0]);
  if (allOne && p.size() == 2) {
    uint32_t a = builder.addVertex(0, 0, 1), b = builder.addVertex(1, 0, 0),
             c = builder.addVertex(0, 1, 0);
    builder.addTriangle(a, b, c);
    return;
  }
  p = subdivideInner(mode.spacing, inner[0], true);
  unsigned n = unsigned(p.size() - 1);
  auto place = [&](unsigned side, float x, float y, float z) {
    float c[3];
    c[side] = x, c[(side + 1) % 3] = y, c[(side + 2) % 3] = z;
    return builder.addVertex(c[0], c[1], c[2]);
  };
  // Ring k's sides: vertex indices (both corners) and their positions
  // along the side. Ring 0 follows the outer levels; ring k > 0 has the
  // inner points p_k .. p_(n-k), pulled in by t = p_k: on side X->Y,
  // (X, Y, Z) = (1 - p_i - t/3, p_i - t/3, 2t/3).
  struct Ring {
    std::vector<uint32_t> sides[3];
    std::vector<float> at[3];
  };
  std::vector<Ring> rings;
  for (unsigned k = 0; 2 * k < n; ++k) {
    Ring &ring = rings.emplace_back();
    uint32_t first[3];
    for (unsigned s = 0; s < 3; ++s) {
      if (k == 0) {
        ring.at[s] = edges[s];
        for (size_t j = 0; j + 1 < edges[s].size(); ++j)
          ring.sides[s].push_back(place(s, 1 - edges[s][j], edges[s][j], 0));
      } else {
        float t = p[k];
        ring.at[s].assign(p.begin() + k, p.begin() + (n - k) + 1);
        for (unsigned i = k; i < n - k; ++i)
          ring.sides[s].push_back(
              place(s, 1 - p[i] - t / 3, p[i] - t / 3, 2 * t / 3));
      }
      first[s] = ring.sides[s].front();
    }
    for (unsigned s = 0; s < 3; ++s)
      ring.sides[s].push_back(first[(s + 1) % 3]);
  }
  for (size_t k = 0; k + 1 < rings.size(); ++k)
    for (unsigned s = 0; s < 3; ++s)
      builder.stitch(rings[k].sides[s], rings[k].at[s], rings[k + 1].sides[s],
                     rings[k + 1].at[s]);
  const Ring &last = rings.back();
  if (n % 2) {
    // An odd count ends in a triangle of one segment per side.
    builder.addTriangle(last.sides[0][0], last.sides[1][0], last.sides[2][0]);
    return;
  }
  // An even count ends in the centre.
  uint32_t centre = builder.addVertex(1.0f / 3, 1.0f / 3, 1.0f / 3);
  for (unsigned s = 0; s < 3; ++s)
    builder.stitch(last.sides[s], last.at[s], {centre}, {0.5f});
}

void tessellateQuads(const TessellationMode &mode, const float outer[4],
                     const float inner[2], Builder &builder) {
  // Sides from corner (0,0) around: v = 0 (outer[1]), u = 1 (outer[2]),
  // v = 1 (outer[3]), u = 0 (outer[0]).
  std::vector<float> edges[4];
  bool allOne = true;
  for (unsigned s = 0; s < 4; ++s) {
    edges[s] = subdivideEdge(mode.spacing, outer[(s + 1) % 4]);
    allOne &= edges[s].size() == 2;
  }
  std::vector<float> pu = subdivideEdge(mode.spacing, inner[0]);
  std::vector<float> pv = subdivideEdge(mode.spacing, inner[1]);
  if (allOne && pu.size() == 2 && pv.size() == 2) {
    uint32_t a = builder.addVertex(0, 0, 0), b = builder.addVertex(1, 0, 0),
             c = builder.addVertex(1, 1, 0), d = builder.addVertex(0, 1, 0);
    builder.addTriangle(a, b, c);
    builder.addTriangle(a, c, d);
    return;
  }
  pu = subdivideInner(mode.spacing, inner[0], true);
  pv = subdivideInner(mode.spacing, inner[1], true);
  unsigned nu = unsigned(pu.size() - 1), nv = unsigned(pv.size() - 1);
  // The inner grid (pu_i, pv_j), 1 <= i < nu, 1 <= j < nv.
  std::vector<uint32_t> grid((nu - 1) * (nv - 1));
  auto at = [&](unsigned i, unsigned j) -> uint32_t & {
    return grid[(j - 1) * (nu - 1) + (i - 1)];
  };
  for (unsigned j = 1; j < nv; ++j)
    for (unsigned i = 1; i < nu; ++i)
      at(i, j) = builder.addVertex(pu[i], pv[j], 0);
  // The outer ring's sides, each with the matching side of the grid.
  std::vector<uint32_t> outerSides[4];
  for (unsigned s = 0; s < 4; ++s)
    for (size_t j = 0; j + 1 < edges[s].size(); ++j) {
      float q = edges[s][j];
      float u = s == 0 ? q : s == 1 ? 1 : s == 2 ? 1 - q : 0;
      float v = s == 0 ? 0 : s == 1 ? q : s == 2 ? 1 : 1 - q;
      outerSides[s].push_back(builder.addVertex(u, v, 0));
    }
  for (unsigned s = 0; s < 4; ++s) {
    std::vector<uint32_t> side = outerSides[s];
    side.push_back(outerSides[(s + 1) % 4].front());
    std::vector<uint32_t> innerSide;
    std::vector<float> innerAt;
    // Positions along the side, ascending in its direction.
    if (s == 0)
      for (unsigned i = 1; i < nu; ++i)
        innerSide.push_back(at(i, 1)), innerAt.push_back(pu[i]);
    if (s == 1)
      for (unsigned j = 1; j < nv; ++j)
        innerSide.push_back(at(nu - 1, j)), innerAt.push_back(pv[j]);
    if (s == 2)
      for (unsigned i = nu - 1; i >= 1; --i)
        innerSide.push_back(at(i, nv - 1)), innerAt.push_back(1 - pu[i]);
    if (s == 3)
      for (unsigned j = nv - 1; j >= 1; --j)
        innerSide.push_back(at(1, j)), innerAt.push_back(1 - pv[j]);
    builder.stitch(side, edges[s], innerSide, innerAt);
  }
  for (unsigned j = 1; j + 1 < nv; ++j)
    for (unsigned i = 1; i + 1 < nu; ++i) {
      builder.addTriangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
      builder.addTriangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
    }
}

} // namespace

bool spvb::runtime::tessellate(const TessellationMode &mode,
                               const float outer[4], const float inner[2],
                               Tessellation &result) {
  result.coordinates.clear();
  result.indices.clear();
  unsigned relevant = mode.domain == TessellationDomain::Triangles ? 3
                      : mode.domain == TessellationDomain::Quads   ? 4
                                                                   : 2;
  for (unsigned i = 0; i < relevant; ++i)
    if (!isPositive(outer[i]))
      return false;
  Builder builder(result);
  if (mode.domain == TessellationDomain::Isolines) {
    // outer[0] lines at v = j / n (equal spacing always, v = 1 left out),
    // each of outer[1]'s segments.
    unsigned lines = unsigned(
        subdivideEdge(TessellationSpacing::Equal, outer[0]).size() - 1);
    std::vector<float> u = subdivideEdge(mode.spacing, outer[1]);
    result.verticesPerPrimitive = 2;
    for (unsigned j = 0; j < lines; ++j) {
      uint32_t first = uint32_t(result.coordinates.size());
      for (float position : u)
        builder.addVertex(position, float(j) / float(lines), 0);
      for (uint32_t i = 0; i + 1 < u.size(); ++i)
        result.indices.insert(result.indices.end(), {first + i, first + i + 1});
    }
  } else {
    result.verticesPerPrimitive = 3;
    if (mode.domain == TessellationDomain::Triangles)
      tessellateTriangles(mode, outer, inner, builder);
    else
      tessellateQuads(mode, outer, inner, builder);
    builder.orient(mode.clockwise);
  }
  if (mode.pointMode) {
    // Each vertex once.
    result.verticesPerPrimitive = 1;
    result.indices.resize(result.coordinates.size());
    for (uint32_t i = 0; i < result.indices.size(); ++i)
      result.indices[i] = i;
  }
  return true;
}
