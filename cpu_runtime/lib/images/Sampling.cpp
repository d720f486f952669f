//===- Sampling.cpp - Texel filtering as Vulkan specifies it --------------===//
#include "Sampling.h"

#include "LaneSampling.h"

#include "llvm/ADT/bit.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

using namespace spvb::runtime;
using namespace spvb::runtime::sampling;

namespace {

uint64_t levelExtent(const spvb_image &image, unsigned d, uint32_t level) {
  return std::max<uint64_t>(1, image.extent[d] >> level);
}

/// Applies an address mode to an integer texel coordinate; false when it
/// falls on the border.
bool wrap(int64_t &i, int64_t size, uint32_t mode) {
  switch (mode) {
  case kRepeat:
    // Most textures are a power of two wide: a mask, not a division.
    if ((size & (size - 1)) == 0) {
      i &= size - 1;
      return true;
    }
    i %= size;
    if (i < 0)
      i += size;
    return true;
  case kMirroredRepeat: {
    int64_t t = i % (2 * size);
    if (t < 0)
      t += 2 * size;
    i = t >= size ? 2 * size - 1 - t : t;
    return true;
  }
  case kClampToBorder:
    return i >= 0 && i < size;
  case kMirrorClampToEdge:
    i = std::clamp<int64_t>(i < 0 ? -1 - i : i, 0, size - 1);
    return true;
  default: // clamp to edge
    i = std::clamp<int64_t>(i, 0, size - 1);
    return true;
  }
}

Texel borderTexel(uint32_t color) {
  Texel texel;
  // Transparent black 0/1, opaque black 2/3, opaque white 4/5.
  double rgb = color >= 4 ? 1 : 0, alpha = color >= 2 ? 1 : 0;
  for (int c = 0; c < 4; ++c) {
    double value = c < 3 ? rgb : alpha;
    texel.f[c] = value;
    texel.i[c] = static_cast<uint64_t>(value);
  }
  return texel;
}

/// Whether `ref` passes `op` against the stored value `texel` (VkCompareOp:
/// the reference is the left operand).
bool passesCompare(uint32_t op, double ref, double texel) {
  switch (op) {
  case 0: // NEVER
    return false;
  case 1: // LESS
    return ref < texel;
  case 2: // EQUAL
    return ref == texel;
  case 3: // LESS_OR_EQUAL
    return ref <= texel;
  case 4: // GREATER
    return ref > texel;
  case 5: // NOT_EQUAL
    return ref != texel;
  case 6: // GREATER_OR_EQUAL
    return ref >= texel;
  default: // ALWAYS
    return true;
  }
}

/// int64_t(std::floor(x)) without the library call (std::floor is one
/// without SSE4.1) for |x| < 2^62, as the 2D fast path's coordinates are.
int64_t floorToInteger(double x) {
  int64_t truncated = int64_t(x);
  return truncated - (double(truncated) > x);
}

/// Two doubles in one SSE register (GCC and Clang vector extension).
typedef double Double2 __attribute__((vector_size(16)));

/// Component c of an 8-bit UNORM texel of `components` components
/// (missing ones read as (0, 0, 0, 1)).
double unorm8Component(const uint8_t *texel, unsigned components, unsigned c) {
  return c < components ? getUnorm8Values()[texel[c]] : c == 3 ? 1.0 : 0.0;
}

/// Bilinear filtering of four 8-bit UNORM texels, (i0, j0), (i1, j0),
/// (i0, j1), (i1, j1), with weights `a` and `b` of the upper neighbours:
/// the general loop's sums in the same order, kept in registers.
void filterUnorm8(const uint8_t *const corner[4], unsigned components, double a,
                  double b, double *result) {
  const double weight[4] = {(1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b};
  if (components == 4) {
    // Two components per vector, each summed in the same order.
    const double *values = getUnorm8Values();
    Double2 low = {0, 0}, high = {0, 0};
    for (unsigned k = 0; k < 4; ++k) {
      const uint8_t *texel = corner[k];
      Double2 w = {weight[k], weight[k]};
      low += w * Double2{values[texel[0]], values[texel[1]]};
      high += w * Double2{values[texel[2]], values[texel[3]]};
    }
    std::memcpy(result, &low, sizeof(low));
    std::memcpy(result + 2, &high, sizeof(high));
    return;
  }
  for (unsigned c = 0; c < 4; ++c) {
    double sum = 0;
    for (unsigned k = 0; k < 4; ++k)
      sum += weight[k] * unorm8Component(corner[k], components, c);
    result[c] = sum;
  }
}

/// One level and layer of an image as sampling reads it: texel addresses
/// are computed once per sample, not per texel.
class Footprint {
public:
  Footprint(const spvb_image &image, const ImageFormat &format,
            const spvb_sampler &sampler, int64_t layer, uint32_t level,
            unsigned dims, std::optional<double> dref)
      : image(image), format(format), sampler(sampler), layer(layer),
        level(level), dims(dims), dref(dref) {
    uint64_t samples = std::max<uint32_t>(1, image.samples);
    uint64_t offset = 0;
    for (uint32_t l = 0; l < level && l < image.levels; ++l)
      offset += levelExtent(image, 0, l) * levelExtent(image, 1, l) *
                levelExtent(image, 2, l) * image.layers * samples;
    for (unsigned d = 0; d < 3; ++d)
      extent[d] = int64_t(levelExtent(image, d, level));
    stride[0] = samples * format.texelBytes;
    stride[1] = stride[0] * extent[0];
    stride[2] = stride[1] * extent[1];
    uint64_t start = (offset + uint64_t(layer) * extent[2] * extent[1] *
                                   extent[0] * samples) *
                     format.texelBytes;
    // A level that lies whole within the data is read directly; anything
    // else (a layer or level past the end of a short image) texel by texel
    // through locateTexel, which reads zeros outside.
    if (level < image.levels && layer >= 0 && uint64_t(layer) < image.layers &&
        start + stride[2] * extent[2] <= image.size)
      base = image.data + start;
    unorm8 = format.kind == NumericKind::Unorm && !format.vulkan &&
             format.texelBytes == format.components;
  }

  Texel fetch(int64_t x, int64_t y, int64_t z) const {
    Texel texel;
    fetchInto(x, y, z, texel);
    return texel;
  }

  /// Linear filtering at integer coordinates `i0` with weights `alpha`
  /// of the upper neighbours: each axis is wrapped once (two coordinates),
  /// not once per corner.
  Texel filterLinear(const int64_t *i0, const double *alpha) const {
    int64_t position[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    bool inside[3][2] = {{true, true}, {true, true}, {true, true}};
    for (unsigned d = 0; d < dims; ++d)
      for (unsigned h = 0; h < 2; ++h) {
        position[d][h] = i0[d] + h;
        inside[d][h] = wrapAxis(position[d][h], d);
      }
    Texel result;
    if (dims == 2 && unorm8 && !dref && base && inside[0][0] && inside[0][1] &&
        inside[1][0] && inside[1][1]) {
      const uint8_t *corner[4];
      for (unsigned k = 0; k < 4; ++k)
        corner[k] = base + position[0][k & 1] * stride[0] +
                    position[1][k >> 1] * stride[1];
      filterUnorm8(corner, format.components, alpha[0], alpha[1], result.f);
      return result;
    }
    for (int c = 0; c < 4; ++c)
      result.f[c] = 0;
    unsigned corners = 1u << dims;
    for (unsigned corner = 0; corner < corners; ++corner) {
      double weight = 1;
      int64_t at[3] = {0, 0, 0};
      bool border = false;
      for (unsigned d = 0; d < dims; ++d) {
        unsigned high = (corner >> d) & 1;
        at[d] = position[d][high];
        border |= !inside[d][high];
        weight *= high ? alpha[d] : 1 - alpha[d];
      }
      Texel texel;
      if (border)
        texel = compared(borderTexel(sampler.border_color));
      else
        texel = compared(read(at[0], at[1], at[2]));
      for (unsigned c = 0; c < 4; ++c)
        result.f[c] += weight * texel.f[c];
    }
    return result;
  }

private:
  /// The texel at wrapped coordinates (zero past the end of a short image).
  Texel read(int64_t x, int64_t y, int64_t z) const {
    const uint8_t *bytes =
        base ? base + x * stride[0] + y * stride[1] + z * stride[2]
             : locateTexel(image, format, x, y, z, layer, level, 0);
    return bytes ? decodeTexel(format, bytes) : Texel();
  }

  /// Depth-compare sampling: (1 or 0, 0, 0, 1).
  Texel compared(const Texel &texel) const {
    if (!dref)
      return texel;
    Texel result;
    result.f[0] = passesCompare(sampler.compare_op, *dref, texel.f[0]);
    return result;
  }

  /// Applies axis d's address mode; false on the border.
  bool wrapAxis(int64_t &i, unsigned d) const {
    return uint64_t(i) < uint64_t(extent[d]) ||
           wrap(i, extent[d], sampler.address_mode[d]);
  }

  void fetchInto(int64_t x, int64_t y, int64_t z, Texel &texel) const {
    int64_t *position[3] = {&x, &y, &z};
    for (unsigned d = 0; d < dims; ++d)
      if (!wrapAxis(*position[d], d)) {
        texel = compared(borderTexel(sampler.border_color));
        return;
      }
    texel = compared(read(x, y, z));
  }

  const spvb_image &image;
  const ImageFormat &format;
  const spvb_sampler &sampler;
  int64_t layer;
  uint32_t level;
  unsigned dims;
  /// Depth-compare sampling: the reference every fetched texel is compared
  /// with (before filtering), giving (1 or 0, 0, 0, 1).
  std::optional<double> dref;
  int64_t extent[3];
  uint64_t stride[3];
  const uint8_t *base = nullptr;
  bool unorm8 = false;
};

/// Cube direction -> face and 2D coordinates in [0, 1] (Vulkan's cube map
/// face selection table).
void selectCubeFace(const double *direction, double &s, double &t, int &face) {
  double x = direction[0], y = direction[1], z = direction[2];
  double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double sc, tc, ma;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    sc = x >= 0 ? -z : z;
    tc = -y;
    ma = ax;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    sc = x;
    tc = y >= 0 ? z : -z;
    ma = ay;
  } else {
    face = z >= 0 ? 4 : 5;
    sc = z >= 0 ? x : -x;
    tc = -y;
    ma = az;
  }
  if (ma == 0)
    ma = 1;
  s = 0.5 * (sc / ma + 1);
  t = 0.5 * (tc / ma + 1);
}

Texel mix(const Texel &a, const Texel &b, double weight) {
  Texel result;
  for (int c = 0; c < 4; ++c)
    result.f[c] = a.f[c] * (1 - weight) + b.f[c] * weight;
  return result;
}

/// The filter and the one or two mip levels a sample reads (Vulkan's
/// "Level-of-Detail Operation" and "Image Level(s) Selection").
struct LevelChoice {
  uint32_t filter;
  uint32_t levels[2];
  /// The weight of levels[1] (linear mipmapping), else 0.
  double weight;
};

LevelChoice chooseLevels(const spvb_image &image, const spvb_sampler &sampler,
                         const SampleRequest &request, unsigned dims,
                         bool integer) {
  bool unnormalized = sampler.unnormalized_coordinates != 0;
  double lambda = request.lod;
  if (request.hasGradients) {
    double x2 = 0, y2 = 0;
    for (unsigned d = 0; d < dims; ++d) {
      double scale = unnormalized ? 1 : double(image.extent[d]);
      double dx = request.dx[d] * scale, dy = request.dy[d] * scale;
      x2 += dx * dx;
      y2 += dy * dy;
    }
    double rho = std::sqrt(std::max(x2, y2));
    lambda = rho > 0 ? std::log2(rho) : -INFINITY;
  }
  lambda += sampler.mip_lod_bias + request.bias;
  lambda =
      std::clamp(lambda, double(sampler.min_lod),
                 std::max(double(sampler.min_lod), double(sampler.max_lod)));
  lambda = std::max(lambda, request.minLod);
  LevelChoice choice;
  bool magnify = lambda <= 0;
  choice.filter = magnify ? sampler.mag_filter : sampler.min_filter;
  if (integer)
    choice.filter = kNearest;

  double maxLevel = unnormalized ? 0 : double(image.levels - 1);
  double level = std::clamp(lambda, 0.0, maxLevel);
  choice.weight = 0;
  if (sampler.mipmap_mode == kLinear && !integer) {
    choice.levels[0] = uint32_t(std::floor(level));
    choice.levels[1] =
        std::min<uint32_t>(choice.levels[0] + 1, uint32_t(maxLevel));
    choice.weight = level - std::floor(level);
  } else {
    choice.levels[0] = choice.levels[1] =
        level <= 0.5 ? 0 : uint32_t(std::ceil(level + 0.5) - 1);
  }
  if (request.gatherComponent >= 0)
    choice.levels[0] = choice.levels[1] = 0;
  return choice;
}

/// What chooseLevels and the level offsets of a 2D sample depend on, as
/// words (floating-point values as bits): `f(i, word)` for each. Compared
/// word by word in registers (a key built in memory and compared as a
/// block stalls on store forwarding, and memcmp is a call).
constexpr unsigned kLevelKeyWords = 14;
template <typename F>
static void forEachLevelKeyWord(const spvb_image &image,
                                const spvb_sampler &sampler,
                                const SampleRequest &request, F f) {
  auto pair = [](uint32_t low, uint32_t high) {
    return low | uint64_t(high) << 32;
  };
  f(0, pair(image.extent[0], image.extent[1]));
  f(1, pair(image.levels, image.format));
  f(2, image.size);
  f(3, pair(sampler.mag_filter, sampler.min_filter));
  f(4, pair(sampler.mipmap_mode, sampler.unnormalized_coordinates));
  f(5, pair(llvm::bit_cast<uint32_t>(sampler.mip_lod_bias),
            llvm::bit_cast<uint32_t>(sampler.min_lod)));
  f(6, pair(llvm::bit_cast<uint32_t>(sampler.max_lod), request.hasGradients));
  f(7, llvm::bit_cast<uint64_t>(request.lod));
  f(8, llvm::bit_cast<uint64_t>(request.bias));
  f(9, llvm::bit_cast<uint64_t>(request.minLod));
  f(10, llvm::bit_cast<uint64_t>(request.dx[0]));
  f(11, llvm::bit_cast<uint64_t>(request.dx[1]));
  f(12, llvm::bit_cast<uint64_t>(request.dy[0]));
  f(13, llvm::bit_cast<uint64_t>(request.dy[1]));
}

/// The levels a 2D sample reads and where they start.
struct LevelMemo {
  uint64_t key[kLevelKeyWords];
  bool valid = false;
  LevelChoice choice;
  /// Byte offsets of choice.levels; whether both lie within the image.
  uint64_t offsets[2];
  bool readable;
};

} // namespace

const LevelTable &
spvb::runtime::sampling::getLevelTable(const spvb_image &image,
                                       uint32_t texelBytes) {
  static thread_local LevelTable table;
  if (table.data == image.data && table.size == image.size &&
      table.extent[0] == image.extent[0] &&
      table.extent[1] == image.extent[1] && table.levels == image.levels &&
      table.texelBytes == texelBytes)
    return table;
  table.data = image.data;
  table.size = image.size;
  table.extent[0] = image.extent[0];
  table.extent[1] = image.extent[1];
  table.levels = image.levels;
  table.texelBytes = texelBytes;
  table.readable = 0;
  for (unsigned d = 0; d < 2; ++d)
    table.coordinateLimit[d] = float(1 << 18) / float(image.extent[d]);
  uint64_t offset = 0;
  for (uint32_t level = 0;
       level < image.levels && level < LevelTable::kMaxLevels; ++level) {
    uint64_t width = levelExtent(image, 0, level);
    uint64_t height = levelExtent(image, 1, level);
    uint64_t end = offset + width * height * texelBytes;
    if (end > image.size)
      break;
    table.width[level] = int32_t(width);
    table.height[level] = int32_t(height);
    table.offset[level] = offset;
    table.offset32[level] = int32_t(offset);
    table.readable = level + 1;
    offset = end;
  }
  return table;
}

namespace {

/// chooseLevels for a 2D sample, and the levels' offsets. A quad's four
/// invocations share their gradients (coarse derivatives) and so their
/// levels: the last choice is kept per thread.
const LevelMemo &chooseLevelsOnce(const spvb_image &image,
                                  const ImageFormat &format,
                                  const spvb_sampler &sampler,
                                  const SampleRequest &request) {
  static thread_local LevelMemo memo;
  uint64_t differ = 0;
  forEachLevelKeyWord(image, sampler, request, [&](unsigned i, uint64_t word) {
    differ |= word ^ memo.key[i];
  });
  if (memo.valid && !differ)
    return memo;
  forEachLevelKeyWord(image, sampler, request,
                      [&](unsigned i, uint64_t word) { memo.key[i] = word; });
  memo.valid = true;
  LevelChoice &choice = memo.choice;
  choice = chooseLevels(image, sampler, request, 2, /*integer=*/false);
  const LevelTable &table = getLevelTable(image, format.texelBytes);
  memo.readable = std::max(choice.levels[0], choice.levels[1]) < table.readable;
  if (memo.readable)
    for (unsigned k = 0; k < 2; ++k)
      memo.offsets[k] = table.offset[choice.levels[k]];
  return memo;
}

/// Most sampling in draws reads a 2D texture of 8-bit UNORM texels: that
/// case specialized, with the general path's arithmetic in the same order
/// (bit-identical results), wrapping each axis once and reading texels
/// from the level's bytes. False when the request needs the general path.
bool sampleUnorm8Image2D(const spvb_image &image, const ImageFormat &format,
                         const spvb_sampler &sampler,
                         const SampleRequest &request, Texel &result) {
  if (image.dim != spv::Dim2D || request.coordinateCount != 2 ||
      image.layers != 1 || image.samples > 1 || request.gatherComponent >= 0 ||
      request.dref || request.offset[0] != 0 || request.offset[1] != 0 ||
      sampler.unnormalized_coordinates ||
      sampler.address_mode[0] == kClampToBorder ||
      sampler.address_mode[1] == kClampToBorder ||
      format.kind != NumericKind::Unorm || format.vulkan ||
      format.texelBytes != format.components ||
      // Coordinates whose texel index overflows go the general way.
      !(std::fabs(request.coordinate[0]) < 1e9) ||
      !(std::fabs(request.coordinate[1]) < 1e9))
    return false;
  const LevelMemo &levels = chooseLevelsOnce(image, format, sampler, request);
  if (!levels.readable)
    return false;
  const LevelChoice &choice = levels.choice;
  const uint64_t *offsets = levels.offsets;

  auto filterAt = [&](unsigned k, double *out) {
    uint32_t level = choice.levels[k];
    int64_t extent[2] = {int64_t(levelExtent(image, 0, level)),
                         int64_t(levelExtent(image, 1, level))};
    const uint8_t *base = image.data + offsets[k];
    uint64_t stride[2] = {format.texelBytes,
                          uint64_t(extent[0]) * format.texelBytes};
    auto wrapAxis = [&](int64_t &i, unsigned d) {
      if (uint64_t(i) >= uint64_t(extent[d]))
        wrap(i, extent[d], sampler.address_mode[d]);
    };
    if (choice.filter != kLinear) {
      int64_t position[2];
      for (unsigned d = 0; d < 2; ++d) {
        position[d] = floorToInteger(request.coordinate[d] * double(extent[d]));
        wrapAxis(position[d], d);
      }
      const uint8_t *texel =
          base + position[0] * stride[0] + position[1] * stride[1];
      for (unsigned c = 0; c < 4; ++c)
        out[c] = unorm8Component(texel, format.components, c);
      return;
    }
    int64_t position[2][2];
    double alpha[2];
    for (unsigned d = 0; d < 2; ++d) {
      double shifted = request.coordinate[d] * double(extent[d]) - 0.5;
      position[d][0] = floorToInteger(shifted);
      position[d][1] = position[d][0] + 1;
      alpha[d] = shifted - double(position[d][0]);
      wrapAxis(position[d][0], d);
      wrapAxis(position[d][1], d);
    }
    const uint8_t *corner[4];
    for (unsigned j = 0; j < 4; ++j)
      corner[j] = base + position[0][j & 1] * stride[0] +
                  position[1][j >> 1] * stride[1];
    filterUnorm8(corner, format.components, alpha[0], alpha[1], out);
  };
  filterAt(0, result.f);
  if (choice.levels[1] == choice.levels[0] || choice.weight == 0)
    return true;
  double high[4];
  filterAt(1, high);
  // Two components per vector, as filterUnorm8 writes them (stores and
  // loads of one width forward).
  Double2 weight = {choice.weight, choice.weight}, rest = 1 - weight;
  for (unsigned c = 0; c < 4; c += 2) {
    Double2 low, up;
    std::memcpy(&low, result.f + c, sizeof(low));
    std::memcpy(&up, high + c, sizeof(up));
    low = low * rest + up * weight;
    std::memcpy(result.f + c, &low, sizeof(low));
  }
  return true;
}

/// Eight lanes of single-precision values and of 32-bit integers.
typedef float Float8 __attribute__((vector_size(32)));
typedef int32_t Int8 __attribute__((vector_size(32)));
constexpr unsigned kFilterLanes = 8;

/// What filterRgba8 samples in each lane of a four-component 8-bit UNORM
/// image: where, the level it reads, and the one it blends in by `weight`.
struct Rgba8Lanes {
  alignas(32) float u[kFilterLanes], v[kFilterLanes], weight[kFilterLanes];
  alignas(32) int32_t level[2][kFilterLanes];
  /// Whether every lane reads the same levels (those of lane 0).
  bool sameLevels;
};

/// Trilinear filtering of eight lanes: bilinear at level[0], and where
/// `blend`, at level[1] mixed in by `weight`; component c, in [0, 1], to
/// results[c * stride + l] for each lane l of `taken`. `repeat[d]` wraps axis
/// d by masking (power-of-two extents); otherwise it clamps to the edge.
/// Levels are in `table`, with 32-bit offsets. Built for AVX2 and for the
/// baseline, chosen when the program loads.
__attribute__((target_clones("avx2", "default"))) void
filterRgba8(const uint8_t *data, const LevelTable &table,
            const Rgba8Lanes &lanes, bool blend, const bool *repeat,
            uint64_t taken, float *results, unsigned stride) {
  // Values cross into and out of vectors by memcpy: no function here
  // takes or returns a vector, whose ABI differs between the clones.
  Float8 sums[2][4];
  Float8 u, v;
  std::memcpy(&u, lanes.u, sizeof(u));
  std::memcpy(&v, lanes.v, sizeof(v));
  for (unsigned k = 0; k < (blend ? 2u : 1u); ++k) {
    Int8 level, w = {}, h = {}, offset = {};
    std::memcpy(&level, lanes.level[k], sizeof(level));
    if (lanes.sameLevels) {
      w += int32_t(table.width[level[0]]);
      h += int32_t(table.height[level[0]]);
      offset += table.offset32[level[0]];
    } else {
      for (unsigned lane = 0; lane < kFilterLanes; ++lane) {
        w[lane] = int32_t(table.width[level[lane]]);
        h[lane] = int32_t(table.height[level[lane]]);
        offset[lane] = table.offset32[level[lane]];
      }
    }
    Int8 lastX = w - 1, lastY = h - 1, pitch = w * 4;
    Float8 x = u * __builtin_convertvector(w, Float8) - 0.5f;
    Float8 y = v * __builtin_convertvector(h, Float8) - 0.5f;
    // floor: truncate, then step down where that rounded up.
    Int8 ix = __builtin_convertvector(x, Int8);
    Int8 iy = __builtin_convertvector(y, Int8);
    ix += __builtin_convertvector(ix, Float8) > x;
    iy += __builtin_convertvector(iy, Float8) > y;
    Float8 a = x - __builtin_convertvector(ix, Float8);
    Float8 b = y - __builtin_convertvector(iy, Float8);
    Int8 x0 = ix, x1 = ix + 1, y0 = iy, y1 = iy + 1;
    // No templates here: Clang leaves their instances in a function it
    // clones undefined.
    Int8 *axes[4] = {&x0, &x1, &y0, &y1};
    for (unsigned i = 0; i < 4; ++i) {
      Int8 &value = *axes[i];
      Int8 last = i < 2 ? lastX : lastY;
      if (repeat[i / 2]) {
        value &= last;
        continue;
      }
      value = value < 0 ? Int8{} : value;
      value = value > last ? last : value;
    }
    Int8 row0 = offset + y0 * pitch, row1 = offset + y1 * pitch;
    x0 *= 4;
    x1 *= 4;
    const Int8 corners[4] = {row0 + x0, row0 + x1, row1 + x0, row1 + x1};
    Int8 texels[4];
    for (unsigned c = 0; c < 4; ++c) {
      alignas(32) int32_t words[kFilterLanes];
      for (unsigned lane = 0; lane < kFilterLanes; ++lane)
        std::memcpy(&words[lane], data + corners[c][lane], sizeof(words[lane]));
      std::memcpy(&texels[c], words, sizeof(words));
    }
    for (unsigned c = 0; c < 4; ++c) {
      Float8 t[4];
      for (unsigned j = 0; j < 4; ++j)
        t[j] = __builtin_convertvector((texels[j] >> (8 * c)) & 0xff, Float8);
      Float8 top = t[0] + a * (t[1] - t[0]);
      Float8 bottom = t[2] + a * (t[3] - t[2]);
      sums[k][c] = top + b * (bottom - top);
    }
  }
  Float8 weight;
  std::memcpy(&weight, lanes.weight, sizeof(weight));
  for (unsigned c = 0; c < 4; ++c) {
    Float8 value = sums[0][c];
    if (blend)
      value += weight * (sums[1][c] - value);
    value /= 255.0f;
    float *row = results + c * stride;
    if (taken == (uint64_t(1) << kFilterLanes) - 1) {
      std::memcpy(row, &value, sizeof(value));
      continue;
    }
    alignas(32) float values[kFilterLanes];
    std::memcpy(values, &value, sizeof(value));
    for (unsigned lane = 0; lane < kFilterLanes; ++lane)
      if (taken >> lane & 1)
        row[lane] = values[lane];
  }
}

/// The one or two levels a lane reads and the weight of the second, as
/// chooseLevels chooses them for linear filtering, in single precision.
struct LaneLevels {
  int32_t levels[2];
  float weight;
  /// False: a NaN level of detail, or a level past the data.
  bool valid;
};

LaneLevels chooseLaneLevels(const spvb_image &image,
                            const spvb_sampler &sampler, uint32_t imageOperands,
                            const float *at, unsigned stride,
                            uint32_t readable) {
  auto input = [&](unsigned row) { return at[row * stride]; };
  float lambda = imageOperands & spv::ImageOperandsLodMask ? input(3) : 0;
  if (imageOperands & spv::ImageOperandsGradMask) {
    float width = float(image.extent[0]), height = float(image.extent[1]);
    float dx[2] = {input(4) * width, input(5) * height};
    float dy[2] = {input(6) * width, input(7) * height};
    float x2 = dx[0] * dx[0] + dx[1] * dx[1];
    float y2 = dy[0] * dy[0] + dy[1] * dy[1];
    float rho2 = std::max(x2, y2);
    // log2(sqrt(rho2)), without the square root.
    lambda = rho2 > 0 ? 0.5f * std::log2(rho2) : rho2 == 0 ? -INFINITY : rho2;
  }
  lambda += sampler.mip_lod_bias +
            (imageOperands & spv::ImageOperandsBiasMask ? input(2) : 0.0f);
  LaneLevels choice{{0, 0}, 0, false};
  if (lambda != lambda)
    return choice;
  lambda = std::clamp(lambda, sampler.min_lod,
                      std::max(sampler.min_lod, sampler.max_lod));
  float level = std::clamp(lambda, 0.0f, float(image.levels - 1));
  // level >= 0: truncation is floor.
  uint32_t whole = uint32_t(level);
  if (sampler.mipmap_mode == kLinear) {
    choice.levels[0] = int32_t(whole);
    choice.levels[1] = int32_t(std::min(whole + 1, image.levels - 1));
    choice.weight = level - float(whole);
  } else {
    // ceil(level + 0.5) - 1 above 0.5.
    float half = level + 0.5f;
    uint32_t ceiling = uint32_t(half) + (float(uint32_t(half)) < half);
    choice.levels[0] = choice.levels[1] =
        level <= 0.5f ? 0 : int32_t(ceiling - 1);
  }
  choice.valid = uint32_t(choice.levels[1]) < readable &&
                 uint32_t(choice.levels[0]) < readable;
  return choice;
}

/// sampleRgba8Lanes for the lanes [first, first + count), count at most
/// kFilterLanes.
uint64_t sampleRgba8Group(const spvb_image &image, const spvb_sampler &sampler,
                          uint32_t imageOperands, const float *inputs,
                          unsigned stride, unsigned count, uint64_t active,
                          float *results) {
  const LevelTable &table = getLevelTable(image, 4);
  if (count == kFilterLanes && hasAvx2Sampling())
    return sampleRgba8GroupAvx2(image, sampler, table, imageOperands, inputs,
                                stride, active, results);
  const float *limit = table.coordinateLimit;
  const bool repeat[2] = {sampler.address_mode[0] == kRepeat,
                          sampler.address_mode[1] == kRepeat};
  // The rows of inputs the level choice reads: bias, lod, the gradients.
  unsigned rows[6], rowCount = 0;
  if (imageOperands & spv::ImageOperandsBiasMask)
    rows[rowCount++] = 2;
  if (imageOperands & spv::ImageOperandsLodMask)
    rows[rowCount++] = 3;
  if (imageOperands & spv::ImageOperandsGradMask)
    for (unsigned row = 4; row < 8; ++row)
      rows[rowCount++] = row;
  // Lanes not taken sample level 0 at (0, 0), harmlessly.
  Rgba8Lanes lanes;
  uint64_t taken = 0;
  for (unsigned lane = 0; lane < kFilterLanes; ++lane) {
    float u = lane < count ? inputs[lane] : 0;
    float v = lane < count ? inputs[stride + lane] : 0;
    bool take = (active >> lane & 1) && std::fabs(u) < limit[0] &&
                std::fabs(v) < limit[1];
    taken |= uint64_t(take) << lane;
    lanes.u[lane] = take ? u : 0;
    lanes.v[lane] = take ? v : 0;
  }
  auto sameInputs = [&](unsigned a, unsigned b) {
    for (unsigned i = 0; i < rowCount; ++i)
      if (llvm::bit_cast<uint32_t>(inputs[rows[i] * stride + a]) !=
          llvm::bit_cast<uint32_t>(inputs[rows[i] * stride + b]))
        return false;
    return true;
  };
  std::memset(lanes.level, 0, sizeof(lanes.level));
  std::memset(lanes.weight, 0, sizeof(lanes.weight));
  // Runs of lanes with the same inputs share a choice: a quad's lanes have
  // the same gradients (coarse derivatives).
  bool blend = false;
  for (unsigned lane = 0; lane < count;) {
    if (!(taken >> lane & 1)) {
      ++lane;
      continue;
    }
    LaneLevels choice = chooseLaneLevels(image, sampler, imageOperands,
                                         inputs + lane, stride, table.readable);
    blend |= choice.levels[0] != choice.levels[1] && choice.weight != 0;
    unsigned first = lane;
    do {
      if (!(taken >> lane & 1))
        continue;
      if (!choice.valid) {
        taken &= ~(uint64_t(1) << lane);
        lanes.u[lane] = lanes.v[lane] = 0;
        continue;
      }
      lanes.level[0][lane] = choice.levels[0];
      lanes.level[1][lane] = choice.levels[1];
      lanes.weight[lane] = choice.weight;
    } while (++lane < count && sameInputs(lane, first));
  }
  if (!taken)
    return active;
  // Lanes not taken read the first taken lane's levels (at (0, 0),
  // harmlessly), so that most groups read one pair of levels.
  unsigned first = llvm::countr_zero(taken);
  lanes.sameLevels = true;
  for (unsigned lane = 0; lane < kFilterLanes; ++lane) {
    for (unsigned k = 0; k < 2; ++k) {
      if (!(taken >> lane & 1))
        lanes.level[k][lane] = lanes.level[k][first];
      lanes.sameLevels &= lanes.level[k][lane] == lanes.level[k][first];
    }
  }
  filterRgba8(image.data, table, lanes, blend, repeat, taken, results, stride);
  return active & ~taken;
}

} // namespace

uint8_t *spvb::runtime::locateTexel(const spvb_image &image,
                                    const ImageFormat &format, int64_t x,
                                    int64_t y, int64_t z, int64_t layer,
                                    uint32_t level, int64_t sample) {
  if (level >= image.levels || layer < 0 || uint64_t(layer) >= image.layers)
    return nullptr;
  // A zero-initialized descriptor that sets no count has one sample.
  uint64_t samples = std::max<uint32_t>(1, image.samples);
  if (sample < 0 || uint64_t(sample) >= samples)
    return nullptr;
  uint64_t offset = 0;
  for (uint32_t l = 0; l < level; ++l)
    offset += levelExtent(image, 0, l) * levelExtent(image, 1, l) *
              levelExtent(image, 2, l) * image.layers * samples;
  uint64_t extent[3] = {levelExtent(image, 0, level),
                        levelExtent(image, 1, level),
                        levelExtent(image, 2, level)};
  int64_t position[3] = {x, y, z};
  for (int d = 0; d < 3; ++d)
    if (position[d] < 0 || uint64_t(position[d]) >= extent[d])
      return nullptr;
  // Samples are innermost: a texel's samples are adjacent (kernel_abi.h).
  uint64_t index =
      offset +
      (((uint64_t(layer) * extent[2] + uint64_t(z)) * extent[1] + uint64_t(y)) *
           extent[0] +
       uint64_t(x)) *
          samples +
      uint64_t(sample);
  uint64_t byteOffset = index * format.texelBytes;
  if (byteOffset + format.texelBytes > image.size)
    return nullptr;
  return image.data + byteOffset;
}

Texel spvb::runtime::sampleImage(const spvb_image &image,
                                 const ImageFormat &format,
                                 const spvb_sampler *samplerOrNull,
                                 const SampleRequest &request) {
  spvb_sampler defaults{};
  defaults.address_mode[0] = defaults.address_mode[1] =
      defaults.address_mode[2] = kClampToEdge;
  defaults.max_lod = 1000;
  const spvb_sampler &sampler = samplerOrNull ? *samplerOrNull : defaults;
  Texel fast;
  if (sampleUnorm8Image2D(image, format, sampler, request, fast))
    return fast;
  bool integer =
      format.kind == NumericKind::Sint || format.kind == NumericKind::Uint;

  unsigned dims = getImageDimensions(image.dim);
  double coordinate[3] = {request.coordinate[0], request.coordinate[1],
                          request.coordinate[2]};
  int64_t layer = 0;
  if (image.dim == spv::DimCube) {
    double s, t;
    int face;
    selectCubeFace(request.coordinate, s, t, face);
    coordinate[0] = s;
    coordinate[1] = t;
    int64_t cube = request.coordinateCount > 3
                       ? int64_t(std::floor(request.coordinate[3] + 0.5))
                       : 0;
    layer = std::clamp<int64_t>(cube, 0, image.layers / 6 - 1) * 6 + face;
  } else if (request.coordinateCount > dims) {
    layer =
        std::clamp<int64_t>(int64_t(std::floor(request.coordinate[dims] + 0.5)),
                            0, int64_t(image.layers) - 1);
  }

  bool unnormalized = sampler.unnormalized_coordinates != 0;
  LevelChoice choice = chooseLevels(image, sampler, request, dims, integer);
  uint32_t filter = choice.filter;
  const uint32_t *levels = choice.levels;
  double levelWeight = choice.weight;
  // Without compare_enable a Dref instruction's result is undefined: the
  // stored value is returned. A fixed-point format's reference is clamped
  // to [0, 1] as its texels are.
  std::optional<double> dref;
  if (request.dref && sampler.compare_enable)
    dref = format.kind == NumericKind::Unorm
               ? std::clamp(*request.dref, 0.0, 1.0)
               : *request.dref;

  auto filterAt = [&](uint32_t mip) {
    Footprint footprint{image, format, sampler, layer, mip, dims, dref};
    double u[3];
    for (unsigned d = 0; d < 3; ++d)
      u[d] = d < dims
                 ? (unnormalized
                        ? coordinate[d]
                        : coordinate[d] * double(levelExtent(image, d, mip)))
                 : 0;
    if (request.gatherComponent >= 0 || filter == kLinear) {
      int64_t i0[3] = {0, 0, 0};
      double alpha[3] = {0, 0, 0};
      for (unsigned d = 0; d < dims; ++d) {
        double shifted = u[d] - 0.5;
        i0[d] = int64_t(std::floor(shifted)) + request.offset[d];
        alpha[d] = shifted - std::floor(shifted);
      }
      if (request.gatherComponent >= 0) {
        // (i0, j1), (i1, j1), (i1, j0), (i0, j0).
        int c = std::clamp(request.gatherComponent, 0, 3);
        const int corners[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
        Texel result;
        for (int k = 0; k < 4; ++k) {
          Texel t =
              footprint.fetch(i0[0] + corners[k][0], i0[1] + corners[k][1], 0);
          result.f[k] = t.f[c];
          result.i[k] = t.i[c];
        }
        return result;
      }
      return footprint.filterLinear(i0, alpha);
    }
    int64_t position[3] = {0, 0, 0};
    for (unsigned d = 0; d < dims; ++d)
      position[d] = int64_t(std::floor(u[d])) + request.offset[d];
    return footprint.fetch(position[0], position[1], position[2]);
  };

  Texel low = filterAt(levels[0]);
  if (levels[1] == levels[0] || levelWeight == 0)
    return low;
  return mix(low, filterAt(levels[1]), levelWeight);
}

SampleRequest spvb::runtime::makeSample2Request(uint32_t imageOperands,
                                                const float *inputs,
                                                unsigned stride) {
  auto input = [&](unsigned row) { return double(inputs[row * stride]); };
  SampleRequest request;
  request.coordinateCount = 2;
  request.coordinate[0] = input(0);
  request.coordinate[1] = input(1);
  if (imageOperands & spv::ImageOperandsBiasMask)
    request.bias = input(2);
  if (imageOperands & spv::ImageOperandsLodMask)
    request.lod = input(3);
  if (imageOperands & spv::ImageOperandsGradMask) {
    request.hasGradients = true;
    request.dx[0] = input(4);
    request.dx[1] = input(5);
    request.dy[0] = input(6);
    request.dy[1] = input(7);
  }
  return request;
}

/// sampleRgba8Lanes for nearest filtering of an image of one level: every
/// lane reads level 0, whatever its level of detail, so none is chosen.
/// The texel is the general path's (the same coordinate arithmetic in
/// double); lanes whose coordinates are out of its range are left.
static uint64_t sampleRgba8Nearest(const spvb_image &image,
                                   const spvb_sampler &sampler,
                                   const float *inputs, unsigned lanes,
                                   uint64_t active, float *results) {
  const double *values = getUnorm8Values();
  const int64_t extent[2] = {int64_t(image.extent[0]),
                             int64_t(image.extent[1])};
  uint64_t left = 0;
  for (uint64_t group = active; group; group &= group - 1) {
    unsigned lane = llvm::countr_zero(group);
    int64_t position[2];
    bool inRange = true;
    for (unsigned d = 0; d < 2; ++d) {
      double u = inputs[d * lanes + lane];
      inRange &= std::fabs(u) < 1e9;
      position[d] = inRange ? floorToInteger(u * double(extent[d])) : 0;
      if (uint64_t(position[d]) >= uint64_t(extent[d]))
        wrap(position[d], extent[d], sampler.address_mode[d]);
    }
    if (!inRange) {
      left |= uint64_t(1) << lane;
      continue;
    }
    const uint8_t *texel =
        image.data + 4 * (uint64_t(position[1]) * extent[0] + position[0]);
    for (unsigned c = 0; c < 4; ++c)
      results[c * lanes + lane] = float(values[texel[c]]);
  }
  return left;
}

uint64_t spvb::runtime::sampleRgba8Lanes(const spvb_image &image,
                                         const ImageFormat &format,
                                         const spvb_sampler *sampler,
                                         uint32_t imageOperands,
                                         const float *inputs, unsigned lanes,
                                         uint64_t active, float *results) {
  // Repeat masks, so needs power-of-two extents (then every level's is);
  // byte offsets are 32-bit.
  auto addressable = [&](unsigned d) {
    uint32_t mode = sampler->address_mode[d];
    return mode == kClampToEdge ||
           (mode == kRepeat && llvm::has_single_bit(image.extent[d]));
  };
  if (!sampler || image.dim != spv::Dim2D || image.layers != 1 ||
      image.samples > 1 || format.kind != NumericKind::Unorm || format.vulkan ||
      format.components != 4 || format.texelBytes != 4 ||
      sampler->unnormalized_coordinates)
    return active;
  if (sampler->mag_filter == kNearest && sampler->min_filter == kNearest &&
      image.levels == 1 && image.extent[0] && image.extent[1] &&
      sampler->address_mode[0] != kClampToBorder &&
      sampler->address_mode[1] != kClampToBorder)
    return sampleRgba8Nearest(image, *sampler, inputs, lanes, active, results);
  if (sampler->mag_filter != kLinear || sampler->min_filter != kLinear ||
      image.levels == 0 || image.size >= (uint64_t(1) << 31) ||
      image.extent[0] == 0 || image.extent[1] == 0 || !addressable(0) ||
      !addressable(1))
    return active;
  uint64_t left = 0;
  for (unsigned first = 0; first < lanes && first < 64; first += kFilterLanes) {
    unsigned count = std::min(lanes - first, kFilterLanes);
    uint64_t group = (active >> first) & ((uint64_t(1) << count) - 1);
    if (group)
      left |= sampleRgba8Group(image, *sampler, imageOperands, inputs + first,
                               lanes, count, group, results + first)
              << first;
  }
  return left;
}
