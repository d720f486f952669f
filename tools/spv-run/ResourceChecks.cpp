//===- ResourceChecks.cpp - The resources a shader needs, given ----------===//
//
// Every resource the shader uses needs a --buffer, --image or --sampler of
// the right kind (each element of a descriptor array one), and push
// constants a --push; each mismatch is an error naming the flag, the
// shader's variable, its set and binding.
//
//===----------------------------------------------------------------------===//
#include "ResourceChecks.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace spvb;

/// Whether an --image fits the shader's OpTypeImage.
static Error checkImage(const ResourceInfo &resource, StringRef name,
                        const run::ImageArgument &image) {
  auto error = [&](const Twine &message) {
    return createStringError(
        inconvertibleErrorCode(),
        formatv("error: --image {0}:{1}: ", resource.set, resource.binding)
                .str() +
            message);
  };
  const ImageInfo &info = *resource.image;
  if (info.format != spv::ImageFormatUnknown && info.format != image.format) {
    const runtime::ImageFormat *declared = runtime::getImageFormat(info.format);
    return error(formatv("the shader declares '{0}' as {1}, not {2}", name,
                         declared ? declared->name : "another format",
                         image.formatName));
  }
  // Vulkan requires an MS=1 image's view to have more than one sample and
  // an MS=0 image's exactly one.
  if (info.multisampled && image.samples == 1)
    return error(formatv("'{0}' is multisampled: EXTENT needs ,samples=N "
                         "with N > 1",
                         name));
  if (!info.multisampled && image.samples > 1)
    return error(formatv("'{0}' is not multisampled: it takes one sample, "
                         "not {1}",
                         name, image.samples));
  unsigned dims = runtime::getImageDimensions(info.dim);
  if (image.dimensions != dims)
    return error(formatv("'{0}' has {1} dimension{2}; EXTENT needs {3}", name,
                         dims, dims == 1 ? "" : "s",
                         dims == 1   ? "W"
                         : dims == 2 ? "WxH"
                                     : "WxHxD"));
  if (info.dim == spv::DimCube && image.layers % 6 != 0)
    return error(
        formatv("'{0}' is a cube: layers must be a multiple of 6", name));
  if (!info.arrayed && info.dim != spv::DimCube && image.layers != 1)
    return error(formatv("'{0}' is not arrayed: it takes one layer", name));
  if (info.dim == spv::DimCube && !info.arrayed && image.layers != 6)
    return error(formatv("'{0}' is a cube: it takes 6 layers", name));
  if (info.dim == spv::DimBuffer && image.levels != 1)
    return error(formatv("'{0}' is a texel buffer: it has one level", name));
  return Error::success();
}

uint32_t spvb::getDescriptorCount(const ResourceInfo &resource,
                                  ArrayRef<HostBuffer> buffers) {
  if (resource.arraySize)
    return resource.arraySize;
  uint32_t count = 1;
  for (const HostBuffer &buffer : buffers)
    if (buffer.isDescriptor(resource.set, resource.binding))
      count = std::max(count, buffer.argument.element.value_or(0) + 1);
  return count;
}

/// Whether an element is given exactly when the resource is a descriptor
/// array, and within its size. \p given names the flag ("--buffer 0:1[2]"),
/// \p descriptor the shader's variable, \p what one descriptor ("storage
/// buffer", "sampler").
static Error checkElement(StringRef given, const ResourceInfo &resource,
                          StringRef descriptor, StringRef what,
                          std::optional<uint32_t> element) {
  auto error = [&](const Twine &message) {
    return createStringError(inconvertibleErrorCode(),
                             "error: " + given + ": " + message);
  };
  bool isArray = resource.arraySize != 1;
  if (!isArray && element)
    return error(formatv("{0} is not a descriptor array; give it as {1}:{2}",
                         descriptor, resource.set, resource.binding));
  if (isArray && !element)
    return error(formatv(
        "{0} is {1}; give each element as {2}:{3}[ELEMENT]", descriptor,
        resource.arraySize
            ? formatv("an array of {0} {1}s", resource.arraySize, what).str()
            : "a runtime-sized array of " + what.str() + "s",
        resource.set, resource.binding));
  if (resource.arraySize > 1 && element && *element >= resource.arraySize)
    return error(formatv("element {0} is out of range: {1} is an array of "
                         "{2} {3}s",
                         *element, descriptor, resource.arraySize, what));
  return Error::success();
}

/// Every separate sampler needs a --sampler for each element, and every
/// --sampler without an --image a separate sampler.
static Error checkSamplers(const ModuleReflection &reflection,
                           ArrayRef<HostBuffer> buffers,
                           ArrayRef<HostSampler> samplers,
                           StringRef shaderPath) {
  auto error = [](const Twine &message) {
    return createStringError(inconvertibleErrorCode(), "error: " + message);
  };
  for (const HostSampler &sampler : samplers) {
    const ResourceInfo *resource =
        reflection.findResource(sampler.set, sampler.binding);
    if (!resource || resource->kind != ResourceKind::Sampler)
      return error(formatv("--sampler '{0}': no --image {1} to sample",
                           sampler.arg,
                           run::formatDescriptor(sampler.set, sampler.binding,
                                                 sampler.element)));
    if (Error problem = checkElement(
            formatv("--sampler '{0}'", sampler.arg).str(), *resource,
            formatv("'{0}' (set {1}, binding {2})", resource->name,
                    resource->set, resource->binding)
                .str(),
            "sampler", sampler.element))
      return problem;
  }
  for (const ResourceInfo &resource : reflection.resources) {
    if (resource.kind != ResourceKind::Sampler)
      continue;
    for (const HostBuffer &buffer : buffers)
      if (buffer.isDescriptor(resource.set, resource.binding))
        return error(formatv("{0} {1}: the shader's '{2}' is a sampler (use "
                             "--sampler)",
                             buffer.image ? "--image" : "--buffer",
                             buffer.getName().str(), resource.name));
    uint32_t count = resource.arraySize;
    if (!count)
      for (const HostSampler &sampler : samplers)
        if (sampler.set == resource.set && sampler.binding == resource.binding)
          count = std::max(count, sampler.element.value_or(0) + 1);
    for (uint32_t element = 0; element < std::max(count, 1u); ++element) {
      bool isArray = resource.arraySize != 1;
      if (any_of(samplers, [&](const HostSampler &sampler) {
            return sampler.set == resource.set &&
                   sampler.binding == resource.binding &&
                   sampler.element.value_or(0) == element;
          }))
        continue;
      std::optional<uint32_t> elementName;
      if (isArray)
        elementName = element;
      return error(formatv(
          "{0}: the shader uses sampler '{1}' (set {2}, binding {3}{4}) but "
          "no --sampler {5}:SETTINGS provides it",
          shaderPath, resource.name, resource.set, resource.binding,
          isArray ? formatv(", element {0}", element).str() : "",
          run::formatDescriptor(resource.set, resource.binding, elementName)));
    }
  }
  return Error::success();
}

Error spvb::checkResources(const ModuleReflection &reflection,
                           ArrayRef<HostBuffer> buffers,
                           ArrayRef<HostSampler> samplers, bool hasPush,
                           StringRef shaderPath) {
  auto error = [](const Twine &message) {
    return createStringError(inconvertibleErrorCode(), "error: " + message);
  };
  if (Error problem = checkSamplers(reflection, buffers, samplers, shaderPath))
    return problem;
  for (const ResourceInfo &resource : reflection.resources) {
    if (resource.kind == ResourceKind::Sampler)
      continue;
    // An anonymous block ("buffer Y { ... };") is named by its type.
    const std::string &name =
        resource.name.empty() ? resource.blockTypeName : resource.name;
    bool isImage = resource.image.has_value();
    bool storage = resource.kind == ResourceKind::StorageBuffer;
    std::string kind =
        isImage ? join(split(getResourceKindName(resource.kind), '-'), " ")
                : std::string(storage ? "storage" : "uniform");
    std::string what = isImage ? kind : kind + " buffer";
    std::string descriptor = formatv("'{0}' (set {1}, binding {2})", name,
                                     resource.set, resource.binding)
                                 .str();
    bool isArray = resource.arraySize != 1;
    for (const HostBuffer &buffer : buffers) {
      if (!buffer.isDescriptor(resource.set, resource.binding))
        continue;
      std::string flag = buffer.image ? "--image " : "--buffer ";
      std::string given = flag + buffer.getName().str();
      if (Error problem = checkElement(given, resource, descriptor, what,
                                       buffer.argument.element))
        return problem;
    }
    for (uint32_t element = 0, count = getDescriptorCount(resource, buffers);
         element < count; ++element) {
      std::optional<uint32_t> elementName;
      if (isArray)
        elementName = element;
      std::string at =
          run::formatDescriptor(resource.set, resource.binding, elementName);
      const HostBuffer *buffer = find_if(buffers, [&](const HostBuffer &b) {
        return b.isDescriptor(resource.set, resource.binding) &&
               b.argument.element.value_or(0) == element;
      });
      std::string usedBy =
          formatv("{0}: the shader uses {1} '{2}' (set {3}, binding {4}{5})",
                  shaderPath, what, name, resource.set, resource.binding,
                  isArray ? formatv(", element {0}", element).str() : "")
              .str();
      if (isImage) {
        if (buffer == buffers.end())
          return error(formatv("{0} but no --image {1}:FORMAT:EXTENT:DATA "
                               "provides it",
                               usedBy, at));
        if (!buffer->image)
          return error(formatv("--buffer {0}: the shader's '{1}' is a {2} "
                               "(use --image)",
                               at, name, kind));
        if (Error problem = checkImage(resource, name, *buffer->image))
          return problem;
        continue;
      }
      if (buffer == buffers.end())
        return error(formatv("{0} but no --buffer {1}:{2}:DATA provides it",
                             usedBy, at, kind));
      if (buffer->image)
        return error(formatv("--image {0}: the shader's '{1}' is a {2} "
                             "buffer (use --buffer)",
                             at, name, kind));
      if ((buffer->argument.kind == run::DescriptorKind::Storage) != storage)
        return error(formatv("--buffer {0}: the shader's '{1}' is a {2} "
                             "buffer",
                             at, name, kind));
    }
  }
  if (reflection.pushConstants && !hasPush)
    return error(formatv("{0}: the shader uses {1} bytes of push constants "
                         "but no --push provides them",
                         shaderPath, reflection.pushConstantSize));
  return Error::success();
}
