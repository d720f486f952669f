//===- Module.cpp - The _spvbridge extension module -----------------------===//
//
// The C++ half of the spvbridge package: compile, dispatch, reflection,
// Amber scripts and errors. spvbridge/__init__.py turns Python's many
// argument forms (paths, source text, numpy arrays, dicts of push-constant
// members) into the plain ones these functions take.
//
//===----------------------------------------------------------------------===//
#include "AmberScripts.h"
#include "Errors.h"
#include "ReflectionBindings.h"
#include "Session.h"
#include "ShaderKernel.h"

#include "spvbridge/spirv/ShaderSource.h"

#include <pybind11/stl.h>

namespace py = pybind11;
using namespace spvb;
using namespace spvb::python;

/// (set, binding, element, has_element, object[, format, extent, layers,
/// levels, sampler]) tuples, as __init__.py builds them.
static std::vector<ResourceArgument>
convertResources(const py::list &list, bool isImage, bool isSampler) {
  std::vector<ResourceArgument> arguments;
  for (py::handle item : list) {
    py::tuple tuple = py::reinterpret_borrow<py::tuple>(item);
    ResourceArgument argument;
    argument.set = tuple[0].cast<uint32_t>();
    argument.binding = tuple[1].cast<uint32_t>();
    argument.element = tuple[2].cast<uint32_t>();
    argument.hasElement = tuple[3].cast<bool>();
    argument.data = py::reinterpret_borrow<py::object>(tuple[4]);
    if (isSampler) {
      argument.sampler = tuple[4].cast<py::dict>();
    } else if (isImage) {
      argument.format = tuple[5].cast<std::string>();
      argument.extent = tuple[6].cast<std::array<uint32_t, 3>>();
      argument.layers = tuple[7].cast<uint32_t>();
      argument.levels = tuple[8].cast<uint32_t>();
      if (!tuple[9].is_none())
        argument.sampler = tuple[9].cast<py::dict>();
    }
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

PYBIND11_MODULE(_spvbridge, module) {
  module.doc() = "spvbridge's compiler and runtime (use the spvbridge "
                 "package, not this module)";
  registerErrors(module);
  bindReflection(module);

  py::class_<ShaderKernel, std::shared_ptr<ShaderKernel>>(module, "_Kernel")
      .def_property_readonly(
          "reflection",
          [](const ShaderKernel &kernel) -> const ModuleReflection & {
            return kernel.getReflection();
          },
          py::return_value_policy::reference_internal)
      .def_property_readonly("entry_point",
                             [](const ShaderKernel &kernel) {
                               return kernel.getKernel().entryPoint;
                             })
      .def_property_readonly("source_name",
                             [](const ShaderKernel &kernel) {
                               return kernel.getKernel().sourceName;
                             })
      .def_property_readonly("workgroup_size",
                             [](const ShaderKernel &kernel) {
                               const uint32_t *size =
                                   kernel.getKernel().entry.info.workgroup_size;
                               return py::make_tuple(size[0], size[1], size[2]);
                             })
      .def_property_readonly("used_bindings",
                             [](const ShaderKernel &kernel) {
                               return kernel.getKernel().usedBindings;
                             })
      .def("disassemble",
           [](const ShaderKernel &kernel) {
             llvm::Expected<std::string> text =
                 disassembleSpirv(kernel.getBinary());
             if (!text)
               throwCompileError(text.takeError());
             return *text;
           })
      .def("_dispatch",
           [](ShaderKernel &kernel, std::array<uint32_t, 3> groups,
              py::list buffers, py::list images, py::list samplers,
              py::object push, uint32_t subgroupSize, unsigned threads,
              bool checkBounds, bool checkRaces, bool checkUndefined,
              bool checkNan, unsigned repeat, double timeout) {
             DispatchRequest request;
             request.groups = groups;
             request.buffers = convertResources(buffers, false, false);
             request.images = convertResources(images, true, false);
             request.samplers = convertResources(samplers, false, true);
             if (!push.is_none())
               request.push = push;
             request.subgroupSize = subgroupSize;
             request.threads = threads;
             request.checkBounds = checkBounds;
             request.checkRaces = checkRaces;
             request.checkUndefined = checkUndefined;
             request.checkNan = checkNan;
             request.repeat = repeat;
             request.timeoutSeconds = timeout;
             return kernel.dispatch(request);
           });

  module.def("_compile",
             [](std::string kind, py::object source, std::string name,
                std::string stage, std::string entry,
                std::vector<std::string> defines,
                std::vector<std::string> includeDirs, std::string targetEnv,
                py::dict spec, unsigned optLevel, bool vectorize,
                std::string barriers, bool validate) {
               LoadRequest request;
               request.kind = std::move(kind);
               request.source = py::isinstance<py::bytes>(source)
                                    ? std::string(source.cast<py::bytes>())
                                    : source.cast<std::string>();
               request.name = std::move(name);
               request.stage = std::move(stage);
               request.entry = std::move(entry);
               request.defines = std::move(defines);
               request.includeDirs = std::move(includeDirs);
               request.targetEnv = std::move(targetEnv);
               request.spec = std::move(spec);
               request.optLevel = optLevel;
               request.vectorize = vectorize;
               request.barriers = std::move(barriers);
               request.validate = validate;
               return std::make_shared<ShaderKernel>(request);
             });

  module.def("_run_amber", [](std::string script, bool isText, unsigned threads,
                              uint32_t subgroupSize, bool checkBounds,
                              bool checkRaces, bool checkUndefined,
                              double timeout, std::string imageDirectory) {
    AmberRequest request;
    request.script = std::move(script);
    request.isText = isText;
    request.threads = threads;
    request.subgroupSize = subgroupSize;
    request.checkBounds = checkBounds;
    request.checkRaces = checkRaces;
    request.checkUndefined = checkUndefined;
    request.timeoutSeconds = timeout;
    request.imageDirectory = std::move(imageDirectory);
    return runAmber(request);
  });

  module.def(
      "_set_kernel_cache",
      [](const std::string &directory) {
        Session::get().setDiskCache(directory);
      },
      py::arg("directory"));
}
