//===- VulkanBackend.h - Run one compute job through Vulkan -----*- C++ -*-===//
//
// spv-run --backend=vulkan: the job spv-run runs on the CPU, run instead on
// the system's Vulkan driver (Mesa's lavapipe in tests), the way
// ../shared/tools/vkref does it:
//   - the first CPU-type physical device, or the one --device names;
//   - every core, 1.1, 1.2 and 1.3 feature the device has, plus
//     VK_EXT_shader_atomic_float(2), VK_KHR_shader_clock and
//     VK_KHR_shader_non_semantic_info when present; robustBufferAccess off
//     unless Job::robust asks for it (then VK_EXT_robustness2's
//     robustBufferAccess2 too);
//   - host-visible coherent buffers in any descriptor sets (gaps get empty
//     layouts), descriptor arrays (descriptorCount the array's size, each
//     element written), push constants, VkSpecializationInfo for --spec;
//   - buffers bound to no descriptor (--device-buffer) and buffer device
//     addresses (--address): with either, the device needs
//     bufferDeviceAddress (Vulkan 1.2), every buffer gets
//     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT and memory allocated with
//     VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, and each run starts from the
//     initial contents with the vkGetBufferDeviceAddress addresses written
//     in;
//   - images as optimal-tiling VkImages in layout GENERAL with a view of
//     every level and layer, a VkSampler for combined image samplers and
//     for each separate sampler (VK_DESCRIPTOR_TYPE_SAMPLER), texel
//     buffers as host-visible buffers with a VkBufferView;
//   - one untimed warm-up, then Job::repeat timed submits, each after the
//     buffers are restored by a host memcpy and the images by a copy from a
//     staging buffer, both outside the timed region.
//
// Errors (one line each):
//   error: --backend=vulkan: no Vulkan device (...)
//   error: --device 'N': out of range (M Vulkan devices)
//   error: --groups: X groups in dimension D exceed the Vulkan device's
//          limit of L
//   error: --push: N bytes exceed the Vulkan device's limit of L
//   error: --buffer S:B: N bytes exceed the Vulkan device's limit of L for
//          storage|uniform buffers
//   error: --buffer: N storage|uniform buffer descriptors exceed the Vulkan
//          device's limit of L (maxPerStageDescriptorStorage|UniformBuffers)
//   error: --robust: the Vulkan device 'NAME' has no FEATURE
//   error: --address: the Vulkan device 'NAME' has no bufferDeviceAddress
//          (Vulkan 1.2)
//   error: --image S:B: the Vulkan device 'NAME' cannot use FORMAT (VkFormat)
//          as a storage image|sampled image|... (vkGetPhysicalDevice-
//          FormatProperties)
//   error: vulkan: vkCreateX failed: VK_ERROR_...
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_TOOLS_VULKAN_VULKANBACKEND_H
#define SPVBRIDGE_TOOLS_VULKAN_VULKANBACKEND_H

#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/Specialization.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <spirv/unified1/spirv.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvb::vulkan {

/// A buffer descriptor of the job.
struct BufferBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  /// Element of a descriptor array, and the array's size (the layout
  /// binding's descriptorCount; the same for all elements of a binding).
  uint32_t arrayElement = 0;
  uint32_t arraySize = 1;
  bool uniform = false;
  /// The contents every run starts from (not empty).
  llvm::ArrayRef<uint8_t> initial;
};

/// An image, texel buffer or combined image sampler of the job. Its texels
/// are tightly packed: x fastest, then y, z, layer; level after level, each
/// level's extent max(1, extent >> level).
struct ImageBinding {
  enum class Kind {
    StorageImage,
    SampledImage,
    CombinedImageSampler,
    UniformTexelBuffer,
    StorageTexelBuffer,
  };
  uint32_t set = 0;
  uint32_t binding = 0;
  /// As BufferBinding's.
  uint32_t arrayElement = 0;
  uint32_t arraySize = 1;
  Kind kind = Kind::StorageImage;
  /// SPIR-V ImageFormat (not Unknown) and its GLSL name for errors.
  uint32_t format = 0;
  std::string formatName;
  /// The shader's OpTypeImage Dim and Arrayed, for the image and view type.
  spv::Dim dim = spv::Dim2D;
  bool arrayed = false;
  std::array<uint32_t, 3> extent = {1, 1, 1};
  uint32_t layers = 1;
  uint32_t levels = 1;
  /// Combined image samplers; none: nearest, clamp to edge.
  std::optional<spvb_sampler> sampler;
  /// The texels every run starts from.
  llvm::ArrayRef<uint8_t> initial;
};

/// A separate sampler (OpTypeSampler) of the job: a
/// VK_DESCRIPTOR_TYPE_SAMPLER descriptor.
struct SamplerBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  /// As BufferBinding's.
  uint32_t arrayElement = 0;
  uint32_t arraySize = 1;
  spvb_sampler settings{};
};

/// A buffer bound to no descriptor: the shader reaches it through its
/// device address (--device-buffer).
struct DeviceBuffer {
  /// The contents every run starts from (not empty).
  llvm::ArrayRef<uint8_t> initial;
};

/// Before every run, the device address of a buffer plus `addend` is
/// written as 8 little-endian bytes at byte `offset` of the push constants
/// or of a buffer (--address). The caller checks that they fit.
struct AddressPatch {
  enum class Place { PushConstants, Buffer, DeviceBuffer };
  Place where = Place::PushConstants;
  /// Index into Job::buffers or Job::deviceBuffers.
  size_t whereIndex = 0;
  uint64_t offset = 0;
  /// Place::Buffer or Place::DeviceBuffer.
  Place target = Place::DeviceBuffer;
  size_t targetIndex = 0;
  uint64_t addend = 0;
};

struct Job {
  /// The module as loaded, not specialized: the driver specializes it from
  /// specializations, as an application's pipeline would.
  const SpirvBinary *spirv = nullptr;
  std::string entryPoint = "main";
  llvm::ArrayRef<SpecConstantValue> specializations;
  std::array<uint32_t, 3> groups = {1, 1, 1};
  std::vector<BufferBinding> buffers;
  std::vector<ImageBinding> images;
  std::vector<SamplerBinding> samplers;
  std::vector<DeviceBuffer> deviceBuffers;
  std::vector<AddressPatch> addresses;
  /// Push-constant bytes; empty when there are none.
  llvm::ArrayRef<uint8_t> pushConstants;
  /// Timed dispatches after the warm-up (at least 1).
  uint32_t repeat = 10;
  /// The physical device index (--device); none: the first CPU device.
  std::optional<uint32_t> deviceIndex;
  /// robustBufferAccess and robustBufferAccess2 (--robust).
  bool robust = false;
};

struct Result {
  /// VkPhysicalDeviceProperties::deviceName.
  std::string deviceName;
  uint32_t subgroupSize = 0;
  /// vkCreateShaderModule + vkCreateComputePipelines.
  double compileMilliseconds = 0;
  /// The untimed warm-up (lavapipe compiles the shader at the first
  /// dispatch, so this holds its compile time).
  double firstDispatchMilliseconds = 0;
  /// Submit + fence wait of each timed run.
  std::vector<double> dispatchMilliseconds;
  /// Each buffer of Job::buffers (same order and size) after the last run.
  std::vector<std::vector<uint8_t>> buffers;
  /// Each image of Job::images after the last run, packed as its initial
  /// texels are.
  std::vector<std::vector<uint8_t>> images;
  /// Each buffer of Job::deviceBuffers after the last run.
  std::vector<std::vector<uint8_t>> deviceBuffers;
  /// The device address of each buffer of Job::buffers, then of each of
  /// Job::deviceBuffers, when the job uses addresses (else empty).
  std::vector<uint64_t> bufferAddresses;
};

/// Runs the job; see the file comment for the errors.
llvm::Expected<Result> runJob(const Job &job);

} // namespace spvb::vulkan

#endif // SPVBRIDGE_TOOLS_VULKAN_VULKANBACKEND_H
