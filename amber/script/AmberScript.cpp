//===- AmberScript.cpp - The model of an Amber script ---------------------===//

#include "spvbridge/amber/AmberScript.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>

using namespace spvb::amber;
using llvm::StringRef;

llvm::StringRef spvb::amber::stageName(ShaderStage stage) {
  switch (stage) {
  case ShaderStage::Vertex:
    return "vertex";
  case ShaderStage::TessellationControl:
    return "tessellation_control";
  case ShaderStage::TessellationEvaluation:
    return "tessellation_evaluation";
  case ShaderStage::Geometry:
    return "geometry";
  case ShaderStage::Fragment:
    return "fragment";
  case ShaderStage::Compute:
    return "compute";
  case ShaderStage::Multi:
    return "multi";
  case ShaderStage::RayGeneration:
    return "ray_generation";
  case ShaderStage::AnyHit:
    return "any_hit";
  case ShaderStage::ClosestHit:
    return "closest_hit";
  case ShaderStage::Miss:
    return "miss";
  case ShaderStage::Intersection:
    return "intersection";
  case ShaderStage::Callable:
    return "callable";
  }
  return "compute";
}

llvm::StringRef spvb::amber::shaderFormatName(ShaderFormat format) {
  switch (format) {
  case ShaderFormat::Glsl:
    return "GLSL";
  case ShaderFormat::Hlsl:
    return "HLSL";
  case ShaderFormat::SpirvAsm:
    return "SPIRV-ASM";
  case ShaderFormat::SpirvHex:
    return "SPIRV-HEX";
  case ShaderFormat::SpirvBin:
    return "SPIRV-BIN";
  case ShaderFormat::OpenClC:
    return "OPENCL-C";
  }
  return "GLSL";
}

llvm::StringRef spvb::amber::descriptorKindName(DescriptorKind kind) {
  switch (kind) {
  case DescriptorKind::UniformBuffer:
    return "uniform";
  case DescriptorKind::StorageBuffer:
    return "storage";
  case DescriptorKind::UniformBufferDynamic:
    return "uniform_dynamic";
  case DescriptorKind::StorageBufferDynamic:
    return "storage_dynamic";
  case DescriptorKind::StorageImage:
    return "storage_image";
  case DescriptorKind::SampledImage:
    return "sampled_image";
  case DescriptorKind::CombinedImageSampler:
    return "combined_image_sampler";
  case DescriptorKind::UniformTexelBuffer:
    return "uniform_texel_buffer";
  case DescriptorKind::StorageTexelBuffer:
    return "storage_texel_buffer";
  case DescriptorKind::Sampler:
    return "sampler";
  }
  return "storage";
}

namespace {

/// The bytes \p count elements of \p buffer span: OFFSET and STRIDE in a
/// STRUCT may put a member past the stride.
uint64_t elementsExtent(const Buffer &buffer, uint64_t count) {
  if (count == 0)
    return 0;
  uint64_t stride = buffer.stride();
  uint64_t extent = stride;
  for (const ScalarSlot &slot : scalarSlots(buffer.type, buffer.layout))
    extent = std::max(extent, slot.offset + slot.scalar.sizeInBytes());
  return (count - 1) * stride + extent;
}

/// Calls \p emit with each of a SERIES_FROM buffer's elementCount values.
template <typename Emit>
void forEachSeriesValue(const Buffer &buffer, Emit emit) {
  ScalarType scalar = buffer.type.scalar;
  if (scalar.isFloat()) {
    // Amber adds the increment to a running double; multiplying would round
    // differently.
    double value = buffer.seriesStart.asDouble();
    double increment = buffer.seriesIncrement.asDouble();
    for (uint64_t i = 0; i < buffer.elementCount; ++i, value += increment)
      emit(Value::fromDouble(value));
    return;
  }
  uint64_t value = buffer.seriesStart.asUint64();
  uint64_t increment = buffer.seriesIncrement.asUint64();
  for (uint64_t i = 0; i < buffer.elementCount; ++i, value += increment)
    emit(scalar.isSigned() ? Value::fromInt(static_cast<int64_t>(value))
                           : Value::fromUint(value));
}

} // namespace

uint64_t Buffer::byteSize() const {
  uint64_t size = std::max(minSizeInBytes, elementsExtent(*this, elementCount));
  if (init == InitKind::Values) {
    uint64_t perElement = std::max<uint64_t>(valuesPerElement(type), 1);
    size =
        std::max(size, elementsExtent(*this, (values.size() + perElement - 1) /
                                                 perElement));
  }
  if (init == InitKind::Bytes)
    size = std::max<uint64_t>(size, bytes.size());
  return size;
}

std::vector<Value> Buffer::expandValues() const {
  switch (init) {
  case InitKind::Values:
    return values;
  case InitKind::Fill: {
    std::vector<ScalarSlot> slots = scalarSlots(type, layout);
    std::vector<Value> filled;
    filled.reserve(elementCount * slots.size());
    for (uint64_t i = 0; i < elementCount * slots.size(); ++i)
      filled.push_back(convertValue(fill, slots[i % slots.size()].scalar));
    return filled;
  }
  case InitKind::Series: {
    std::vector<Value> series;
    series.reserve(elementCount);
    forEachSeriesValue(*this, [&](Value value) { series.push_back(value); });
    return series;
  }
  case InitKind::None:
  case InitKind::Bytes:
  case InitKind::Png:
    return {};
  }
  return {};
}

std::vector<uint8_t> Buffer::initialBytes() const {
  std::vector<uint8_t> out(byteSize(), 0);
  llvm::MutableArrayRef<uint8_t> outRef(out);
  std::vector<ScalarSlot> slots = scalarSlots(type, layout);
  uint64_t elementBytes = stride();
  auto write = [&](uint64_t index, const Value &value) {
    const ScalarSlot &slot = slots[index % slots.size()];
    uint64_t offset = index / slots.size() * elementBytes + slot.offset;
    if (offset + slot.scalar.sizeInBytes() <= out.size())
      writeScalar(outRef.slice(offset, slot.scalar.sizeInBytes()), slot.scalar,
                  value);
  };
  switch (init) {
  case InitKind::Values:
    if (!slots.empty())
      for (auto [index, value] : llvm::enumerate(values))
        write(index, value);
    break;
  case InitKind::Fill:
    // One element's bytes, copied: FILL of millions of elements is common
    // in benchmarks.
    if (!slots.empty()) {
      std::vector<uint8_t> pattern(slots.size() * 8);
      for (auto [index, slot] : llvm::enumerate(slots))
        writeScalar(llvm::MutableArrayRef<uint8_t>(pattern).slice(
                        index * 8, slot.scalar.sizeInBytes()),
                    slot.scalar, convertValue(fill, slot.scalar));
      for (uint64_t element = 0; element < elementCount; ++element)
        for (auto [index, slot] : llvm::enumerate(slots)) {
          uint64_t offset = element * elementBytes + slot.offset;
          if (offset + slot.scalar.sizeInBytes() <= out.size())
            std::memcpy(out.data() + offset, pattern.data() + index * 8,
                        slot.scalar.sizeInBytes());
        }
    }
    break;
  case InitKind::Series:
    if (!slots.empty()) {
      uint64_t index = 0;
      forEachSeriesValue(*this, [&](Value value) { write(index++, value); });
    }
    break;
  case InitKind::Bytes:
    std::copy(bytes.begin(), bytes.end(), out.begin());
    break;
  case InitKind::None:
  case InitKind::Png:
    break;
  }
  return out;
}

const ShaderAttachment *Pipeline::findAttachment(StringRef shader) const {
  for (const ShaderAttachment &attachment : shaders)
    if (attachment.shader == shader)
      return &attachment;
  return nullptr;
}

const DescriptorBinding *Pipeline::findBinding(uint32_t set,
                                               uint32_t binding) const {
  for (const DescriptorBinding &descriptor : bindings)
    if (descriptor.set == set && descriptor.binding == binding)
      return &descriptor;
  return nullptr;
}

Command::~Command() = default;

namespace {

template <typename T>
const T *findNamed(const std::vector<T> &objects, StringRef name) {
  for (const T &object : objects)
    if (object.name == name)
      return &object;
  return nullptr;
}

} // namespace

const Shader *Script::findShader(StringRef name) const {
  return findNamed(shaders, name);
}

const Buffer *Script::findBuffer(StringRef name) const {
  return findNamed(buffers, name);
}

const Sampler *Script::findSampler(StringRef name) const {
  return findNamed(samplers, name);
}

const Pipeline *Script::findPipeline(StringRef name) const {
  return findNamed(pipelines, name);
}

const VirtualFile *Script::findVirtualFile(StringRef name) const {
  return findNamed(virtualFiles, name);
}

const StructType *Script::findStruct(StringRef name) const {
  for (const std::shared_ptr<const StructType> &structType : structs)
    if (structType->name == name)
      return structType.get();
  return nullptr;
}
