//===- Sampling.h - Texel filtering as Vulkan specifies it ------*- C++ -*-===//
//
// Sampling an spvb_image through an spvb_sampler: LOD from an explicit value
// or gradients, level selection and mipmap interpolation, nearest and linear
// filtering, the five address modes with border colors, array layers, cube
// faces, and gathers (Vulkan "Texel Filtering").
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_SAMPLING_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_SAMPLING_H

#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <optional>

namespace spvb::runtime {

/// Where `sample` of texel (x, y, z) of `layer` at `level` is, or null
/// outside the image or past its samples.
uint8_t *locateTexel(const spvb_image &image, const ImageFormat &format,
                     int64_t x, int64_t y, int64_t z, int64_t layer,
                     uint32_t level, int64_t sample);

struct SampleRequest {
  /// Normalized (or, with unnormalized_coordinates, texel) coordinates, then
  /// the array layer; a cube takes a direction.
  double coordinate[4] = {0, 0, 0, 0};
  unsigned coordinateCount = 0;
  double lod = 0;
  double bias = 0;
  double minLod = 0;
  bool hasGradients = false;
  double dx[3] = {0, 0, 0};
  double dy[3] = {0, 0, 0};
  int offset[3] = {0, 0, 0};
  /// OpImageGather's component, or -1 to filter.
  int gatherComponent = -1;
  /// The Dref instructions' reference (OpImageDrefGather gathers the
  /// comparisons of component 0); none without a comparison.
  std::optional<double> dref;
};

/// The filtered texel; `sampler` null means nearest, clamp to edge.
Texel sampleImage(const spvb_image &image, const ImageFormat &format,
                  const spvb_sampler *sampler, const SampleRequest &request);

/// The request of spvb_rt_sample2's operands: `inputs` are its eight
/// floats (u, v, bias, lod, du/dx, dv/dx, du/dy, dv/dy), `stride` apart.
SampleRequest makeSample2Request(uint32_t imageOperands, const float *inputs,
                                 unsigned stride);

/// spvb_rt_sample2_lanes for `lanes` lanes (at most 64) of one image and
/// sampler, those in `active`, when the image is 2D with four 8-bit UNORM
/// components and the sampler filters linearly: eight lanes at a time in
/// SIMD registers, in single precision (Vulkan's filtering precision, not
/// sampleImage's bits). Lane l's inputs are inputs[row * lanes + l], its
/// component c to results[c * lanes + l]; returns the lanes left to
/// sampleImage.
uint64_t sampleRgba8Lanes(const spvb_image &image, const ImageFormat &format,
                          const spvb_sampler *sampler, uint32_t imageOperands,
                          const float *inputs, unsigned lanes, uint64_t active,
                          float *results);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_SAMPLING_H
