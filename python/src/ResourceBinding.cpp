//===- ResourceBinding.cpp - Python memory bound to a dispatch ------------===//
#include "ResourceBinding.h"

#include "Errors.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <pybind11/stl.h>

#include <cstring>
#include <set>

namespace py = pybind11;
using namespace spvb;
using namespace spvb::python;
using llvm::formatv;

PinnedMemory::~PinnedMemory() {
  if (held)
    PyBuffer_Release(&view);
}

std::optional<std::string> PinnedMemory::pin(py::handle object, bool readOnly) {
  int flags = PyBUF_C_CONTIGUOUS | (readOnly ? 0 : PyBUF_WRITABLE);
  if (PyObject_GetBuffer(object.ptr(), &view, flags) == 0) {
    held = true;
    return std::nullopt;
  }
  PyErr_Clear();
  // Say which requirement failed.
  Py_buffer probe{};
  if (PyObject_GetBuffer(object.ptr(), &probe, PyBUF_FULL_RO) != 0) {
    PyErr_Clear();
    return formatv("is a {0}, which does not support the buffer protocol "
                   "(give a numpy array, bytearray or memoryview)",
                   py::str(py::type::handle_of(object).attr("__name__"))
                       .cast<std::string>())
        .str();
  }
  bool contiguous = PyBuffer_IsContiguous(&probe, 'C');
  PyBuffer_Release(&probe);
  if (!contiguous)
    return std::string("is not C-contiguous");
  return std::string("is read-only, but the shader may write it");
}

static std::string formatKey(const char *what,
                             const ResourceArgument &argument) {
  if (argument.hasElement)
    return formatv("{0}[({1}, {2}, {3})]", what, argument.set, argument.binding,
                   argument.element);
  return formatv("{0}[({1}, {2})]", what, argument.set, argument.binding);
}

static std::string describeResource(const ResourceInfo &resource) {
  const std::string &name =
      resource.name.empty() ? resource.blockTypeName : resource.name;
  return formatv("'{0}' (set {1}, binding {2}, {3})", name, resource.set,
                 resource.binding, getResourceKindName(resource.kind));
}

const ResourceInfo &
ResourceBinder::findResource(const ResourceArgument &argument,
                             const char *what) {
  const ResourceInfo *resource = nullptr;
  for (const Kernel *kernel : kernels)
    if (!resource)
      resource =
          kernel->reflection.findResource(argument.set, argument.binding);
  if (!resource) {
    std::string declared, names;
    for (const Kernel *kernel : kernels) {
      names += (names.empty() ? "" : " and ") + kernel->sourceName;
      for (const ResourceInfo &other : kernel->reflection.resources)
        declared += (declared.empty() ? "" : ", ") + describeResource(other);
    }
    throwBindingError(formatv("{0}: {1} declares nothing at set {2}, binding "
                              "{3} (it declares {4})",
                              formatKey(what, argument), names, argument.set,
                              argument.binding,
                              declared.empty() ? "no resources" : declared));
  }
  if (argument.hasElement && resource->arraySize == 1)
    throwBindingError(formatv("{0}: {1} is not a descriptor array; give it "
                              "as ({2}, {3})",
                              formatKey(what, argument),
                              describeResource(*resource), argument.set,
                              argument.binding));
  if (resource->arraySize > 1 && argument.element >= resource->arraySize)
    throwBindingError(formatv("{0}: element {1} is out of range: {2} is an "
                              "array of {3}",
                              formatKey(what, argument), argument.element,
                              describeResource(*resource),
                              resource->arraySize));
  return *resource;
}

PinnedMemory &ResourceBinder::pin(const ResourceArgument &argument,
                                  const char *what,
                                  const ResourceInfo &resource, bool readOnly) {
  auto memory = std::make_unique<PinnedMemory>();
  if (std::optional<std::string> problem = memory->pin(argument.data, readOnly))
    throwBindingError(formatv("{0}: the object given {1} ({2})",
                              formatKey(what, argument), *problem,
                              describeResource(resource)));
  pinned.push_back(std::move(memory));
  return *pinned.back();
}

void ResourceBinder::bind(BindTarget &target, const DispatchRequest &request) {
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> given;
  auto checkOnce = [&](const char *what, const ResourceArgument &argument) {
    if (!given.insert({argument.set, argument.binding, argument.element})
             .second)
      throwBindingError(formatv("{0}: set {1}, binding {2}, element {3} is "
                                "given twice",
                                formatKey(what, argument), argument.set,
                                argument.binding, argument.element));
  };
  for (const ResourceArgument &argument : request.buffers) {
    checkOnce("buffers", argument);
    bindBuffer(target, argument);
  }
  for (const ResourceArgument &argument : request.images) {
    checkOnce("images", argument);
    bindImage(target, argument);
  }
  for (const ResourceArgument &argument : request.samplers) {
    checkOnce("samplers", argument);
    bindSampler(target, argument);
  }
}

void ResourceBinder::bindBuffer(BindTarget &target,
                                const ResourceArgument &argument) {
  const ResourceInfo &resource = findResource(argument, "buffers");
  bool storage = resource.kind == ResourceKind::StorageBuffer;
  if (!storage && resource.kind != ResourceKind::UniformBuffer)
    throwBindingError(formatv(
        "{0}: {1} is not a buffer; give it in {2}=",
        formatKey("buffers", argument), describeResource(resource),
        resource.kind == ResourceKind::Sampler ? "samplers" : "images"));
  PinnedMemory &memory =
      pin(argument, "buffers", resource, !storage || resource.nonWritable);
  target.bindBuffer(argument.set, argument.binding, memory.getData(),
                    memory.getSize(), argument.element);
}

void ResourceBinder::bindImage(BindTarget &target,
                               const ResourceArgument &argument) {
  const ResourceInfo &resource = findResource(argument, "images");
  if (!resource.image)
    throwBindingError(formatv(
        "{0}: {1} is not an image; give it in {2}=",
        formatKey("images", argument), describeResource(resource),
        resource.kind == ResourceKind::Sampler ? "samplers" : "buffers"));
  const ImageInfo &declared = *resource.image;
  const runtime::ImageFormat *format =
      runtime::findImageFormat(argument.format);
  if (!format)
    throwBindingError(formatv("{0}: unknown image format '{1}' (expected a "
                              "GLSL image format such as rgba8, r32f or "
                              "rgba32ui)",
                              formatKey("images", argument), argument.format));
  if (declared.format != spv::ImageFormatUnknown &&
      declared.format != format->format) {
    const runtime::ImageFormat *expected =
        runtime::getImageFormat(declared.format);
    throwBindingError(
        formatv("{0}: {1} is declared {2}, not {3}",
                formatKey("images", argument), describeResource(resource),
                expected ? expected->name : "another format", format->name));
  }
  bool readOnly = declared.sampled != 2 || resource.nonWritable;
  PinnedMemory &memory = pin(argument, "images", resource, readOnly);
  uint64_t texels = 0;
  for (uint32_t level = 0; level < argument.levels && level < 32; ++level) {
    uint64_t count = argument.layers;
    for (int d = 0; d < 3; ++d)
      count = llvm::SaturatingMultiply(
          count, std::max<uint64_t>(1, argument.extent[d] >> level));
    texels = llvm::SaturatingAdd(texels, count);
  }
  uint64_t needed =
      llvm::SaturatingMultiply(texels, uint64_t(format->texelBytes));
  if (memory.getSize() != needed)
    throwBindingError(formatv("{0}: {1} bytes given, but a {2}x{3}x{4} {5} "
                              "image of {6} layer(s) and {7} level(s) has "
                              "{8}",
                              formatKey("images", argument), memory.getSize(),
                              argument.extent[0], argument.extent[1],
                              argument.extent[2], format->name, argument.layers,
                              argument.levels, needed));
  auto image = std::make_unique<spvb_image>();
  image->data = memory.getData();
  image->format = format->format;
  image->dim = declared.dim;
  for (int d = 0; d < 3; ++d)
    image->extent[d] = argument.extent[d];
  image->layers = argument.layers;
  image->levels = argument.levels;
  image->samples = 1;
  image->size = memory.getSize();
  if (resource.kind == ResourceKind::CombinedImageSampler)
    image->sampler = makeSampler(argument.sampler.value_or(py::dict()));
  target.bindImage(argument.set, argument.binding, image.get(),
                   argument.element);
  images.push_back(std::move(image));
}

void ResourceBinder::bindSampler(BindTarget &target,
                                 const ResourceArgument &argument) {
  const ResourceInfo &resource = findResource(argument, "samplers");
  if (resource.kind != ResourceKind::Sampler)
    throwBindingError(formatv("{0}: {1} is not a sampler",
                              formatKey("samplers", argument),
                              describeResource(resource)));
  target.bindSampler(argument.set, argument.binding,
                     makeSampler(argument.sampler.value_or(py::dict())),
                     argument.element);
}

const spvb_sampler *ResourceBinder::makeSampler(const py::dict &settings) {
  auto sampler = std::make_unique<spvb_sampler>();
  auto get = [&](const char *name, auto fallback) {
    return settings.contains(name) ? settings[name].cast<decltype(fallback)>()
                                   : fallback;
  };
  sampler->mag_filter = get("mag_filter", 0u);
  sampler->min_filter = get("min_filter", 0u);
  sampler->mipmap_mode = get("mipmap_mode", 0u);
  std::vector<uint32_t> address =
      get("address_mode", std::vector<uint32_t>{2, 2, 2});
  for (size_t i = 0; i < 3; ++i)
    sampler->address_mode[i] = address.at(std::min(i, address.size() - 1));
  sampler->mip_lod_bias = get("mip_lod_bias", 0.0f);
  sampler->min_lod = get("min_lod", 0.0f);
  sampler->max_lod = get("max_lod", 1000.0f);
  sampler->border_color = get("border_color", 0u);
  sampler->unnormalized_coordinates = get("unnormalized_coordinates", 0u);
  sampler->compare_enable = get("compare_enable", 0u);
  sampler->compare_op = get("compare_op", 0u);
  samplers.push_back(std::move(sampler));
  return samplers.back().get();
}

void ResourceBinder::save() {
  saved.clear();
  for (const std::unique_ptr<PinnedMemory> &memory : pinned)
    saved.emplace_back(
        memory->isWritable()
            ? std::vector<uint8_t>(memory->getData(),
                                   memory->getData() + memory->getSize())
            : std::vector<uint8_t>());
}

void ResourceBinder::restore() {
  for (size_t i = 0; i < saved.size(); ++i)
    if (!saved[i].empty())
      std::memcpy(pinned[i]->getData(), saved[i].data(), saved[i].size());
}

std::vector<uint8_t>
spvb::python::getPushConstants(py::handle push,
                               llvm::ArrayRef<const Kernel *> kernels) {
  PinnedMemory memory;
  if (std::optional<std::string> problem = memory.pin(push, true))
    throwBindingError("push: the object given " + *problem);
  uint64_t needed = 0;
  bool declared = false;
  std::string names;
  for (const Kernel *kernel : kernels) {
    declared |= kernel->reflection.pushConstants.has_value();
    needed = std::max(needed, kernel->reflection.pushConstantSize);
    names += (names.empty() ? "" : " and ") + kernel->sourceName;
  }
  if (!declared)
    throwBindingError(formatv("push: {0} declares no push constants", names));
  if (memory.getSize() < needed)
    throwBindingError(formatv("push: {0} bytes given, but the shader's push "
                              "constants take {1}",
                              memory.getSize(), needed));
  return std::vector<uint8_t>(memory.getData(),
                              memory.getData() + memory.getSize());
}
