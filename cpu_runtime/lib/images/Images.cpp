//===- Images.cpp - Image instructions on spvb_image descriptors ----------===//
//
// spvb_rt_image: OpImageRead, OpImageWrite, OpImageFetch, the size, level
// and sample queries, OpImageTexelPointer (whose pointer the generated code
// uses for atomics), and sampling with explicit LOD or gradients and
// gathering, following Vulkan's "Texel Filtering" rules (Sampling.cpp).
// Reads outside the image, or of a sample past its sample count, give zero
// and such writes are dropped, as with robustImageAccess.
//
//===----------------------------------------------------------------------===//
#include "Sampling.h"
#include "graphics/FragmentPixel.h"
#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "launch/TypeDesc.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/ADT/bit.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>

using namespace spvb::runtime;

namespace {

int64_t loadInt(const void *base, const TypeDesc &type, unsigned component) {
  const uint8_t *bytes = static_cast<const uint8_t *>(base);
  switch (type.bytes) {
  case 1:
    return reinterpret_cast<const int8_t *>(bytes)[component];
  case 2: {
    int16_t value;
    std::memcpy(&value, bytes + 2 * component, 2);
    return value;
  }
  case 8: {
    int64_t value;
    std::memcpy(&value, bytes + 8 * component, 8);
    return value;
  }
  default: {
    int32_t value;
    std::memcpy(&value, bytes + 4 * component, 4);
    return value;
  }
  }
}

double loadFloat(const void *base, const TypeDesc &type, unsigned component) {
  const uint8_t *bytes = static_cast<const uint8_t *>(base);
  if (type.bytes == 2) {
    _Float16 value;
    std::memcpy(&value, bytes + 2 * component, 2);
    return static_cast<double>(value);
  }
  if (type.bytes == 8) {
    double value;
    std::memcpy(&value, bytes + 8 * component, 8);
    return value;
  }
  float value;
  std::memcpy(&value, bytes + 4 * component, 4);
  return value;
}

void storeComponent(void *base, const TypeDesc &type, unsigned component,
                    double asFloat, uint64_t asInt) {
  uint8_t *bytes = static_cast<uint8_t *>(base) + component * type.bytes;
  if (type.kind == SPVB_KIND_FLOAT) {
    if (type.bytes == 2) {
      _Float16 value = static_cast<_Float16>(asFloat);
      std::memcpy(bytes, &value, 2);
    } else if (type.bytes == 8) {
      std::memcpy(bytes, &asFloat, 8);
    } else {
      float value = static_cast<float>(asFloat);
      std::memcpy(bytes, &value, 4);
    }
    return;
  }
  std::memcpy(bytes, &asInt, std::min<uint32_t>(type.bytes, 8));
}

/// The image operands that follow the coordinate, by mask bit.
struct ImageOperands {
  uint32_t lod = 0;
  int64_t offset[3] = {0, 0, 0};
  /// The Sample operand of a multisampled image; signed, so that a negative
  /// index is outside the image rather than a huge one.
  int64_t sample = 0;
};

ImageOperands readImageOperands(uint32_t mask, unsigned first, uint32_t count,
                                const uint32_t *descs,
                                const void *const *operands) {
  ImageOperands result;
  unsigned next = first;
  auto take = [&]() -> unsigned { return next < count ? next++ : count; };
  // Operands come in the order of their mask bits.
  if (mask & spv::ImageOperandsBiasMask)
    take();
  if (mask & spv::ImageOperandsLodMask) {
    unsigned i = take();
    if (i < count)
      result.lod = static_cast<uint32_t>(
          std::max<int64_t>(0, loadInt(operands[i], TypeDesc(descs[i]), 0)));
  }
  if (mask & spv::ImageOperandsGradMask) {
    take();
    take();
  }
  for (uint32_t bit :
       {spv::ImageOperandsConstOffsetMask, spv::ImageOperandsOffsetMask}) {
    if (!(mask & bit))
      continue;
    unsigned i = take();
    if (i >= count)
      continue;
    TypeDesc type(descs[i]);
    for (unsigned c = 0; c < std::min<uint32_t>(type.count, 3); ++c)
      result.offset[c] = loadInt(operands[i], type, c);
  }
  if (mask & spv::ImageOperandsConstOffsetsMask)
    take();
  if (mask & spv::ImageOperandsSampleMask) {
    unsigned i = take();
    if (i < count)
      result.sample = loadInt(operands[i], TypeDesc(descs[i]), 0);
  }
  return result;
}

/// Where the texel (or its sample) at integer coordinates is, or null
/// outside the image. The coordinate components are x[, y[, z]] then the
/// layer when arrayed (a cube is a 2D array of faces).
uint8_t *findTexel(const spvb_image &image, const ImageFormat &format,
                   const int64_t *coordinate, unsigned count, uint32_t level,
                   int64_t sample) {
  unsigned dims = getImageDimensions(image.dim);
  int64_t position[4] = {0, 0, 0, 0}; // x, y, z, layer
  for (unsigned c = 0; c < std::min(count, dims); ++c)
    position[c] = coordinate[c];
  if (count > dims)
    position[3] = coordinate[dims];
  return locateTexel(image, format, position[0], position[1], position[2],
                     position[3], level, sample);
}

void writeResult(void *result, uint32_t resultDesc, const Texel &texel) {
  TypeDesc type(resultDesc);
  for (unsigned c = 0; c < type.count && c < 4; ++c)
    storeComponent(result, type, c, texel.f[c], texel.i[c]);
}

/// The image's size at `level` as the queries return it: the extent in
/// its dimensions, then the array layers (cubes per cube array).
void writeSize(void *result, uint32_t resultDesc, const spvb_image &image,
               uint32_t level) {
  TypeDesc type(resultDesc);
  unsigned dims = getImageDimensions(image.dim);
  uint64_t values[4];
  for (unsigned d = 0; d < dims; ++d)
    values[d] = std::max<uint64_t>(1, image.extent[d] >> level);
  values[dims] = image.dim == spv::DimCube ? image.layers / 6 : image.layers;
  for (unsigned c = 0; c < type.count && c < 4; ++c)
    storeComponent(result, type, c, 0, values[c]);
}

/// Written by texel pointers outside the image: atomics on it change
/// nothing that anyone reads.
thread_local uint64_t outsideTexel[2];

} // namespace

extern "C" void spvb_rt_image(spvb_invocation *invocation, uint32_t opcode,
                              uint32_t imageOperands, uint32_t resultDesc,
                              uint32_t operandCount,
                              const uint32_t *operandDescs,
                              const void *const *operands, void *result) {
  auto resultSize = [&] { return TypeDesc(resultDesc).size(); };
  if (opcode == spv::OpImageTexelPointer) {
    const auto *entry = *static_cast<const spvb_binding *const *>(operands[0]);
    const auto *image = reinterpret_cast<const spvb_image *>(entry->base);
    const ImageFormat *format = getImageFormat(image->format);
    TypeDesc coordinateType(operandDescs[1]);
    int64_t coordinate[4] = {};
    for (unsigned c = 0; c < std::min<uint32_t>(coordinateType.count, 4); ++c)
      coordinate[c] = loadInt(operands[1], coordinateType, c);
    // Operands: image, coordinate, sample (0 unless multisampled).
    int64_t sample = operandCount > 2
                         ? loadInt(operands[2], TypeDesc(operandDescs[2]), 0)
                         : 0;
    uint8_t *texel = format ? findTexel(*image, *format, coordinate,
                                        coordinateType.count, 0, sample)
                            : nullptr;
    void *pointer = texel ? static_cast<void *>(texel) : outsideTexel;
    std::memcpy(result, &pointer, sizeof(pointer));
    return;
  }

  const auto *image = *static_cast<const spvb_image *const *>(operands[0]);
  const ImageFormat *format = getImageFormat(image->format);
  // An input attachment (a SubpassData descriptor) is read at the
  // fragment's pixel plus the coordinate, as a 2D image.
  spvb_image subpass;
  int32_t pixel[2] = {0, 0};
  if (image->dim == spv::DimSubpassData) {
    subpass = *image;
    subpass.dim = spv::Dim2D;
    image = &subpass;
    if (opcode != spv::OpImageRead || !invocation ||
        !getFragmentPixel(*invocation, pixel[0], pixel[1])) {
      std::memset(result, 0, resultSize());
      return;
    }
  }
  switch (opcode) {
  case spv::OpImageQuerySize:
    writeSize(result, resultDesc, *image, 0);
    return;
  case spv::OpImageQuerySizeLod: {
    int64_t level = loadInt(operands[1], TypeDesc(operandDescs[1]), 0);
    writeSize(result, resultDesc, *image,
              uint32_t(std::max<int64_t>(0, level)));
    return;
  }
  case spv::OpImageQueryLevels:
  case spv::OpImageQuerySamples:
    storeComponent(result, TypeDesc(resultDesc), 0, 0,
                   opcode == spv::OpImageQueryLevels ? image->levels
                                                     : image->samples);
    return;
  case spv::OpImageRead:
  case spv::OpImageFetch:
  case spv::OpImageWrite: {
    TypeDesc coordinateType(operandDescs[1]);
    unsigned firstOperand = opcode == spv::OpImageWrite ? 3 : 2;
    ImageOperands extra = readImageOperands(
        imageOperands, firstOperand, operandCount, operandDescs, operands);
    int64_t coordinate[4] = {};
    unsigned count = std::min<uint32_t>(coordinateType.count, 4);
    for (unsigned c = 0; c < count; ++c)
      coordinate[c] = loadInt(operands[1], coordinateType, c) +
                      (c < 3 ? extra.offset[c] : 0) + (c < 2 ? pixel[c] : 0);
    uint8_t *texel = format ? findTexel(*image, *format, coordinate, count,
                                        extra.lod, extra.sample)
                            : nullptr;
    if (opcode == spv::OpImageWrite) {
      if (!texel)
        return;
      TypeDesc valueType(operandDescs[2]);
      Texel value;
      for (unsigned c = 0; c < std::min<uint32_t>(valueType.count, 4); ++c) {
        if (valueType.kind == SPVB_KIND_FLOAT)
          value.f[c] = loadFloat(operands[2], valueType, c);
        else
          value.i[c] =
              static_cast<uint64_t>(loadInt(operands[2], valueType, c));
      }
      encodeTexel(*format, value, texel);
      return;
    }
    if (!texel) {
      std::memset(result, 0, resultSize());
      return;
    }
    Texel value = decodeTexel(*format, texel);
    writeResult(result, resultDesc, value);
    return;
  }
  case spv::OpImageSampleImplicitLod:
  case spv::OpImageSampleExplicitLod:
  case spv::OpImageSampleDrefImplicitLod:
  case spv::OpImageSampleDrefExplicitLod:
  case spv::OpImageGather:
  case spv::OpImageDrefGather: {
    // Operands: image, sampler, coordinate[, component | Dref], image
    // operands.
    const auto *sampler =
        *static_cast<const spvb_sampler *const *>(operands[1]);
    SampleRequest request;
    TypeDesc coordinateType(operandDescs[2]);
    request.coordinateCount = std::min<uint32_t>(coordinateType.count, 4);
    for (unsigned c = 0; c < request.coordinateCount; ++c)
      request.coordinate[c] = loadFloat(operands[2], coordinateType, c);
    unsigned next = 3;
    if (opcode == spv::OpImageGather) {
      request.gatherComponent =
          static_cast<int>(loadInt(operands[3], TypeDesc(operandDescs[3]), 0));
      next = 4;
    }
    if ((opcode == spv::OpImageSampleDrefImplicitLod ||
         opcode == spv::OpImageSampleDrefExplicitLod ||
         opcode == spv::OpImageDrefGather) &&
        operandCount > 3) {
      request.dref = loadFloat(operands[3], TypeDesc(operandDescs[3]), 0);
      if (opcode == spv::OpImageDrefGather)
        request.gatherComponent = 0;
      next = 4;
    }
    auto take = [&]() -> int { return next < operandCount ? next++ : -1; };
    if (imageOperands & spv::ImageOperandsBiasMask)
      if (int i = take(); i >= 0)
        request.bias = loadFloat(operands[i], TypeDesc(operandDescs[i]), 0);
    if (imageOperands & spv::ImageOperandsLodMask)
      if (int i = take(); i >= 0)
        request.lod = loadFloat(operands[i], TypeDesc(operandDescs[i]), 0);
    if (imageOperands & spv::ImageOperandsGradMask) {
      int dx = take(), dy = take();
      if (dx >= 0 && dy >= 0) {
        request.hasGradients = true;
        for (unsigned c = 0; c < 3; ++c) {
          TypeDesc xType(operandDescs[dx]), yType(operandDescs[dy]);
          if (c < xType.count)
            request.dx[c] = loadFloat(operands[dx], xType, c);
          if (c < yType.count)
            request.dy[c] = loadFloat(operands[dy], yType, c);
        }
      }
    }
    for (uint32_t bit :
         {spv::ImageOperandsConstOffsetMask, spv::ImageOperandsOffsetMask}) {
      if (!(imageOperands & bit))
        continue;
      if (int i = take(); i >= 0) {
        TypeDesc type(operandDescs[i]);
        for (unsigned c = 0; c < std::min<uint32_t>(type.count, 3); ++c)
          request.offset[c] = static_cast<int>(loadInt(operands[i], type, c));
      }
    }
    if (imageOperands & spv::ImageOperandsMinLodMask)
      if (int i = take(); i >= 0)
        request.minLod = loadFloat(operands[i], TypeDesc(operandDescs[i]), 0);
    Texel value =
        format ? sampleImage(*image, *format, sampler, request) : Texel();
    writeResult(result, resultDesc, value);
    return;
  }
  default:
    // The JIT refuses kernels with other image instructions.
    std::memset(result, 0, resultSize());
    return;
  }
}

extern "C" void spvb_rt_sample2(uint32_t imageOperands, const spvb_image *image,
                                const spvb_sampler *sampler, float u, float v,
                                float bias, float lod, float dudx, float dvdx,
                                float dudy, float dvdy, float *result) {
  const float inputs[SPVB_SAMPLE2_INPUTS] = {u,    v,    bias, lod,
                                             dudx, dvdx, dudy, dvdy};
  spvb_rt_sample2_lanes(imageOperands, 1, 1, &image, &sampler, inputs, result);
}

/// spvb_rt_sample2_lanes for the lanes of `group`, which sample `image`
/// through `sampler`.
static void sampleLanes(uint32_t imageOperands, uint32_t lanes, uint64_t group,
                        const spvb_image &image, const spvb_sampler *sampler,
                        const float *inputs, float *results) {
  const ImageFormat *format = getImageFormat(image.format);
  if (format)
    group = sampleRgba8Lanes(image, *format, sampler, imageOperands, inputs,
                             lanes, group, results);
  for (; group; group &= group - 1) {
    unsigned lane = llvm::countr_zero(group);
    Texel texel;
    if (format)
      texel =
          sampleImage(image, *format, sampler,
                      makeSample2Request(imageOperands, inputs + lane, lanes));
    for (unsigned c = 0; c < 4; ++c)
      results[c * lanes + lane] = float(texel.f[c]);
  }
}

static uint64_t laneMask(uint32_t lanes, uint64_t active) {
  return lanes >= 64 ? active : active & ((uint64_t(1) << lanes) - 1);
}

extern "C" void spvb_rt_sample2_lanes(uint32_t imageOperands, uint32_t lanes,
                                      uint64_t active,
                                      const spvb_image *const *images,
                                      const spvb_sampler *const *samplers,
                                      const float *inputs, float *results) {
  uint64_t pending = laneMask(lanes, active);
  while (pending) {
    // The lanes of one image and sampler are sampled together.
    unsigned leader = llvm::countr_zero(pending);
    const spvb_image *image = images[leader];
    const spvb_sampler *sampler = samplers[leader];
    uint64_t group = 0;
    for (uint64_t rest = pending; rest; rest &= rest - 1) {
      unsigned lane = llvm::countr_zero(rest);
      if (images[lane] == image && samplers[lane] == sampler)
        group |= uint64_t(1) << lane;
    }
    pending &= ~group;
    sampleLanes(imageOperands, lanes, group, *image, sampler, inputs, results);
  }
}

extern "C" void spvb_rt_sample2_uniform(uint32_t imageOperands, uint32_t lanes,
                                        uint64_t active,
                                        const spvb_image *image,
                                        const spvb_sampler *sampler,
                                        const float *inputs, float *results) {
  if (uint64_t group = laneMask(lanes, active))
    sampleLanes(imageOperands, lanes, group, *image, sampler, inputs, results);
}
