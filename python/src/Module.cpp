//===- Module.cpp - The _spvbridge extension module -----------------------===//
//
// The C++ half of the spvbridge package: compile, dispatch, reflection,
// Amber scripts and errors. spvbridge/__init__.py turns Python's many
// argument forms (paths, source text, numpy arrays, dicts of push-constant
// members) into the plain ones these functions take.
//
//===----------------------------------------------------------------------===//
#include "AmberScripts.h"
#include "DrawCall.h"
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
  for (py::handle item : py::reinterpret_borrow<py::list>(list)) {
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

/// What dispatches and draws share, as a dict of __init__.py's names.
static DispatchRequest convertCommon(const py::dict &common) {
  DispatchRequest request;
  request.buffers = convertResources(common["buffers"], false, false);
  request.images = convertResources(common["images"], true, false);
  request.samplers = convertResources(common["samplers"], false, true);
  if (!common["push"].is_none())
    request.push = common["push"];
  request.subgroupSize = common["subgroup_size"].cast<uint32_t>();
  request.threads = common["threads"].cast<unsigned>();
  request.checkBounds = common["check_bounds"].cast<bool>();
  request.checkRaces = common["check_races"].cast<bool>();
  request.checkUndefined = common["check_undefined"].cast<bool>();
  request.checkNan = common["check_nan"].cast<bool>();
  request.timeoutSeconds = common["timeout"].cast<double>();
  return request;
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
      .def("_dispatch", [](ShaderKernel &kernel, std::array<uint32_t, 3> groups,
                           py::dict common, unsigned repeat) {
        DispatchRequest request = convertCommon(common);
        request.groups = groups;
        request.repeat = repeat;
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

  module.def("_draw", [](std::shared_ptr<ShaderKernel> fragment,
                         std::shared_ptr<ShaderKernel> vertex,
                         std::shared_ptr<ShaderKernel> tessControl,
                         std::shared_ptr<ShaderKernel> tessEvaluation,
                         std::shared_ptr<ShaderKernel> geometry,
                         uint32_t patchControlPoints, uint32_t width,
                         uint32_t height, std::string format, py::list vertices,
                         py::object indices, unsigned indexSize,
                         std::string topology, std::optional<uint32_t> count,
                         uint32_t instances, uint32_t location,
                         uint32_t samples,
                         std::optional<std::array<uint32_t, 2>> debugPixel,
                         py::dict common) {
    DrawRequest request;
    request.fragment = std::move(fragment);
    request.vertex = std::move(vertex);
    request.tessControl = std::move(tessControl);
    request.tessEvaluation = std::move(tessEvaluation);
    request.geometry = std::move(geometry);
    request.patchControlPoints = patchControlPoints;
    request.width = width;
    request.height = height;
    request.format = std::move(format);
    for (py::handle item : vertices) {
      py::tuple tuple = py::reinterpret_borrow<py::tuple>(item);
      request.vertices.push_back({tuple[0].cast<uint32_t>(),
                                  py::reinterpret_borrow<py::object>(tuple[1]),
                                  tuple[2].cast<std::string>()});
    }
    if (!indices.is_none())
      request.indices = indices;
    request.indexSize = indexSize;
    request.topology = std::move(topology);
    request.count = count;
    request.instances = instances;
    request.location = location;
    request.samples = samples;
    request.debugPixel = debugPixel;
    request.resources = convertCommon(common);
    return runDraw(request);
  });

  module.def(
      "_set_kernel_cache",
      [](const std::string &directory) {
        Session::get().setDiskCache(directory);
      },
      py::arg("directory"));
  module.def(
      "_set_printf_limit",
      [](size_t bytes) { Session::get().setPrintfLimit(bytes); },
      py::arg("bytes"));
}
