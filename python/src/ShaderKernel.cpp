//===- ShaderKernel.cpp - A compiled shader, as Python sees it ------------===//
#include "ShaderKernel.h"

#include "Errors.h"
#include "ResourceBinding.h"
#include "Session.h"

#include "spvbridge/spirv/ShaderSource.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>

namespace py = pybind11;
using namespace spvb;
using namespace spvb::python;
using llvm::formatv;

static std::optional<ShaderStage> parseStage(llvm::StringRef stage) {
  return llvm::StringSwitch<std::optional<ShaderStage>>(stage)
      .Case("compute", ShaderStage::Compute)
      .Case("vertex", ShaderStage::Vertex)
      .Case("tess-control", ShaderStage::TessControl)
      .Case("tess-evaluation", ShaderStage::TessEvaluation)
      .Case("geometry", ShaderStage::Geometry)
      .Case("fragment", ShaderStage::Fragment)
      .Default(std::nullopt);
}

static SpirvBinary load(const LoadRequest &request,
                        const SourceOptions &source) {
  std::optional<ShaderStage> stage = parseStage(request.stage);
  if (!request.stage.empty() && !stage)
    throw CompileError(formatv("error: stage='{0}': expected compute, vertex, "
                               "tess-control, tess-evaluation, geometry or "
                               "fragment",
                               request.stage));
  // GLSL and HLSL, from files or text, through the kernel cache's front-end
  // entries: glslang takes most of a warm compile.
  llvm::Expected<SpirvBinary> binary = [&]() -> llvm::Expected<SpirvBinary> {
    py::gil_scoped_release release;
    JitCompiler &jit = Session::get().getJit();
    if (request.kind == "file")
      return jit.loadSource(request.source, source);
    if (request.kind == "spv")
      return parseSpirvBinary(
          llvm::ArrayRef<char>(request.source.data(), request.source.size()),
          request.name);
    if (request.kind == "spvasm")
      return assembleSpirv(request.source, request.name, source);
    return jit.compileSource(request.source, request.name,
                             stage.value_or(ShaderStage::Compute),
                             request.kind == "hlsl", source);
  }();
  if (!binary)
    throwCompileError(binary.takeError());
  return std::move(*binary);
}

/// spec={KEY: VALUE}: each value as --spec ID:TYPE:VALUE of the constant's
/// own type.
static std::vector<SpecConstantValue> convertSpec(const SpirvBinary &binary,
                                                  const py::dict &spec) {
  std::vector<SpecConstantValue> values;
  if (spec.empty())
    return values;
  llvm::Expected<std::vector<SpecConstantInfo>> constants =
      listSpecConstants(binary);
  if (!constants)
    throwCompileError(constants.takeError());
  std::string available;
  for (const SpecConstantInfo &constant : *constants)
    available +=
        formatv("{0}{1}{2}", available.empty() ? "" : ", ", constant.specId,
                constant.name.empty() ? "" : " '" + constant.name + "'");
  for (auto [key, value] : spec) {
    std::string keyText = py::repr(key).cast<std::string>();
    auto found = llvm::find_if(*constants, [&](const SpecConstantInfo &c) {
      if (py::isinstance<py::str>(key))
        return c.name == key.cast<std::string>();
      return py::isinstance<py::int_>(key) && key.cast<long long>() == c.specId;
    });
    if (found == constants->end())
      throw CompileError(formatv("error: spec[{0}]: {1} has no "
                                 "specialization constant {2} (it has {3})",
                                 keyText, binary.name,
                                 py::isinstance<py::str>(key)
                                     ? "named " + keyText
                                     : "with SpecId " + keyText,
                                 available.empty() ? "none" : available));
    llvm::StringRef type = found->type;
    std::string text;
    bool isFloat = type.starts_with("f");
    if (type == "bool" && py::isinstance<py::bool_>(value))
      text = value.cast<bool>() ? "true" : "false";
    else if (!isFloat && type != "bool" && py::isinstance<py::int_>(value) &&
             !py::isinstance<py::bool_>(value))
      text = py::str(value).cast<std::string>();
    else if (isFloat && (py::isinstance<py::float_>(value) ||
                         py::isinstance<py::int_>(value)))
      text = py::repr(py::float_(value.cast<double>())).cast<std::string>();
    llvm::Expected<SpecConstantValue> parsed =
        text.empty()
            ? llvm::Expected<SpecConstantValue>(
                  llvm::createStringError("no conversion"))
            : parseSpecArgument(
                  formatv("{0}:{1}:{2}", found->specId, type, text).str());
    if (!parsed) {
      llvm::consumeError(parsed.takeError());
      throw CompileError(formatv(
          "error: spec[{0}]: {1} is not a {2} value, "
          "the type of {3}'s constant {4}{5}",
          keyText, py::repr(value).cast<std::string>(), type, binary.name,
          found->specId, found->name.empty() ? "" : " '" + found->name + "'"));
    }
    values.push_back(std::move(*parsed));
  }
  return values;
}

ShaderKernel::ShaderKernel(const LoadRequest &request) {
  options.source.defines = request.defines;
  options.source.includeDirs = request.includeDirs;
  if (!request.targetEnv.empty())
    options.source.targetEnv = request.targetEnv;
  options.source.entry = request.entry.empty() ? "main" : request.entry;
  options.entryPoint = request.entry;
  if (std::optional<ShaderStage> stage = parseStage(request.stage))
    options.executionModel =
        *stage == ShaderStage::Vertex     ? spv::ExecutionModelVertex
        : *stage == ShaderStage::Fragment ? spv::ExecutionModelFragment
                                          : spv::ExecutionModelGLCompute;
  if (request.optLevel > 3)
    throw CompileError(formatv("error: opt_level={0}: expected 0, 1, 2 or 3",
                               request.optLevel));
  options.optLevel = OptLevel(request.optLevel);
  options.vectorize = request.vectorize;
  options.validate = request.validate;
  if (request.barriers != "loops" && request.barriers != "fibers")
    throw CompileError(formatv("error: barriers='{0}': expected 'loops' or "
                               "'fibers'",
                               request.barriers));
  options.barriers =
      request.barriers == "fibers" ? BarrierMode::Fibers : BarrierMode::Loops;
  binary = load(request, options.source);
  options.specializations = convertSpec(binary, request.spec);
  // Without check_bounds, robustBufferAccess2: memory Python owns has no
  // guard pages, so an access out of bounds must never reach it.
  options.robust = true;
  llvm::Expected<std::shared_ptr<const Kernel>> compiled = [&] {
    py::gil_scoped_release release;
    return Session::get().getJit().compile(binary, options);
  }();
  if (!compiled)
    throwCompileError(compiled.takeError());
  kernel = std::move(*compiled);
  reflection = kernel->reflection;
  llvm::Expected<std::vector<SpecConstantInfo>> constants =
      listSpecConstants(binary);
  if (!constants)
    throwCompileError(constants.takeError());
  reflection.specConstants = std::move(*constants);
}

std::shared_ptr<const Kernel>
ShaderKernel::getVariant(const DispatchRequest &request, bool debug) {
  std::array<bool, 5> key = {request.checkBounds, request.checkRaces,
                             request.checkUndefined, request.checkNan, debug};
  {
    std::lock_guard<std::mutex> lock(variantsMutex);
    auto found = variants.find(key);
    if (found != variants.end())
      return found->second;
  }
  CompileOptions variant = options;
  variant.checkBounds = request.checkBounds;
  variant.robust = !request.checkBounds;
  variant.checkRaces = request.checkRaces;
  variant.undefinedChecks =
      request.checkUndefined ? UndefinedChecks::Report : UndefinedChecks::None;
  variant.checkNan = request.checkNan;
  variant.debug = debug;
  llvm::Expected<std::shared_ptr<const Kernel>> compiled = [&] {
    py::gil_scoped_release release;
    Session &session = Session::get();
    return (debug ? session.getDebugJit() : session.getJit())
        .compile(binary, variant);
  }();
  if (!compiled)
    throwCompileError(compiled.takeError());
  std::lock_guard<std::mutex> lock(variantsMutex);
  variants[key] = *compiled;
  return *compiled;
}

py::dict ShaderKernel::dispatch(const DispatchRequest &request) {
  auto compileStart = std::chrono::steady_clock::now();
  std::shared_ptr<const Kernel> variant = getVariant(request);
  double compileMs = std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - compileStart)
                         .count();
  if (request.repeat == 0)
    throwBindingError("repeat=0: expected at least 1 run");
  Dispatch dispatch(variant);
  ResourceBinder binder({variant.get()});
  BindTargetFor<Dispatch> target(dispatch);
  binder.bind(target, request);
  if (request.push)
    dispatch.setPushConstants(getPushConstants(*request.push, {variant.get()}));
  if (llvm::Error error = dispatch.validate())
    throw BindingError(llvm::toString(std::move(error)));

  runtime::Launcher &launcher =
      Session::get().getLauncher(request.threads, request.subgroupSize);
  std::array<uint32_t, 3> groups = request.groups;
  uint64_t workgroups = uint64_t(groups[0]) * groups[1] * groups[2];
  std::vector<double> timings;
  if (request.repeat > 1)
    binder.save();
  std::string printed;
  llvm::Error error = [&] {
    py::gil_scoped_release release;
    // Past the timeout the launcher stops the kernel (Launcher::cancel),
    // as a GPU driver ends a hung submission, and the dispatch fails.
    std::chrono::duration<double> timeout(request.timeoutSeconds);
    auto describe = [&]() -> std::string {
      if (Session::getInterrupt())
        return formatv("error: the dispatch was interrupted: {0} of {1} "
                       "workgroups finished",
                       launcher.getFinishedWorkgroups(), workgroups);
      return formatv(
          "error: the dispatch did not finish in {0} s "
          "(the timeout; timeout=0 waits forever): {1} of {2} workgroups "
          "finished; the shader may loop forever",
          formatSeconds(request.timeoutSeconds),
          launcher.getFinishedWorkgroups(), workgroups);
    };
    runtime::Watchdog &watchdog = Session::get().getWatchdog();
    return Session::get().runExclusive(
        [&](FILE *sink) -> llvm::Error {
          for (unsigned run = 0; run < request.repeat; ++run) {
            // One run's output: the first's, so a run that fails keeps it.
            runtime::setPrintfSink(run == 0 ? sink : nullptr);
            if (run > 0)
              binder.restore();
            auto start = std::chrono::steady_clock::now();
            watchdog.arm(
                timeout, describe,
                [&](const std::string &message) { launcher.cancel(message); },
                &Session::getInterrupt());
            llvm::Error error = dispatch.run(launcher, groups);
            watchdog.disarm();
            if (error)
              return error;
            timings.push_back(std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - start)
                                  .count());
          }
          return llvm::Error::success();
        },
        printed);
  }();
  if (error)
    throwDispatchError(std::move(error), printed);

  std::vector<double> sorted = timings;
  llvm::sort(sorted);
  py::dict result;
  result["compile_ms"] = compileMs;
  result["kernel_cache"] = getDiskCacheUseName(variant->diskCache).str();
  result["dispatch_ms"] = sorted[sorted.size() / 2];
  result["dispatch_ms_min"] = sorted.front();
  result["dispatch_ms_max"] = sorted.back();
  result["runs"] = timings.size();
  result["threads"] = launcher.getThreadCount();
  result["subgroup_size"] = launcher.getSubgroupSize();
  result["workgroup_entry"] =
      getWorkgroupEntryName(variant->entry.info.workgroup_entry).str();
  result["simd_lanes"] = variant->entry.info.simd_lanes;
  result["printf"] = printed;
  return result;
}
