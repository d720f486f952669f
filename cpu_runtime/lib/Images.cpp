//===- Images.cpp - Image instructions on spvb_image descriptors ----------===//
//
// spvb_rt_image for storage images and texel buffers: OpImageRead,
// OpImageWrite, OpImageFetch, the size, level and sample queries and
// OpImageTexelPointer (whose pointer the generated code uses for atomics).
// Reads outside the image give zero and writes outside it are dropped, as
// with robustImageAccess. Sampling needs samplers, which the runtime does not
// implement yet: the JIT refuses such kernels before they run.
//
//===----------------------------------------------------------------------===//
#include "ImageFormats.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>

using namespace spvb::runtime;

namespace {

struct TypeDesc {
  uint32_t kind;
  uint32_t bytes;
  uint32_t count;
  explicit TypeDesc(uint32_t desc)
      : kind(desc >> 16), bytes((desc >> 8) & 0xff), count(desc & 0xff) {}
};

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
  return result;
}

/// Where the texel at integer coordinates is, or null outside the image.
/// The coordinate components are x[, y[, z]] then the layer when arrayed
/// (a cube is a 2D array of faces).
uint8_t *findTexel(const spvb_image &image, const ImageFormat &format,
                   const int64_t *coordinate, unsigned count, uint32_t level) {
  if (level >= image.levels)
    return nullptr;
  unsigned dims = image.dim == spv::Dim1D || image.dim == spv::DimBuffer ? 1
                  : image.dim == spv::Dim3D                              ? 3
                                                                         : 2;
  int64_t position[4] = {0, 0, 0, 0}; // x, y, z, layer
  for (unsigned c = 0; c < std::min(count, dims); ++c)
    position[c] = coordinate[c];
  if (count > dims)
    position[3] = coordinate[dims];
  uint64_t offset = 0;
  uint64_t extent[3];
  for (uint32_t l = 0;; ++l) {
    for (int d = 0; d < 3; ++d)
      extent[d] = std::max<uint64_t>(1, image.extent[d] >> l);
    if (l == level)
      break;
    offset += extent[0] * extent[1] * extent[2] * image.layers;
  }
  for (int d = 0; d < 3; ++d)
    if (position[d] < 0 || uint64_t(position[d]) >= extent[d])
      return nullptr;
  if (position[3] < 0 || uint64_t(position[3]) >= image.layers)
    return nullptr;
  uint64_t index =
      offset +
      ((uint64_t(position[3]) * extent[2] + uint64_t(position[2])) * extent[1] +
       uint64_t(position[1])) *
          extent[0] +
      uint64_t(position[0]);
  uint64_t byteOffset = index * format.texelBytes;
  if (byteOffset + format.texelBytes > image.size)
    return nullptr;
  return image.data + byteOffset;
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
  unsigned dims = image.dim == spv::Dim1D || image.dim == spv::DimBuffer ? 1
                  : image.dim == spv::Dim3D                              ? 3
                                                                         : 2;
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

extern "C" void spvb_rt_image(spvb_invocation *, uint32_t opcode,
                              uint32_t imageOperands, uint32_t resultDesc,
                              uint32_t operandCount,
                              const uint32_t *operandDescs,
                              const void *const *operands, void *result) {
  auto resultSize = [&] {
    TypeDesc type(resultDesc);
    return size_t(type.bytes) * type.count;
  };
  if (opcode == spv::OpImageTexelPointer) {
    const auto *entry = *static_cast<const spvb_binding *const *>(operands[0]);
    const auto *image = reinterpret_cast<const spvb_image *>(entry->base);
    const ImageFormat *format = getImageFormat(image->format);
    TypeDesc coordinateType(operandDescs[1]);
    int64_t coordinate[4] = {};
    for (unsigned c = 0; c < std::min<uint32_t>(coordinateType.count, 4); ++c)
      coordinate[c] = loadInt(operands[1], coordinateType, c);
    uint8_t *texel =
        format ? findTexel(*image, *format, coordinate, coordinateType.count, 0)
               : nullptr;
    void *pointer = texel ? static_cast<void *>(texel) : outsideTexel;
    std::memcpy(result, &pointer, sizeof(pointer));
    return;
  }

  const auto *image = *static_cast<const spvb_image *const *>(operands[0]);
  const ImageFormat *format = getImageFormat(image->format);
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
                      (c < 3 ? extra.offset[c] : 0);
    uint8_t *texel =
        format ? findTexel(*image, *format, coordinate, count, extra.lod)
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
  default:
    // Refused at compile time (sampling needs samplers); never reached.
    std::memset(result, 0, resultSize());
    return;
  }
}
