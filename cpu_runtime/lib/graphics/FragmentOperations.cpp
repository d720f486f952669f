//===- FragmentOperations.cpp - Depth, stencil, blending, writes ----------===//
#include "FragmentOperations.h"

#include "StageValues.h"

#include "llvm/ADT/bit.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

using namespace spvb::runtime;

static bool compare(VkCompareOp op, double a, double b) {
  switch (op) {
  case VK_COMPARE_OP_NEVER:
    return false;
  case VK_COMPARE_OP_LESS:
    return a < b;
  case VK_COMPARE_OP_EQUAL:
    return a == b;
  case VK_COMPARE_OP_LESS_OR_EQUAL:
    return a <= b;
  case VK_COMPARE_OP_GREATER:
    return a > b;
  case VK_COMPARE_OP_NOT_EQUAL:
    return a != b;
  case VK_COMPARE_OP_GREATER_OR_EQUAL:
    return a >= b;
  default:
    return true;
  }
}

/// Component `i` of an output record entry as a double or an integer.
static double loadFloatComponent(const spvb_stage_variable &var,
                                 const uint8_t *record, unsigned i) {
  const uint8_t *at = record + var.offset + i * var.bytes;
  if (var.kind != SPVB_KIND_FLOAT) {
    int64_t value = 0;
    std::memcpy(&value, at, var.bytes);
    return double(value);
  }
  return loadFloat(at, var.bytes);
}

static int64_t loadIntComponent(const spvb_stage_variable &var,
                                const uint8_t *record, unsigned i) {
  const uint8_t *at = record + var.offset + i * var.bytes;
  if (var.kind == SPVB_KIND_FLOAT)
    return int64_t(loadFloatComponent(var, record, i));
  uint64_t bits = 0;
  std::memcpy(&bits, at, var.bytes);
  if ((var.flags & SPVB_STAGE_SIGNED) && var.bytes < 8) {
    unsigned shift = 64 - 8 * var.bytes;
    return int64_t(bits << shift) >> shift;
  }
  return int64_t(bits);
}

FragmentOperations::FragmentOperations(
    const GraphicsState &state, RenderTarget &target,
    llvm::ArrayRef<spvb_stage_variable> variables)
    : state(state), target(target) {
  for (const spvb_stage_variable &var : variables) {
    if (!(var.flags & SPVB_STAGE_OUTPUT))
      continue;
    if (var.builtin == spv::BuiltInFragDepth)
      fragDepthOffset = var.offset;
    else if (var.builtin == spv::BuiltInSampleMask)
      sampleMaskOffset = var.offset;
    else if (var.location != ~0u)
      colorOutputs.push_back(var);
  }
  for (const spvb_stage_variable &output : colorOutputs) {
    std::optional<Unorm8Write> &write = unorm8Writes.emplace_back();
    if (output.location >= target.colors.size())
      continue;
    const Attachment &attachment = target.colors[output.location];
    BlendState blend;
    if (output.location < state.blend.size())
      blend = state.blend[output.location];
    Unorm8Write direct{output.offset, &attachment, 0, {}, output.count >= 4};
    if (!attachment.data || blend.enable || state.logicOpEnable ||
        output.kind != SPVB_KIND_FLOAT || output.bytes != 4 ||
        output.component != 0)
      continue;
    direct.bytes = getUnorm8Order(*attachment.format, direct.order);
    static constexpr uint8_t kRgba[4] = {0, 1, 2, 3}, kBgra[4] = {2, 1, 0, 3};
    bool fourBytes = direct.vec4 && direct.bytes == 4;
    direct.rgba = fourBytes && std::equal(kRgba, kRgba + 4, direct.order);
    direct.bgra = fourBytes && std::equal(kBgra, kBgra + 4, direct.order);
    unsigned mask = (1u << attachment.format->components) - 1;
    if (direct.bytes && output.count >= attachment.format->components &&
        (blend.writeMask & mask) == mask)
      write = direct;
  }
  unorm8Only = !fragDepthOffset && !sampleMaskOffset && !state.logicOpEnable &&
               !(target.depthStencil && target.depthStencil->data);
  for (size_t index = 0; index < colorOutputs.size(); ++index) {
    uint32_t location = colorOutputs[index].location;
    const std::optional<Unorm8Write> &direct = unorm8Writes[index];
    if (direct
            ? direct->attachment->samples != 1
            : location < target.colors.size() && target.colors[location].data)
      unorm8Only = false;
    if (direct)
      directWrites.push_back(*direct);
  }
  if (state.viewport) {
    minDepth = std::min(state.viewport->minDepth, state.viewport->maxDepth);
    maxDepth = std::max(state.viewport->minDepth, state.viewport->maxDepth);
  }
}

bool FragmentOperations::testStencil(uint8_t *texel,
                                     const StencilState &face) const {
  const VulkanFormat &format = *target.depthStencil->format;
  uint32_t stored = decodeStencil(format, texel);
  return compare(face.compareOp, face.reference & face.compareMask,
                 stored & face.compareMask);
}

void FragmentOperations::updateStencil(uint8_t *texel, const StencilState &face,
                                       VkStencilOp op) const {
  const VulkanFormat &format = *target.depthStencil->format;
  uint32_t stored = decodeStencil(format, texel), value = stored;
  switch (op) {
  case VK_STENCIL_OP_KEEP:
    return;
  case VK_STENCIL_OP_ZERO:
    value = 0;
    break;
  case VK_STENCIL_OP_REPLACE:
    value = face.reference;
    break;
  case VK_STENCIL_OP_INCREMENT_AND_CLAMP:
    value = std::min<uint32_t>(stored + 1, 255);
    break;
  case VK_STENCIL_OP_DECREMENT_AND_CLAMP:
    value = stored ? stored - 1 : 0;
    break;
  case VK_STENCIL_OP_INVERT:
    value = ~stored;
    break;
  case VK_STENCIL_OP_INCREMENT_AND_WRAP:
    value = stored + 1;
    break;
  case VK_STENCIL_OP_DECREMENT_AND_WRAP:
    value = stored - 1;
    break;
  default:
    return;
  }
  value = (stored & ~face.writeMask) | (value & face.writeMask);
  encodeStencil(format, uint8_t(value), texel);
}

uint32_t FragmentOperations::process(int32_t x, int32_t y, uint32_t samples,
                                     const std::array<double, 4> &depths,
                                     bool frontFacing, const uint8_t *record) {
  std::optional<double> written;
  if (fragDepthOffset) {
    float value;
    std::memcpy(&value, record + *fragDepthOffset, 4);
    written = value;
  }
  uint32_t passed = 0;
  for (uint32_t sample = 0; sample < 4; ++sample)
    if ((samples & (1u << sample)) &&
        testDepthStencil(x, y, sample, written.value_or(depths[sample]),
                         frontFacing))
      passed |= 1u << sample;
  return writeSamples(x, y, passed, record);
}

uint32_t FragmentOperations::writeSamples(int32_t x, int32_t y,
                                          uint32_t samples,
                                          const uint8_t *record) {
  if (sampleMaskOffset) {
    uint32_t mask;
    std::memcpy(&mask, record + *sampleMaskOffset, 4);
    samples &= mask;
  }
  for (uint32_t sample = 0; sample < 4; ++sample)
    if (samples & (1u << sample))
      writeColors(x, y, sample, record);
  return llvm::popcount(samples & 0xfu);
}

bool FragmentOperations::testDepthStencil(int32_t x, int32_t y, uint32_t sample,
                                          double depth, bool frontFacing) {
  if (state.depthClamp)
    depth = std::clamp(depth, minDepth, maxDepth);

  if (target.depthStencil && target.depthStencil->data) {
    Attachment &ds = *target.depthStencil;
    const VulkanFormat &format = *ds.format;
    uint8_t *texel = ds.at(x, y, sample);
    if (format.depthBits &&
        (format.kind != ComponentKind::Sfloat || !state.depthRangeUnrestricted))
      depth = std::clamp(depth, 0.0, 1.0);
    if (state.depthBoundsTest && format.depthBits) {
      double stored = decodeDepth(format, texel);
      if (stored < state.minDepthBounds || stored > state.maxDepthBounds)
        return false;
    }
    const StencilState &face = frontFacing ? state.front : state.back;
    bool stencil = state.stencilTest && format.stencilBits;
    if (stencil && !testStencil(texel, face)) {
      updateStencil(texel, face, face.failOp);
      return false;
    }
    // The fragment's depth is compared in the attachment's format: a UNORM
    // format's encodings order as its depths, so they are compared as
    // they are.
    bool depthTest = state.depthTest && format.depthBits;
    uint64_t bits = depthTest ? encodeDepthBits(format, depth) : 0;
    if (depthTest) {
      bool passed;
      if (format.kind != ComponentKind::Sfloat) {
        passed = compare(state.depthCompare, double(bits),
                         double(readDepthBits(format, texel)));
      } else {
        uint8_t converted[8] = {};
        writeDepthBits(format, bits, converted);
        passed = compare(state.depthCompare, decodeDepth(format, converted),
                         decodeDepth(format, texel));
      }
      if (!passed) {
        if (stencil)
          updateStencil(texel, face, face.depthFailOp);
        return false;
      }
    }
    if (stencil)
      updateStencil(texel, face, face.passOp);
    if (depthTest && state.depthWrite)
      writeDepthBits(format, bits, texel);
  }
  return true;
}

/// encodeUnorm(value, 8) without branches: NaN and negative values give
/// 0, and truncation is floor for the positive sums.
static uint8_t encodeUnorm8(float value) {
  double f = value > 0 ? double(value) : 0.0;
  f = f < 1 ? f : 1.0;
  return uint8_t(int32_t(f * 255.0 + 0.5));
}

/// encodeUnorm8 of four values at once, component c in byte c.
static uint32_t encodeUnorm8x4(const uint8_t *values) {
#if defined(__SSE2__)
  __m128 v = _mm_loadu_ps(reinterpret_cast<const float *>(values));
  __m128d zero = _mm_setzero_pd(), one = _mm_set1_pd(1.0);
  __m128d scale = _mm_set1_pd(255.0), half = _mm_set1_pd(0.5);
  auto encode = [&](__m128d f) {
    // maxpd returns its second operand for a NaN: NaN gives 0.
    f = _mm_min_pd(_mm_max_pd(f, zero), one);
    return _mm_cvttpd_epi32(_mm_add_pd(_mm_mul_pd(f, scale), half));
  };
  __m128i low = encode(_mm_cvtps_pd(v));
  __m128i high = encode(_mm_cvtps_pd(_mm_movehl_ps(v, v)));
  __m128i words = _mm_unpacklo_epi64(low, high);
  __m128i packed = _mm_packs_epi32(words, words);
  packed = _mm_packus_epi16(packed, packed);
  return uint32_t(_mm_cvtsi128_si32(packed));
#else
  uint32_t four = 0;
  for (unsigned c = 0; c < 4; ++c) {
    float value;
    std::memcpy(&value, values + 4 * c, 4);
    four |= uint32_t(encodeUnorm8(value)) << (8 * c);
  }
  return four;
#endif
}

void FragmentOperations::writeDirect(const Unorm8Write &direct,
                                     const uint8_t *record, uint8_t *to) {
  record += direct.offset;
  // The texel's bytes in a register: byte stores read back as a word
  // would stall store forwarding.
  uint32_t texel = 0;
  if (direct.vec4) {
    uint32_t rgba = encodeUnorm8x4(record);
    for (unsigned i = 0; i < direct.bytes; ++i)
      texel |= ((rgba >> (8 * direct.order[i])) & 0xff) << (8 * i);
  } else {
    for (unsigned i = 0; i < direct.bytes; ++i) {
      float value;
      std::memcpy(&value, record + 4 * direct.order[i], 4);
      texel |= uint32_t(encodeUnorm8(value)) << (8 * i);
    }
  }
  if (direct.bytes == 4) // one store, not a call
    std::memcpy(to, &texel, 4);
  else
    for (unsigned i = 0; i < direct.bytes; ++i)
      to[i] = uint8_t(texel >> (8 * i));
}

/// encodeUnorm8x4 of the four-component outputs of a quad's pixels, whose
/// component c is at `components + c * row` for the four pixels in order (a
/// quad's blocked records), red and blue swapped when `bgra`.
static void encodeUnorm8Quad(const uint8_t *components, uint64_t row, bool bgra,
                             uint32_t *texels) {
  for (unsigned lane = 0; lane < 4; ++lane) {
    uint8_t pixel[16];
    for (unsigned c = 0; c < 4; ++c)
      std::memcpy(pixel + 4 * c, components + c * row + 4 * lane, 4);
    uint32_t rgba = encodeUnorm8x4(pixel);
    texels[lane] = bgra ? (rgba & 0xff00ff00u) | (rgba >> 16 & 0xffu) |
                              (rgba & 0xffu) << 16
                        : rgba;
  }
}

/// Stores a quad's four-byte texels to its rows from `row`: `rows[r]` holds
/// row r's pair, the left texel in the low half; `lanes` the covered
/// pixels. `inside`: all four pixels are in the attachment, so each row's
/// pair is read and written whole, the covered texels merged in without a
/// branch on the coverage (partly covered quads are common and the branch
/// mispredicted); else each covered texel is stored on its own.
static inline void storeQuadRows(uint8_t *row, uint64_t pitch, unsigned lanes,
                                 const uint64_t (&rows)[2], bool inside) {
  static constexpr uint64_t kPairMask[4] = {0, 0xffffffffull,
                                            0xffffffff00000000ull, ~0ull};
  for (unsigned r = 0; r < 2; ++r, row += pitch) {
    unsigned pair = (lanes >> (2 * r)) & 3;
    if (inside) {
      uint64_t old;
      std::memcpy(&old, row, 8);
      uint64_t merged = (rows[r] & kPairMask[pair]) | (old & ~kPairMask[pair]);
      std::memcpy(row, &merged, 8);
    } else if (pair == 3) {
      std::memcpy(row, &rows[r], 8);
    } else if (pair) {
      uint32_t texel = uint32_t(rows[r] >> (32 * (pair >> 1)));
      std::memcpy(row + 4 * (pair >> 1), &texel, 4);
    }
  }
}

#if defined(__x86_64__)
/// Writes the quads' RGBA or BGRA texels of the four-component outputs at
/// `offset` in the blocked `records` with AVX2, as encodeUnorm8Quad and
/// storeQuadRows do: each pixel's components as four doubles (their
/// products with 255 are exact, so the fused multiply-add rounds as
/// encodeUnorm8 does), a quad's sixteen results packed to bytes at once. One
/// loop with the constants and texels in registers: a call per quad spent more
/// on the call and the stack than on the conversion.
__attribute__((target("avx2,fma"))) static void
writeRgba8QuadsAvx2(llvm::ArrayRef<FragmentOperations::QuadWrite> quads,
                    const StageRecords &records, uint32_t offset, bool bgra,
                    const Attachment &attachment) {
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d scale = _mm256_set1_pd(255.0), half = _mm256_set1_pd(0.5);
  // In locals: the texel stores could alias the attachment's and the
  // records' fields, which were reloaded for every quad.
  uint8_t *const texels = attachment.data;
  const uint32_t width = attachment.width, height = attachment.height;
  const uint64_t pitch = uint64_t(width) * 4;
  constexpr uint64_t kRow = StageRecords::kBlockRow;
  const uint8_t *const first = records.inBlock(0, offset);
  // Quad q's records are 4 q to 4 q + 3: a quad's place in its block.
  constexpr uint64_t kQuadsPerBlock = SPVB_FRAGMENT_RECORD_LANES / 4;
  const uint64_t blockBytes =
      SPVB_FRAGMENT_RECORD_LANES * records.getRecordSize();
  // The packed bytes are each component's four pixels in turn: byte 4 c + p
  // goes to pixel p's component c (its place in BGRA when `bgra`).
  const __m128i order =
      bgra
          ? _mm_setr_epi8(8, 4, 0, 12, 9, 5, 1, 13, 10, 6, 2, 14, 11, 7, 3, 15)
          : _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  for (size_t q = 0; q < quads.size(); ++q) {
    const FragmentOperations::QuadWrite &quad = quads[q];
    if (!quad.lanes)
      continue;
    // Each component of the four pixels is one vector in the blocks.
    const uint8_t *components =
        first + q / kQuadsPerBlock * blockBytes + q % kQuadsPerBlock * 16;
    __m128i words[4];
    for (unsigned c = 0; c < 4; ++c) {
      __m128 values =
          _mm_loadu_ps(reinterpret_cast<const float *>(components + c * kRow));
      // maxpd returns its second operand for a NaN: NaN gives 0.
      __m256d f = _mm256_max_pd(_mm256_cvtps_pd(values), zero);
      f = _mm256_min_pd(f, one);
      words[c] = _mm256_cvttpd_epi32(_mm256_fmadd_pd(f, scale, half));
    }
    __m128i packed =
        _mm_shuffle_epi8(_mm_packus_epi16(_mm_packus_epi32(words[0], words[1]),
                                          _mm_packus_epi32(words[2], words[3])),
                         order);
    uint64_t rows[2] = {uint64_t(_mm_cvtsi128_si64(packed)),
                        uint64_t(_mm_extract_epi64(packed, 1))};
    uint32_t x = uint32_t(quad.x), y = uint32_t(quad.y);
    storeQuadRows(texels + (uint64_t(y) * width + x) * 4, pitch, quad.lanes,
                  rows, x + 2 <= width && y + 2 <= height);
  }
}
#endif

void FragmentOperations::writeUnorm8Quads(llvm::ArrayRef<QuadWrite> quads,
                                          const StageRecords &records) const {
  // A whole output record, for the formats converted one texel at a time.
  std::vector<uint8_t> record;
#if defined(__x86_64__)
  static const bool avx2 =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  for (const Unorm8Write &direct : directWrites) {
    const Attachment &attachment = *direct.attachment;
#if defined(__x86_64__)
    if (avx2 && (direct.rgba || direct.bgra)) {
      writeRgba8QuadsAvx2(quads, records, direct.offset, direct.bgra,
                          attachment);
      continue;
    }
#endif
    uint64_t pitch = uint64_t(attachment.width) * attachment.format->texelBytes;
    for (size_t q = 0; q < quads.size(); ++q) {
      const QuadWrite &quad = quads[q];
      if (!quad.lanes)
        continue;
      uint8_t *row = attachment.at(quad.x, quad.y);
      if (!direct.rgba && !direct.bgra) {
        for (unsigned lane = 0; lane < 4; ++lane) {
          if (!(quad.lanes & (1u << lane)))
            continue;
          record.resize(records.getRecordSize());
          records.gatherBlocked(4 * q + lane, record.data());
          writeDirect(direct, record.data(),
                      row + (lane / 2) * pitch +
                          (lane % 2) * attachment.format->texelBytes);
        }
        continue;
      }
      uint32_t texels[4];
      encodeUnorm8Quad(records.inBlock(4 * q, direct.offset),
                       StageRecords::kBlockRow, direct.bgra, texels);
      uint64_t rows[2] = {texels[0] | uint64_t(texels[1]) << 32,
                          texels[2] | uint64_t(texels[3]) << 32};
      storeQuadRows(row, pitch, quad.lanes, rows,
                    uint32_t(quad.x) + 2 <= attachment.width &&
                        uint32_t(quad.y) + 2 <= attachment.height);
    }
  }
}

void FragmentOperations::writeColors(int32_t x, int32_t y, uint32_t sample,
                                     const uint8_t *record) {
  for (size_t index = 0; index < colorOutputs.size(); ++index) {
    const spvb_stage_variable &output = colorOutputs[index];
    if (const std::optional<Unorm8Write> &direct = unorm8Writes[index]) {
      writeDirect(*direct, record, direct->attachment->at(x, y, sample));
      continue;
    }
    // A Component-decorated output writes part of its location.
    if (output.location >= target.colors.size())
      continue;
    Attachment &attachment = target.colors[output.location];
    if (!attachment.data)
      continue;
    BlendState blend;
    if (output.location < state.blend.size())
      blend = state.blend[output.location];
    writeColor(output, record, attachment, blend, attachment.at(x, y, sample));
  }
}

static double blendFactor(VkBlendFactor factor, const double *src,
                          const double *dst, const std::array<float, 4> &k,
                          unsigned c) {
  switch (factor) {
  case VK_BLEND_FACTOR_ZERO:
    return 0;
  case VK_BLEND_FACTOR_ONE:
    return 1;
  case VK_BLEND_FACTOR_SRC_COLOR:
    return src[c];
  case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR:
    return 1 - src[c];
  case VK_BLEND_FACTOR_DST_COLOR:
    return dst[c];
  case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR:
    return 1 - dst[c];
  case VK_BLEND_FACTOR_SRC_ALPHA:
    return src[3];
  case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA:
    return 1 - src[3];
  case VK_BLEND_FACTOR_DST_ALPHA:
    return dst[3];
  case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA:
    return 1 - dst[3];
  case VK_BLEND_FACTOR_CONSTANT_COLOR:
    return k[c];
  case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR:
    return 1 - k[c];
  case VK_BLEND_FACTOR_CONSTANT_ALPHA:
    return k[3];
  case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA:
    return 1 - k[3];
  case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
    return c == 3 ? 1 : std::min(src[3], 1 - dst[3]);
  default:
    // Dual-source factors need a second output; without one they read 0.
    return 0;
  }
}

static double blendOperation(VkBlendOp op, double s, double sf, double d,
                             double df) {
  switch (op) {
  case VK_BLEND_OP_SUBTRACT:
    return s * sf - d * df;
  case VK_BLEND_OP_REVERSE_SUBTRACT:
    return d * df - s * sf;
  case VK_BLEND_OP_MIN:
    return std::min(s, d);
  case VK_BLEND_OP_MAX:
    return std::max(s, d);
  default:
    return s * sf + d * df;
  }
}

/// VkLogicOp on the source's and the destination's bits.
static uint8_t applyLogicOp(VkLogicOp op, uint8_t s, uint8_t d) {
  switch (op) {
  case VK_LOGIC_OP_CLEAR:
    return 0;
  case VK_LOGIC_OP_AND:
    return s & d;
  case VK_LOGIC_OP_AND_REVERSE:
    return s & ~d;
  case VK_LOGIC_OP_AND_INVERTED:
    return ~s & d;
  case VK_LOGIC_OP_NO_OP:
    return d;
  case VK_LOGIC_OP_XOR:
    return s ^ d;
  case VK_LOGIC_OP_OR:
    return s | d;
  case VK_LOGIC_OP_NOR:
    return ~(s | d);
  case VK_LOGIC_OP_EQUIVALENT:
    return ~(s ^ d);
  case VK_LOGIC_OP_INVERT:
    return ~d;
  case VK_LOGIC_OP_OR_REVERSE:
    return s | ~d;
  case VK_LOGIC_OP_COPY_INVERTED:
    return ~s;
  case VK_LOGIC_OP_OR_INVERTED:
    return ~s | d;
  case VK_LOGIC_OP_NAND:
    return ~(s & d);
  case VK_LOGIC_OP_SET:
    return 0xff;
  default: // VK_LOGIC_OP_COPY
    return s;
  }
}

void FragmentOperations::writeColor(const spvb_stage_variable &output,
                                    const uint8_t *record,
                                    Attachment &attachment,
                                    const BlendState &blend,
                                    uint8_t *texel) const {
  const VulkanFormat &format = *attachment.format;
  bool logic = state.logicOpEnable && (format.kind == ComponentKind::Unorm ||
                                       format.kind == ComponentKind::Snorm ||
                                       format.kind == ComponentKind::Uint ||
                                       format.kind == ComponentKind::Sint);
  bool blending = blend.enable && !state.logicOpEnable;
  // The stored colour matters to blending, logic operations and the
  // components the output or the write mask leave alone; most draws need
  // none of it.
  unsigned formatMask = (1u << format.components) - 1;
  bool keepsOld = blending || logic ||
                  (blend.writeMask & formatMask) != formatMask ||
                  output.component != 0 || output.count < format.components;
  Color old = keepsOld ? decodeColor(format, texel) : Color();
  Color color = old;
  bool integer = isIntegerFormat(format);
  unsigned first = output.component;
  // Integer formats store `i`, the others `f`.
  for (unsigned i = 0; i < output.count && first + i < 4; ++i) {
    if (integer)
      color.i[first + i] = loadIntComponent(output, record, i);
    else
      color.f[first + i] = loadFloatComponent(output, record, i);
  }
  if (integer && format.texelBytes % format.components == 0) {
    // Values outside an integer attachment's range saturate, as llvmpipe
    // stores them (Vulkan leaves them undefined).
    unsigned bits = 8 * format.texelBytes / format.components;
    bool isSigned = format.kind == ComponentKind::Sint;
    int64_t low = isSigned ? -(int64_t(1) << (bits - 1)) : 0;
    int64_t high = bits >= 64 ? INT64_MAX
                   : isSigned ? (int64_t(1) << (bits - 1)) - 1
                              : (int64_t(1) << bits) - 1;
    if (bits < 64)
      for (int c = 0; c < 4; ++c) {
        int64_t value = color.i[c];
        // An unsigned shader value is never negative.
        if (!(output.flags & SPVB_STAGE_SIGNED) && value < 0)
          value = high;
        color.i[c] = std::clamp(value, low, high);
      }
  }
  if (blending && !integer) {
    // Fixed-point attachments blend clamped values.
    double low = format.kind == ComponentKind::Snorm ? -1 : 0;
    bool fixed = format.kind == ComponentKind::Unorm ||
                 format.kind == ComponentKind::Srgb ||
                 format.kind == ComponentKind::Snorm;
    double src[4], dst[4];
    std::array<float, 4> constants = state.blendConstants;
    for (int c = 0; c < 4; ++c) {
      src[c] = fixed ? std::clamp(color.f[c], low, 1.0) : color.f[c];
      dst[c] = old.f[c];
      if (fixed)
        constants[c] = std::clamp<float>(constants[c], low, 1);
    }
    for (int c = 0; c < 4; ++c) {
      bool alpha = c == 3;
      VkBlendFactor sf = alpha ? blend.srcAlpha : blend.srcColor;
      VkBlendFactor df = alpha ? blend.dstAlpha : blend.dstColor;
      color.f[c] =
          blendOperation(alpha ? blend.alphaOp : blend.colorOp, src[c],
                         blendFactor(sf, src, dst, constants, c), dst[c],
                         blendFactor(df, src, dst, constants, c));
    }
  }
  if (logic) {
    uint8_t source[32];
    encodeColor(format, color, source);
    uint8_t combined[32];
    for (unsigned i = 0; i < format.texelBytes; ++i)
      combined[i] = applyLogicOp(state.logicOp, source[i], texel[i]);
    if ((blend.writeMask & formatMask) == formatMask) {
      std::memcpy(texel, combined, format.texelBytes);
      return;
    }
    color = decodeColor(format, combined);
  }
  for (int c = 0; c < 4; ++c)
    if (!(blend.writeMask & (1u << c))) {
      color.f[c] = old.f[c];
      color.i[c] = old.i[c];
    }
  encodeColor(format, color, texel);
}
