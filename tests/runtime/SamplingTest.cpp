//===- SamplingTest.cpp - Texel filtering, hand-derived -------------------===//
//
// Vulkan's "Texel Filtering" on a 2x2 r32f image of texels 0, 1 (row 0) and
// 2, 3 (row 1): the values below follow from the specification's formulas
// (u' = u * width - 0.5 for linear filtering, floor(u * width) for nearest).
//
//===----------------------------------------------------------------------===//
#include "images/Sampling.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "gtest/gtest.h"

#include <spirv/unified1/spirv.hpp>

using namespace spvb::runtime;

namespace {

constexpr uint32_t kNearest = 0, kLinear = 1;
constexpr uint32_t kRepeat = 0, kClampToEdge = 2, kClampToBorder = 3;

class Sampling : public ::testing::Test {
protected:
  Sampling() {
    image.data = reinterpret_cast<uint8_t *>(texels);
    image.format = spv::ImageFormatR32f;
    image.dim = spv::Dim2D;
    image.extent[0] = image.extent[1] = 2;
    image.extent[2] = 1;
    image.layers = image.levels = image.samples = 1;
    image.size = sizeof(texels);
  }

  double sample(uint32_t filter, uint32_t address, double u, double v) {
    spvb_sampler sampler{};
    sampler.mag_filter = sampler.min_filter = filter;
    sampler.address_mode[0] = sampler.address_mode[1] =
        sampler.address_mode[2] = address;
    sampler.max_lod = 1000;
    SampleRequest request;
    request.coordinate[0] = u;
    request.coordinate[1] = v;
    request.coordinateCount = 2;
    return sampleImage(image, *getImageFormat(spv::ImageFormatR32f), &sampler,
                       request)
        .f[0];
  }

  float texels[4] = {0, 1, 2, 3};
  spvb_image image{};
};

TEST_F(Sampling, NearestTakesTheTexelTheCoordinateFallsIn) {
  EXPECT_EQ(sample(kNearest, kRepeat, 0.3, 0.3), 0);
  EXPECT_EQ(sample(kNearest, kRepeat, 0.7, 0.3), 1);
  EXPECT_EQ(sample(kNearest, kRepeat, 0.3, 0.7), 2);
  EXPECT_EQ(sample(kNearest, kRepeat, 0.7, 0.7), 3);
}

TEST_F(Sampling, LinearWeighsTheFourNearestTexels) {
  // At the centre every texel weighs 1/4.
  EXPECT_DOUBLE_EQ(sample(kLinear, kClampToEdge, 0.5, 0.5), 1.5);
  // u = 0.375: u' = 0.25 between texels 0 and 1 of row 0 (v at its
  // centre): 0.75 * 0 + 0.25 * 1.
  EXPECT_DOUBLE_EQ(sample(kLinear, kClampToEdge, 0.375, 0.25), 0.25);
}

TEST_F(Sampling, AddressModes) {
  // Repeat: u = 1.25 is u = 0.25, texel 0; clamp to edge: u = -1 is
  // texel 0 and u = 2 texel 1; clamp to border (transparent black): 0.
  EXPECT_EQ(sample(kNearest, kRepeat, 1.75, 0.25), 1);
  EXPECT_EQ(sample(kNearest, kRepeat, 1.25, 0.25), 0);
  EXPECT_EQ(sample(kNearest, kClampToEdge, -1.0, 0.25), 0);
  EXPECT_EQ(sample(kNearest, kClampToEdge, 2.0, 0.25), 1);
  EXPECT_EQ(sample(kNearest, kClampToBorder, 2.0, 0.25), 0);
  // Linear at u = 0 with repeat mixes texel 1 (wrapped) and texel 0
  // half and half: 0.5; with clamp to edge texel 0 twice: 0.
  EXPECT_DOUBLE_EQ(sample(kLinear, kRepeat, 0.0, 0.25), 0.5);
  EXPECT_DOUBLE_EQ(sample(kLinear, kClampToEdge, 0.0, 0.25), 0.0);
}

} // namespace
