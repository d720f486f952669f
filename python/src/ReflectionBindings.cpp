//===- ReflectionBindings.cpp - A shader's interface in Python ------------===//
#include "ReflectionBindings.h"

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/spirv/Reflection.h"

#include "llvm/Support/FormatVariadic.h"

#include <pybind11/stl.h>

#include <cstring>

namespace py = pybind11;
using namespace spvb;
using llvm::formatv;

/// A SPIR-V literal's words as the Python value of its --spec type.
static py::object decodeLiteral(llvm::StringRef type,
                                const std::vector<uint32_t> &words) {
  uint64_t bits = words.empty() ? 0 : words[0];
  if (words.size() > 1)
    bits |= uint64_t(words[1]) << 32;
  if (type == "bool")
    return py::bool_(bits != 0);
  if (type == "f32") {
    float value;
    uint32_t low = uint32_t(bits);
    std::memcpy(&value, &low, 4);
    return py::float_(value);
  }
  if (type == "f64") {
    double value;
    std::memcpy(&value, &bits, 8);
    return py::float_(value);
  }
  if (type == "f16") // the half's bits: Python has no half type
    return py::module_::import("numpy")
        .attr("array")(uint16_t(bits), "uint16")
        .attr("view")("float16")
        .attr("item")();
  if (type.starts_with("i")) {
    unsigned width = 0;
    type.drop_front().getAsInteger(10, width);
    int64_t value = width >= 64 ? int64_t(bits)
                                : int64_t(bits << (64 - width)) >> (64 - width);
    return py::int_(value);
  }
  return py::int_(bits);
}

void spvb::python::bindReflection(py::module_ &module) {
  py::class_<BlockMember>(module, "Member",
                          "A top-level member of a buffer or push-constant "
                          "block: its name, byte offset, size and type.")
      .def_readonly("name", &BlockMember::name)
      .def_readonly("offset", &BlockMember::offset)
      .def_readonly("size", &BlockMember::size,
                    "Bytes it covers; 0 for a runtime array.")
      .def_readonly("type", &BlockMember::type,
                    "Readable type: f32, vec4<f32>, array<u32,stride=4>, ...")
      .def("__repr__", [](const BlockMember &member) {
        return formatv("Member(name='{0}', offset={1}, size={2}, type='{3}')",
                       member.name, member.offset, member.size, member.type)
            .str();
      });

  py::class_<ResourceInfo>(module, "Resource",
                           "A descriptor-bound variable or the push-constant "
                           "block.")
      .def_readonly("name", &ResourceInfo::name)
      .def_property_readonly(
          "kind",
          [](const ResourceInfo &resource) {
            return getResourceKindName(resource.kind).str();
          },
          "storage-buffer, uniform-buffer, push-constant, storage-image, "
          "sampled-image, combined-image-sampler, sampler, ...")
      .def_readonly("set", &ResourceInfo::set)
      .def_readonly("binding", &ResourceInfo::binding)
      .def_readonly("array_size", &ResourceInfo::arraySize,
                    "Descriptors: 1 for one, 0 for a runtime-sized array.")
      .def_readonly("type", &ResourceInfo::type)
      .def_readonly("block_type", &ResourceInfo::blockTypeName)
      .def_readonly("static_size", &ResourceInfo::staticSize,
                    "Bytes up to the end of the last fixed-size member.")
      .def_readonly("runtime_array_stride", &ResourceInfo::runtimeArrayStride,
                    "The stride of a trailing runtime array, or 0.")
      .def_readonly("runtime_array_offset", &ResourceInfo::runtimeArrayOffset)
      .def_readonly("members", &ResourceInfo::members)
      .def_readonly("readonly", &ResourceInfo::nonWritable)
      .def_readonly("writeonly", &ResourceInfo::nonReadable)
      .def_property_readonly(
          "format",
          [](const ResourceInfo &resource) -> std::optional<std::string> {
            if (!resource.image)
              return std::nullopt;
            const runtime::ImageFormat *format =
                runtime::getImageFormat(resource.image->format);
            return format ? std::optional<std::string>(format->name)
                          : std::nullopt;
          },
          "An image's declared GLSL format (rgba8, r32f, ...), or None.")
      .def("__repr__", [](const ResourceInfo &resource) {
        return formatv("Resource(name='{0}', kind='{1}', set={2}, "
                       "binding={3}, type='{4}')",
                       resource.name, getResourceKindName(resource.kind),
                       resource.set, resource.binding, resource.type)
            .str();
      });

  py::class_<SpecConstantInfo>(module, "SpecConstant",
                               "A specialization constant with a SpecId.")
      .def_readonly("spec_id", &SpecConstantInfo::specId)
      .def_readonly("name", &SpecConstantInfo::name)
      .def_readonly("type", &SpecConstantInfo::type,
                    "bool, u8, i8, ..., f16, f32 or f64.")
      .def_property_readonly("default",
                             [](const SpecConstantInfo &constant) {
                               return decodeLiteral(constant.type,
                                                    constant.defaultWords);
                             })
      .def("__repr__", [](const SpecConstantInfo &constant) {
        return formatv(
                   "SpecConstant(spec_id={0}, name='{1}', type='{2}', "
                   "default={3})",
                   constant.specId, constant.name, constant.type,
                   py::repr(decodeLiteral(constant.type, constant.defaultWords))
                       .cast<std::string>())
            .str();
      });

  py::class_<StorageVariable>(module, "StorageVariable",
                              "A Workgroup or Private variable, placed by "
                              "the natural layout rule.")
      .def_readonly("name", &StorageVariable::name)
      .def_readonly("type", &StorageVariable::type)
      .def_readonly("offset", &StorageVariable::offset)
      .def_readonly("size", &StorageVariable::size);

  py::class_<EntryPointInfo>(module, "EntryPoint")
      .def_readonly("name", &EntryPointInfo::name)
      .def_property_readonly(
          "stage",
          [](const EntryPointInfo &entry) -> std::optional<std::string> {
            if (!entry.stage)
              return std::nullopt;
            return getShaderStageName(*entry.stage).str();
          })
      .def_readonly("workgroup_size", &EntryPointInfo::workgroupSize)
      .def("__repr__", [](const EntryPointInfo &entry) {
        return formatv("EntryPoint(name='{0}', workgroup_size=({1}, {2}, "
                       "{3}))",
                       entry.name, entry.workgroupSize[0],
                       entry.workgroupSize[1], entry.workgroupSize[2])
            .str();
      });

  py::class_<ModuleReflection>(module, "Reflection",
                               "A module's interface: what a dispatch "
                               "binds and how.")
      .def_readonly("entry_points", &ModuleReflection::entryPoints)
      .def_readonly("resources", &ModuleReflection::resources,
                    "Descriptor-bound resources, by (set, binding).")
      .def_readonly("push_constants", &ModuleReflection::pushConstants)
      .def_readonly("push_constant_size", &ModuleReflection::pushConstantSize)
      .def_readonly("spec_constants", &ModuleReflection::specConstants)
      .def_property_readonly("workgroup_memory_size",
                             [](const ModuleReflection &reflection) {
                               return reflection.workgroupStorage.size;
                             })
      .def_property_readonly("workgroup_variables",
                             [](const ModuleReflection &reflection) {
                               return reflection.workgroupStorage.variables;
                             })
      .def_readonly("capabilities", &ModuleReflection::capabilityNames)
      .def_readonly("extensions", &ModuleReflection::extensions)
      .def_readonly("uses_barriers", &ModuleReflection::usesBarriers)
      .def_readonly("uses_atomics", &ModuleReflection::usesAtomics)
      .def_readonly("uses_subgroups", &ModuleReflection::usesSubgroupOps)
      .def(
          "resource",
          [](const ModuleReflection &reflection, uint32_t set,
             uint32_t binding) {
            return reflection.findResource(set, binding);
          },
          py::arg("set"), py::arg("binding"), py::return_value_policy::copy,
          "The resource at (set, binding), or None.");
}
