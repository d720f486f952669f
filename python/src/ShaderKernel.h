//===- ShaderKernel.h - A compiled shader, as Python sees it ----*- C++ -*-===//
//
// The C++ half of spvbridge.Kernel: loads a shader from any source form,
// compiles it (the check_* variants on first use, through the JIT's
// cache), and dispatches it on memory Python owns, in place: each buffer
// is the exporter's own memory (the buffer protocol), pinned for the run.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_PYTHON_SHADERKERNEL_H
#define SPVBRIDGE_PYTHON_SHADERKERNEL_H

#include "spvbridge/bridge/Kernel.h"

#include <pybind11/pybind11.h>

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace spvb::python {

/// What compile() was given, its source already classified.
struct LoadRequest {
  /// "file", "glsl", "hlsl", "spv" or "spvasm".
  std::string kind;
  /// The path, the source text, or the module's bytes.
  std::string source;
  /// For messages: the path, or "<inline>".
  std::string name;
  /// "compute", "vertex" or "fragment"; empty: from the file's extension,
  /// or the module's entry point.
  std::string stage;
  std::string entry;
  std::vector<std::string> defines;
  std::vector<std::string> includeDirs;
  std::string targetEnv;
  /// SpecId or OpName -> bool, int or float.
  pybind11::dict spec;
  unsigned optLevel = 2;
  bool vectorize = true;
  std::string barriers = "loops";
  bool validate = true;
};

/// One descriptor's memory: a buffer, or an image's texels.
struct ResourceArgument {
  uint32_t set = 0, binding = 0, element = 0;
  /// Whether the key named an element ((set, binding, element)).
  bool hasElement = false;
  pybind11::object data;
  // Images only.
  std::string format;
  std::array<uint32_t, 3> extent = {1, 1, 1};
  uint32_t layers = 1, levels = 1;
  /// The sampler of a combined image sampler, or a separate sampler's
  /// (data is None): spvb_sampler's fields by name.
  std::optional<pybind11::dict> sampler;
};

struct DispatchRequest {
  std::array<uint32_t, 3> groups = {1, 1, 1};
  std::vector<ResourceArgument> buffers, images, samplers;
  std::optional<pybind11::object> push;
  uint32_t subgroupSize = 32;
  unsigned threads = 0;
  bool checkBounds = true;
  bool checkRaces = false;
  bool checkUndefined = false;
  bool checkNan = false;
  unsigned repeat = 1;
  double timeoutSeconds = 60;
};

class ShaderKernel {
public:
  /// Loads and compiles; errors raise CompileError.
  explicit ShaderKernel(const LoadRequest &request);

  const Kernel &getKernel() const { return *kernel; }
  /// The kernel's reflection, with the module's specialization constants
  /// as they were before specialization froze them.
  const ModuleReflection &getReflection() const { return reflection; }
  /// The module as loaded, before specialization.
  const SpirvBinary &getBinary() const { return binary; }
  /// Runs one dispatch; returns its timings and printf output as a dict.
  pybind11::dict dispatch(const DispatchRequest &request);
  /// The variant for the checks \p request asks for, compiled on first
  /// use and kept here: the JIT's cache would hash the module each time.
  /// \p debug: a debug build, from the JIT a debugger sees.
  std::shared_ptr<const Kernel> getVariant(const DispatchRequest &request,
                                           bool debug = false);
  /// The options the shader was compiled with, checks aside.
  const CompileOptions &getOptions() const { return options; }

private:
  SpirvBinary binary;
  CompileOptions options;
  std::shared_ptr<const Kernel> kernel;
  ModuleReflection reflection;
  /// By checkBounds, checkRaces, checkUndefined, checkNan.
  std::map<std::array<bool, 5>, std::shared_ptr<const Kernel>> variants;
  std::mutex variantsMutex;
};

} // namespace spvb::python

#endif // SPVBRIDGE_PYTHON_SHADERKERNEL_H
