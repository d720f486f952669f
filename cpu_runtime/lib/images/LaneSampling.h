//===- LaneSampling.h - Sampling a group of lanes at once -------*- C++ -*-===//
//
// What the lane paths of sampleRgba8Lanes share: Vulkan's sampler enums, the
// level table of a 2D image, and the AVX2 path for a group of eight lanes.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_LANESAMPLING_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_LANESAMPLING_H

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <cstdint>

namespace spvb::runtime::sampling {

// VkSamplerAddressMode, VkFilter, VkSamplerMipmapMode.
enum : uint32_t {
  kRepeat = 0,
  kMirroredRepeat = 1,
  kClampToEdge = 2,
  kClampToBorder = 3,
  kMirrorClampToEdge = 4,
};
enum : uint32_t { kNearest = 0, kLinear = 1 };

/// The levels of a 2D single-layer image as the specialized paths read
/// them: extents and byte offsets of those lying whole within the data.
struct LevelTable {
  static constexpr unsigned kMaxLevels = 32;
  const uint8_t *data = nullptr;
  uint64_t size = 0;
  uint32_t extent[2] = {0, 0};
  uint32_t levels = 0, texelBytes = 0;
  /// Levels [0, readable) lie within the data.
  uint32_t readable = 0;
  /// Signed for the AVX2 path's gathers; extents are below 2^31.
  int32_t width[kMaxLevels], height[kMaxLevels];
  uint64_t offset[kMaxLevels];
  /// The offsets of images below 2^31 bytes (sampleRgba8Lanes).
  int32_t offset32[kMaxLevels];
  /// Normalized coordinates this large have too few fraction bits in
  /// single precision at level 0 (Vulkan asks for four sub-texel bits).
  float coordinateLimit[2];
};

/// The level table of `image` with texels of `texelBytes`; the last one is
/// kept per thread.
const LevelTable &getLevelTable(const spvb_image &image, uint32_t texelBytes);

/// Whether this processor runs sampleRgba8GroupAvx2.
bool hasAvx2Sampling();

/// sampleRgba8Lanes for the eight lanes at `inputs` and `results` (rows
/// `stride` apart), those of `active`, all in AVX2 registers: the level
/// choice of each lane, then trilinear filtering with gathers. Needs what
/// sampleRgba8Lanes checks; returns the lanes left to sampleImage.
uint64_t sampleRgba8GroupAvx2(const spvb_image &image,
                              const spvb_sampler &sampler,
                              const LevelTable &table, uint32_t imageOperands,
                              const float *inputs, unsigned stride,
                              uint64_t active, float *results);

} // namespace spvb::runtime::sampling

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_LANESAMPLING_H
