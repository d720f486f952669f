//===- VulkanRun.cpp - spv-run's job on the Vulkan backend ----------------===//

#include "VulkanRun.h"

#include "ResourceChecks.h"
#include "RunArguments.h"

#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace spvb;
using namespace spvb::run;

Expected<VulkanShader>
spvb::run::loadVulkanShader(StringRef path, const CompileOptions &options) {
  Expected<SpirvBinary> original = loadShaderFile(path, options.source);
  if (!original)
    return original.takeError();
  return prepareVulkanShader(std::move(*original), options);
}

Expected<VulkanShader>
spvb::run::prepareVulkanShader(SpirvBinary original,
                               const CompileOptions &options) {
  Compiler compiler(options);
  // prepare validates before it specializes.
  Expected<SpirvBinary> prepared = compiler.prepare(original);
  if (!prepared)
    return prepared.takeError();
  Expected<ModuleReflection> reflection = compiler.reflect(*prepared);
  if (!reflection)
    return reflection.takeError();
  return VulkanShader{std::move(original), std::move(*prepared),
                      std::move(*reflection), compiler.getOptions().entryPoint};
}

Expected<vulkan::ImageBinding>
spvb::run::makeVulkanImage(const ResourceInfo &resource,
                           const ImageArgument &image,
                           const std::optional<spvb_sampler> &sampler) {
  using Kind = vulkan::ImageBinding::Kind;
  vulkan::ImageBinding binding;
  switch (resource.kind) {
  case ResourceKind::StorageImage:
    binding.kind = Kind::StorageImage;
    break;
  case ResourceKind::SampledImage:
    binding.kind = Kind::SampledImage;
    break;
  case ResourceKind::CombinedImageSampler:
    binding.kind = Kind::CombinedImageSampler;
    break;
  case ResourceKind::UniformTexelBuffer:
    binding.kind = Kind::UniformTexelBuffer;
    break;
  case ResourceKind::StorageTexelBuffer:
    binding.kind = Kind::StorageTexelBuffer;
    break;
  default:
    return createStringError(
        inconvertibleErrorCode(),
        formatv("error: --image {0}:{1}: the Vulkan backend cannot bind {2} "
                "'{3}'",
                image.set, image.binding, getResourceKindName(resource.kind),
                resource.name));
  }
  // Vulkan copies no buffer to or from an image of more than one sample,
  // and copies are how the backend fills images and reads them back.
  if (image.samples > 1)
    return createStringError(
        inconvertibleErrorCode(),
        formatv("error: --image {0}: the Vulkan backend does not run "
                "multisampled images ('{1}' has {2} samples): it fills and "
                "reads back images by copies, and Vulkan copies no buffer to "
                "or from a multisampled image",
                formatDescriptor(image.set, image.binding, image.element),
                resource.name, image.samples));
  binding.set = image.set;
  binding.binding = image.binding;
  binding.format = image.format;
  binding.formatName = image.formatName;
  if (resource.image) {
    binding.dim = resource.image->dim;
    binding.arrayed = resource.image->arrayed;
  }
  for (int d = 0; d < 3; ++d)
    binding.extent[d] = image.extent[d];
  binding.layers = image.layers;
  binding.levels = image.levels;
  binding.sampler = sampler;
  binding.initial = image.bytes;
  return binding;
}

static std::array<uint32_t, 3> getWorkgroupSize(const VulkanShader &shader) {
  const EntryPointInfo *entry =
      shader.reflection.findEntryPoint(shader.entryPoint);
  return entry ? entry->workgroupSize : std::array<uint32_t, 3>{1, 1, 1};
}

json::Object spvb::run::describeVulkanRun(const VulkanShader &shader,
                                          const vulkan::Result &result,
                                          std::array<uint32_t, 3> groups,
                                          uint32_t repeat) {
  TimingSummary summary = summarize(result.dispatchMilliseconds);
  std::array<uint32_t, 3> size = getWorkgroupSize(shader);
  return json::Object{{"backend", "vulkan"},
                      {"device", result.deviceName},
                      {"entry", shader.entryPoint},
                      {"local_size", json::Array{size[0], size[1], size[2]}},
                      {"groups", json::Array{groups[0], groups[1], groups[2]}},
                      {"compile_ms", result.compileMilliseconds},
                      {"first_dispatch_ms", result.firstDispatchMilliseconds},
                      {"repeat", repeat},
                      {"dispatch_ms", summary.median},
                      {"dispatch_ms_min", summary.min},
                      {"dispatch_ms_max", summary.max},
                      {"subgroup_size", result.subgroupSize},
                      {"uses_barriers", shader.reflection.usesBarriers}};
}

void spvb::run::printVulkanRun(raw_ostream &os, const VulkanShader &shader,
                               const vulkan::Result &result,
                               std::array<uint32_t, 3> groups,
                               uint32_t repeat) {
  TimingSummary summary = summarize(result.dispatchMilliseconds);
  std::array<uint32_t, 3> size = getWorkgroupSize(shader);
  os << formatv("device:    {0} (Vulkan, subgroup size {1})\n",
                result.deviceName, result.subgroupSize);
  os << formatv("entry:     {0} local_size={1}x{2}x{3} groups={4}x{5}x{6}\n",
                shader.entryPoint, size[0], size[1], size[2], groups[0],
                groups[1], groups[2]);
  os << formatv("compile:   {0:F3} ms (pipeline creation; first dispatch "
                "{1:F3} ms)\n",
                result.compileMilliseconds, result.firstDispatchMilliseconds);
  os << formatv("dispatch:  {0:F3} ms median over {1} (min {2:F3}, max "
                "{3:F3})\n",
                summary.median, repeat, summary.min, summary.max);
}

Expected<VulkanDescriptors> spvb::run::makeVulkanDescriptors(
    function_ref<const ResourceInfo *(uint32_t, uint32_t)> findResource,
    ArrayRef<HostBuffer> buffers, ArrayRef<HostSampler> samplers) {
  using Place = vulkan::AddressPatch::Place;
  VulkanDescriptors job;
  auto &places = job.places;
  for (const HostBuffer &buffer : buffers) {
    if (buffer.isDevice()) {
      places.push_back({Place::DeviceBuffer, job.deviceBuffers.size()});
      job.deviceBuffers.push_back({buffer.argument.bytes});
      continue;
    }
    // A buffer the shader does not use is bound as one descriptor.
    const ResourceInfo *resource =
        findResource(buffer.argument.set, buffer.argument.binding);
    uint32_t element = buffer.argument.element.value_or(0);
    uint32_t arraySize =
        resource ? getDescriptorCount(*resource, buffers) : element + 1;
    if (!buffer.image) {
      places.push_back({Place::Buffer, job.buffers.size()});
      vulkan::BufferBinding binding;
      binding.set = buffer.argument.set;
      binding.binding = buffer.argument.binding;
      binding.arrayElement = element;
      binding.arraySize = arraySize;
      binding.uniform = buffer.argument.kind == run::DescriptorKind::Uniform;
      binding.initial = buffer.argument.bytes;
      job.buffers.push_back(binding);
      continue;
    }
    if (!resource)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("error: --image {0}: the shader has no image there",
                  buffer.getName().str()));
    Expected<vulkan::ImageBinding> image =
        makeVulkanImage(*resource, *buffer.image, buffer.sampler);
    if (!image)
      return image.takeError();
    image->arrayElement = element;
    image->arraySize = arraySize;
    // Images are not addressable: their place is never used.
    places.push_back({Place::PushConstants, job.images.size()});
    job.images.push_back(std::move(*image));
  }
  for (const HostSampler &sampler : samplers) {
    vulkan::SamplerBinding binding;
    binding.set = sampler.set;
    binding.binding = sampler.binding;
    binding.arrayElement = sampler.element.value_or(0);
    binding.arraySize = binding.arrayElement + 1;
    if (const ResourceInfo *resource =
            findResource(sampler.set, sampler.binding))
      binding.arraySize = resource->arraySize;
    if (!binding.arraySize)
      for (const HostSampler &other : samplers)
        if (other.set == sampler.set && other.binding == sampler.binding)
          binding.arraySize =
              std::max(binding.arraySize, other.element.value_or(0) + 1);
    binding.settings = sampler.settings;
    job.samplers.push_back(binding);
  }
  return job;
}
