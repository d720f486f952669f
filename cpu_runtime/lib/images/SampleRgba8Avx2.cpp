//===- SampleRgba8Avx2.cpp - Eight lanes of an RGBA8 texture in AVX2 ------===//
//
// A draw's textures are mostly mipmapped 2D images of four 8-bit UNORM
// components filtered linearly. This samples eight lanes of one at once in
// AVX2 registers: each lane's level of detail and levels (chooseLaneLevels'
// arithmetic), texel indices, four gathers a level and the filter in single
// precision with fused multiply-adds. Nothing passes through memory but the
// logarithm's operands and the texels.
//
//===----------------------------------------------------------------------===//
#include "LaneSampling.h"

#include "llvm/ADT/bit.h"

#include <spirv/unified1/spirv.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace spvb::runtime::sampling;

#if defined(__x86_64__)

bool spvb::runtime::sampling::hasAvx2Sampling() {
  static const bool avx2 =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2;
}

#define SPVB_AVX2 __attribute__((target("avx2,fma")))
#define SPVB_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline))

namespace {

/// The levels each lane reads, the weight of the second, and which lanes
/// have a level of detail that is a number and levels within the data.
struct LaneLevels {
  __m256i levels[2];
  __m256 weight;
  __m256 valid;
};

SPVB_AVX2_INLINE inline __m256 loadRow(const float *inputs, unsigned stride,
                                       unsigned row) {
  return _mm256_loadu_ps(inputs + row * stride);
}

/// 0.5 * log2(x) for eight lanes: for normal x, from the exponent and
/// the series of atanh (exact for powers of two, within a few units in the
/// last place otherwise); 0 gives -inf, and other lanes (subnormal,
/// infinite, NaN) take libm's logarithm one by one, as chooseLaneLevels.
SPVB_AVX2_INLINE inline __m256 halfLog2(__m256 x) {
  __m256 normal =
      _mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(FLT_MIN), _CMP_GE_OQ),
                    _mm256_cmp_ps(x, _mm256_set1_ps(FLT_MAX), _CMP_LE_OQ));
  __m256 zero = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_EQ_OQ);
  if (_mm256_movemask_ps(_mm256_or_ps(normal, zero)) != 0xff) {
    alignas(32) float values[8];
    _mm256_store_ps(values, x);
    for (float &value : values)
      value = value > 0    ? 0.5f * std::log2(value)
              : value == 0 ? -INFINITY
                           : value;
    return _mm256_load_ps(values);
  }
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)).
  __m256i bits = _mm256_castps_si256(x);
  __m256i exponent =
      _mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(127));
  __m256 m = _mm256_castsi256_ps(
      _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x7fffff)),
                      _mm256_set1_epi32(0x3f800000)));
  __m256 high = _mm256_cmp_ps(m, _mm256_set1_ps(float(M_SQRT2)), _CMP_GE_OQ);
  m = _mm256_blendv_ps(m, _mm256_mul_ps(m, _mm256_set1_ps(0.5f)), high);
  exponent = _mm256_sub_epi32(exponent, _mm256_castps_si256(high));
  // log2(m) = 2 / ln 2 * atanh(t), t = (m - 1) / (m + 1), |t| < 0.172.
  __m256 one = _mm256_set1_ps(1.0f);
  __m256 t = _mm256_div_ps(_mm256_sub_ps(m, one), _mm256_add_ps(m, one));
  __m256 t2 = _mm256_mul_ps(t, t);
  __m256 series =
      _mm256_fmadd_ps(t2, _mm256_set1_ps(1.0f / 9), _mm256_set1_ps(1.0f / 7));
  series = _mm256_fmadd_ps(series, t2, _mm256_set1_ps(1.0f / 5));
  series = _mm256_fmadd_ps(series, t2, _mm256_set1_ps(1.0f / 3));
  series = _mm256_fmadd_ps(series, t2, one);
  __m256 log2m =
      _mm256_mul_ps(_mm256_mul_ps(series, t), _mm256_set1_ps(float(2 / M_LN2)));
  __m256 log2x = _mm256_add_ps(_mm256_cvtepi32_ps(exponent), log2m);
  __m256 result = _mm256_mul_ps(log2x, _mm256_set1_ps(0.5f));
  return _mm256_blendv_ps(result, _mm256_set1_ps(-INFINITY), zero);
}

/// chooseLaneLevels (Sampling.cpp) for eight lanes, in registers.
SPVB_AVX2_INLINE inline LaneLevels
chooseLevels(const spvb_image &image, const spvb_sampler &sampler,
             uint32_t imageOperands, const float *inputs, unsigned stride,
             uint32_t readable) {
  __m256 lambda = imageOperands & spv::ImageOperandsLodMask
                      ? loadRow(inputs, stride, 3)
                      : _mm256_setzero_ps();
  if (imageOperands & spv::ImageOperandsGradMask) {
    __m256 width = _mm256_set1_ps(float(image.extent[0]));
    __m256 height = _mm256_set1_ps(float(image.extent[1]));
    __m256 dx0 = _mm256_mul_ps(loadRow(inputs, stride, 4), width);
    __m256 dx1 = _mm256_mul_ps(loadRow(inputs, stride, 5), height);
    __m256 dy0 = _mm256_mul_ps(loadRow(inputs, stride, 6), width);
    __m256 dy1 = _mm256_mul_ps(loadRow(inputs, stride, 7), height);
    __m256 x2 = _mm256_add_ps(_mm256_mul_ps(dx0, dx0), _mm256_mul_ps(dx1, dx1));
    __m256 y2 = _mm256_add_ps(_mm256_mul_ps(dy0, dy0), _mm256_mul_ps(dy1, dy1));
    // std::max(x2, y2): maxps returns its second operand for a NaN.
    __m256 rho2 = _mm256_max_ps(y2, x2);
    lambda = halfLog2(rho2);
  }
  __m256 bias = _mm256_set1_ps(sampler.mip_lod_bias);
  if (imageOperands & spv::ImageOperandsBiasMask)
    bias = _mm256_add_ps(bias, loadRow(inputs, stride, 2));
  lambda = _mm256_add_ps(lambda, bias);
  LaneLevels choice;
  choice.valid = _mm256_cmp_ps(lambda, lambda, _CMP_ORD_Q);
  // Both clamps as std::clamp has them for numbers; NaN lanes are invalid.
  lambda = _mm256_max_ps(lambda, _mm256_set1_ps(sampler.min_lod));
  lambda = _mm256_min_ps(
      lambda, _mm256_set1_ps(std::max(sampler.min_lod, sampler.max_lod)));
  __m256 level = _mm256_max_ps(lambda, _mm256_setzero_ps());
  level = _mm256_min_ps(level, _mm256_set1_ps(float(image.levels - 1)));
  __m256i last = _mm256_set1_epi32(int32_t(image.levels - 1));
  if (sampler.mipmap_mode == kLinear) {
    // level >= 0: truncation is floor.
    __m256i whole = _mm256_cvttps_epi32(level);
    choice.levels[0] = whole;
    choice.levels[1] =
        _mm256_min_epi32(_mm256_add_epi32(whole, _mm256_set1_epi32(1)), last);
    choice.weight = _mm256_sub_ps(level, _mm256_cvtepi32_ps(whole));
  } else {
    // ceil(level + 0.5) - 1 above 0.5.
    __m256 half = _mm256_add_ps(level, _mm256_set1_ps(0.5f));
    __m256i ceiling = _mm256_cvttps_epi32(_mm256_ceil_ps(half));
    __m256i nearest = _mm256_sub_epi32(ceiling, _mm256_set1_epi32(1));
    __m256 low = _mm256_cmp_ps(level, _mm256_set1_ps(0.5f), _CMP_LE_OQ);
    nearest = _mm256_andnot_si256(_mm256_castps_si256(low), nearest);
    choice.levels[0] = choice.levels[1] = nearest;
    choice.weight = _mm256_setzero_ps();
  }
  __m256i limit = _mm256_set1_epi32(int32_t(readable));
  __m256i within =
      _mm256_and_si256(_mm256_cmpgt_epi32(limit, choice.levels[0]),
                       _mm256_cmpgt_epi32(limit, choice.levels[1]));
  choice.valid = _mm256_and_ps(choice.valid, _mm256_castsi256_ps(within));
  return choice;
}

/// Component `c` of eight RGBA8 texels, as floats in [0, 255].
SPVB_AVX2_INLINE inline __m256 component(__m256i texels, unsigned c) {
  __m256i bits = _mm256_srli_epi32(texels, int(8 * c));
  if (c < 3)
    bits = _mm256_and_si256(bits, _mm256_set1_epi32(0xff));
  return _mm256_cvtepi32_ps(bits);
}

/// The texels at byte offsets `at` and 4 bytes further, for eight lanes:
/// two gathers of four 64-bit pairs (half the elements of four 32-bit
/// gathers), split into the left and right texels.
SPVB_AVX2_INLINE inline void gatherPairs(const uint8_t *data, __m256i at,
                                         __m256i &left, __m256i &right) {
  auto *base = reinterpret_cast<const long long *>(data);
  __m256 low = _mm256_castsi256_ps(
      _mm256_i32gather_epi64(base, _mm256_castsi256_si128(at), 1));
  __m256 high = _mm256_castsi256_ps(
      _mm256_i32gather_epi64(base, _mm256_extracti128_si256(at, 1), 1));
  // Within each 128-bit half: lanes 0, 1, 4, 5, then 2, 3, 6, 7; the
  // 64-bit permutation restores the order.
  __m256 even = _mm256_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0));
  __m256 odd = _mm256_shuffle_ps(low, high, _MM_SHUFFLE(3, 1, 3, 1));
  left = _mm256_permute4x64_epi64(_mm256_castps_si256(even),
                                  _MM_SHUFFLE(3, 1, 2, 0));
  right = _mm256_permute4x64_epi64(_mm256_castps_si256(odd),
                                   _MM_SHUFFLE(3, 1, 2, 0));
}

/// Bilinear filtering of eight lanes at `level` (one level for all when
/// `uniform` is not negative): components in [0, 255] to `sums`.
SPVB_AVX2_INLINE inline void filterLevel(const uint8_t *data,
                                         const LevelTable &table, __m256i level,
                                         int32_t uniform, __m256 u, __m256 v,
                                         const bool *repeat, __m256 sums[4]) {
  __m256i width, height, offset;
  if (uniform >= 0) {
    width = _mm256_set1_epi32(table.width[uniform]);
    height = _mm256_set1_epi32(table.height[uniform]);
    offset = _mm256_set1_epi32(table.offset32[uniform]);
  } else {
    width = _mm256_i32gather_epi32(table.width, level, 4);
    height = _mm256_i32gather_epi32(table.height, level, 4);
    offset = _mm256_i32gather_epi32(table.offset32, level, 4);
  }
  __m256 half = _mm256_set1_ps(0.5f);
  __m256 x = _mm256_fmsub_ps(u, _mm256_cvtepi32_ps(width), half);
  __m256 y = _mm256_fmsub_ps(v, _mm256_cvtepi32_ps(height), half);
  __m256 floorX = _mm256_floor_ps(x), floorY = _mm256_floor_ps(y);
  __m256 a = _mm256_sub_ps(x, floorX), b = _mm256_sub_ps(y, floorY);
  __m256i one = _mm256_set1_epi32(1);
  __m256i axes[4];
  axes[0] = _mm256_cvttps_epi32(floorX);
  axes[1] = _mm256_add_epi32(axes[0], one);
  axes[2] = _mm256_cvttps_epi32(floorY);
  axes[3] = _mm256_add_epi32(axes[2], one);
  for (unsigned i = 0; i < 4; ++i) {
    __m256i last = _mm256_sub_epi32(i < 2 ? width : height, one);
    // Repeat masks (power-of-two extents); otherwise clamp to the edge.
    axes[i] =
        repeat[i / 2]
            ? _mm256_and_si256(axes[i], last)
            : _mm256_min_epi32(
                  _mm256_max_epi32(axes[i], _mm256_setzero_si256()), last);
  }
  __m256i pitch = _mm256_slli_epi32(width, 2);
  __m256i row0 = _mm256_add_epi32(offset, _mm256_mullo_epi32(axes[2], pitch));
  __m256i row1 = _mm256_add_epi32(offset, _mm256_mullo_epi32(axes[3], pitch));
  __m256i x0 = _mm256_slli_epi32(axes[0], 2),
          x1 = _mm256_slli_epi32(axes[1], 2);
  __m256i texels[4];
  __m256i adjacent =
      _mm256_cmpeq_epi32(axes[1], _mm256_add_epi32(axes[0], one));
  if (_mm256_movemask_epi8(adjacent) == -1) {
    // Each row's two texels side by side: one 64-bit gather of both.
    gatherPairs(data, _mm256_add_epi32(row0, x0), texels[0], texels[1]);
    gatherPairs(data, _mm256_add_epi32(row1, x0), texels[2], texels[3]);
  } else {
    const int *base = reinterpret_cast<const int *>(data);
    texels[0] = _mm256_i32gather_epi32(base, _mm256_add_epi32(row0, x0), 1);
    texels[1] = _mm256_i32gather_epi32(base, _mm256_add_epi32(row0, x1), 1);
    texels[2] = _mm256_i32gather_epi32(base, _mm256_add_epi32(row1, x0), 1);
    texels[3] = _mm256_i32gather_epi32(base, _mm256_add_epi32(row1, x1), 1);
  }
  for (unsigned c = 0; c < 4; ++c) {
    __m256 t0 = component(texels[0], c), t1 = component(texels[1], c);
    __m256 t2 = component(texels[2], c), t3 = component(texels[3], c);
    __m256 top = _mm256_fmadd_ps(a, _mm256_sub_ps(t1, t0), t0);
    __m256 bottom = _mm256_fmadd_ps(a, _mm256_sub_ps(t3, t2), t2);
    sums[c] = _mm256_fmadd_ps(b, _mm256_sub_ps(bottom, top), top);
  }
}

/// Lane `lane` of `vector`.
SPVB_AVX2_INLINE inline int32_t extract(__m256i vector, unsigned lane) {
  alignas(32) int32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), vector);
  return lanes[lane];
}

} // namespace

SPVB_AVX2 uint64_t spvb::runtime::sampling::sampleRgba8GroupAvx2(
    const spvb_image &image, const spvb_sampler &sampler,
    const LevelTable &table, uint32_t imageOperands, const float *inputs,
    unsigned stride, uint64_t active, float *results) {
  __m256 u = loadRow(inputs, stride, 0), v = loadRow(inputs, stride, 1);
  // Lanes of `active` whose coordinates keep enough fraction bits.
  __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  __m256i on = _mm256_cmpeq_epi32(
      _mm256_and_si256(_mm256_set1_epi32(int32_t(active & 0xff)), bits), bits);
  __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  __m256 taken = _mm256_and_ps(
      _mm256_cmp_ps(_mm256_and_ps(u, magnitude),
                    _mm256_set1_ps(table.coordinateLimit[0]), _CMP_LT_OQ),
      _mm256_cmp_ps(_mm256_and_ps(v, magnitude),
                    _mm256_set1_ps(table.coordinateLimit[1]), _CMP_LT_OQ));
  taken = _mm256_and_ps(taken, _mm256_castsi256_ps(on));
  LaneLevels choice = chooseLevels(image, sampler, imageOperands, inputs,
                                   stride, table.readable);
  taken = _mm256_and_ps(taken, choice.valid);
  unsigned takenBits = unsigned(_mm256_movemask_ps(taken));
  if (!takenBits)
    return active;
  // Lanes not taken sample the first taken lane's levels at (0, 0),
  // harmlessly, so that most groups read one pair of levels.
  u = _mm256_and_ps(u, taken);
  v = _mm256_and_ps(v, taken);
  unsigned first = llvm::countr_zero(takenBits);
  __m256i takenInt = _mm256_castps_si256(taken);
  int32_t firstLevels[2];
  bool sameLevels = true;
  for (unsigned k = 0; k < 2; ++k) {
    firstLevels[k] = extract(choice.levels[k], first);
    __m256i broadcast = _mm256_set1_epi32(firstLevels[k]);
    choice.levels[k] =
        _mm256_blendv_epi8(broadcast, choice.levels[k], takenInt);
    sameLevels &= _mm256_movemask_epi8(
                      _mm256_cmpeq_epi32(choice.levels[k], broadcast)) == -1;
  }
  __m256 weight = _mm256_and_ps(choice.weight, taken);
  __m256i sameLevel = _mm256_cmpeq_epi32(choice.levels[0], choice.levels[1]);
  __m256 blending =
      _mm256_andnot_ps(_mm256_castsi256_ps(sameLevel),
                       _mm256_cmp_ps(weight, _mm256_setzero_ps(), _CMP_NEQ_UQ));
  bool blend = _mm256_movemask_ps(blending) != 0;

  const bool repeat[2] = {sampler.address_mode[0] == kRepeat,
                          sampler.address_mode[1] == kRepeat};
  __m256 sums[4];
  filterLevel(image.data, table, choice.levels[0],
              sameLevels ? firstLevels[0] : -1, u, v, repeat, sums);
  if (blend) {
    __m256 high[4];
    filterLevel(image.data, table, choice.levels[1],
                sameLevels ? firstLevels[1] : -1, u, v, repeat, high);
    for (unsigned c = 0; c < 4; ++c)
      sums[c] =
          _mm256_fmadd_ps(weight, _mm256_sub_ps(high[c], sums[c]), sums[c]);
  }
  __m256 scale = _mm256_set1_ps(255.0f);
  for (unsigned c = 0; c < 4; ++c) {
    __m256 value = _mm256_div_ps(sums[c], scale);
    float *row = results + c * stride;
    if (takenBits == 0xff)
      _mm256_storeu_ps(row, value);
    else
      _mm256_maskstore_ps(row, takenInt, value);
  }
  return active & ~uint64_t(takenBits);
}

#else

bool spvb::runtime::sampling::hasAvx2Sampling() { return false; }

uint64_t spvb::runtime::sampling::sampleRgba8GroupAvx2(
    const spvb_image &, const spvb_sampler &, const LevelTable &, uint32_t,
    const float *, unsigned, uint64_t active, float *) {
  return active;
}

#endif
