//===- Kernel.h - Compiled kernels and their dispatches ---------*- C++ -*-===//
//
//   JitCompiler  compiles a shader (file or SPIR-V) for the host with ORC's
//                LLJIT and caches kernels by (SPIR-V, entry, specialization,
//                options), in memory and optionally on disk (KernelCache.h);
//   Kernel       is one compiled entry point: reflection + ABI entries;
//   Dispatch     binds buffers by (set, binding) and push constants, checks
//                that everything the shader uses is bound, and runs.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_KERNEL_H
#define SPVBRIDGE_BRIDGE_KERNEL_H

#include "spvbridge/bridge/Compiler.h"
#include "spvbridge/bridge/DeviceLimits.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace llvm::orc {
class JITDylib;
class LLJIT;
} // namespace llvm::orc

namespace spvb {

class KernelDiskCache;
class CompiledObjects;
class DeferredEntries;

/// How a kernel's compilation used the disk cache.
enum class DiskCacheUse { Off, Miss, Hit };
/// "off", "miss" or "hit", as spv-run --json reports it.
llvm::StringRef getDiskCacheUseName(DiskCacheUse use);
/// How spvb_kernel_info::workgroup_entry runs a workgroup: "loop",
/// "regions", "lanes" or (none) "fibers".
llvm::StringRef getWorkgroupEntryName(uint32_t kind);

/// Where a compilation's wall time went, in milliseconds, phase by phase
/// (spv-run --json's compile_phases_ms, the benchmark's cold-compile rows).
/// A kernel the disk cache gave has only `load` and `link`.
struct CompilePhases {
  /// Reading the file and compiling GLSL or HLSL (glslang), or the disk
  /// cache's SPIR-V.
  double frontend = 0;
  /// spirv-val, when CompileOptions::validate asks for it, and the
  /// preparation of the module (specialization).
  double validate = 0;
  double reflect = 0;
  /// SPIR-V into MLIR's spirv dialect.
  double deserialize = 0;
  /// The conversion passes to MLIR's llvm dialect.
  double lower = 0;
  /// The llvm dialect into LLVM IR.
  double translate = 0;
  /// LLVM's optimization pipeline.
  double optimize = 0;
  /// Instruction selection and machine code (ORC compiles at the first
  /// lookup), the object's linking and the entry lookups.
  double codegen = 0;
  /// The disk cache's object, when it had one.
  double load = 0;
};

struct Kernel {
  std::string sourceName;
  std::string entryPoint;
  ModuleReflection reflection;
  runtime::KernelEntry entry;
  /// The (set, binding) pairs the entry point reaches; the others need no
  /// descriptor (Vulkan requires those statically used).
  std::set<std::pair<uint32_t, uint32_t>> usedBindings;
  /// Vertex and fragment shaders: spvb_NAME_stage_variables.
  std::vector<spvb_stage_variable> stageVariables;
  /// Wall time of the compilation that produced it, the front end included
  /// when compileFile loaded the module (a cache hit's repeat use is not
  /// recorded: callers time the call themselves).
  double compileMilliseconds = 0;
  CompilePhases phases;
  DiskCacheUse diskCache = DiskCacheUse::Off;
  /// Whether entry.invocation compiles on its first call, the workgroup
  /// entry running the kernel (DeferredEntries).
  bool invocationDeferred = false;
  /// A debug build of a module without source lines: the disassembly its
  /// lines are in (Compiler::getListingPath).
  std::string listingPath;
};

class CompileWarmup;

class JitCompiler {
public:
  /// `debuggable`: register compiled code with the GDB JIT interface, so
  /// that gdb and lldb see the kernels compiled with
  /// CompileOptions::debug.
  static llvm::Expected<std::unique_ptr<JitCompiler>>
  create(bool debuggable = false);
  ~JitCompiler();

  /// Keeps compiled kernels in `cache` too, and loads them from it.
  void setDiskCache(std::unique_ptr<KernelDiskCache> cache);

  /// Loads, prepares and compiles a shader file, or returns the cached
  /// kernel for the same module and options.
  llvm::Expected<std::shared_ptr<const Kernel>>
  compileFile(llvm::StringRef path, const CompileOptions &options);
  /// The same for a module already in memory (not yet specialized).
  llvm::Expected<std::shared_ptr<const Kernel>>
  compile(const SpirvBinary &binary, const CompileOptions &options);

  /// Loads a shader file as loadShaderFile does; GLSL and HLSL through the
  /// disk cache.
  llvm::Expected<SpirvBinary> loadSource(llvm::StringRef path,
                                         const SourceOptions &source);
  /// Compiles GLSL (or HLSL) source text named \p name as compileGlsl
  /// (compileHlsl) does, through the disk cache.
  llvm::Expected<SpirvBinary> compileSource(llvm::StringRef text,
                                            llvm::StringRef name,
                                            ShaderStage stage, bool hlsl,
                                            const SourceOptions &source);

private:
  JitCompiler(std::unique_ptr<llvm::orc::LLJIT> jit,
              std::shared_ptr<CompiledObjects> objects,
              std::unique_ptr<DeferredEntries> deferred);
  /// What \p compileFront makes of \p contents, through the disk cache
  /// under \p key's entry.
  llvm::Expected<SpirvBinary> loadThroughCache(
      const std::string &key, llvm::StringRef name,
      llvm::function_ref<llvm::Expected<SpirvBinary>()> compileFront);
  /// compile() of a module whose front end took \p frontendMilliseconds.
  llvm::Expected<std::shared_ptr<const Kernel>>
  compileLoaded(const SpirvBinary &binary, const CompileOptions &options,
                double frontendMilliseconds);
  /// The MLIR context compiles share (under the lock).
  mlir::MLIRContext &getMlirContext();
  /// A new JITDylib with the runtime's symbols and the process's.
  llvm::Expected<llvm::orc::JITDylib *> createKernelDylib();
  /// Looks up the ABI symbols of entry point `name` in `dylib`.
  llvm::Error linkEntries(Kernel &kernel, llvm::orc::JITDylib &dylib,
                          llvm::StringRef name);
  /// A kernel from the disk cache's entry for `key`, if it links.
  std::optional<std::shared_ptr<Kernel>> loadFromDisk(llvm::StringRef key,
                                                      const Kernel &reflected);

  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::shared_ptr<CompiledObjects> objects;
  std::unique_ptr<DeferredEntries> deferred;
  std::unique_ptr<KernelDiskCache> diskCache;
  std::mutex mutex;
  static constexpr unsigned kMlirContextUses = 64;
  std::unique_ptr<mlir::MLIRContext> mlirContext;
  unsigned mlirContextUses = 0;
  /// The first compile's context and target machine, made on a second
  /// thread from create() on.
  std::unique_ptr<CompileWarmup> warmup;
  std::map<std::string, std::shared_ptr<const Kernel>> cache;
  unsigned dylibCount = 0;
};

class Dispatch {
public:
  explicit Dispatch(std::shared_ptr<const Kernel> kernel);

  /// Binds host memory to (set, binding[, arrayElement]). The memory must
  /// outlive run().
  void bindBuffer(uint32_t set, uint32_t binding, void *data, uint64_t size,
                  uint32_t arrayElement = 0);
  /// Binds an image or texel buffer descriptor (kernel_abi.h); it and its
  /// texels must outlive run().
  void bindImage(uint32_t set, uint32_t binding, const spvb_image *image,
                 uint32_t arrayElement = 0);
  /// Binds a separate sampler's descriptor (OpTypeSampler, kernel_abi.h);
  /// it must outlive run().
  void bindSampler(uint32_t set, uint32_t binding, const spvb_sampler *sampler,
                   uint32_t arrayElement = 0);
  /// A binding of `count` elements that may be partly unbound (Vulkan's
  /// descriptor indexing, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT): an
  /// element the shader does not reach need not be bound, and one it
  /// reaches anyway is an empty binding (a bounds check reports it). A
  /// runtime-sized array of it has at least `count` elements.
  void bindPartially(uint32_t set, uint32_t binding, uint32_t count);
  void setPushConstants(llvm::ArrayRef<uint8_t> bytes);
  /// The device limits run() checks first (default: lavapipe's).
  void setLimits(DeviceLimits newLimits) { limits = std::move(newLimits); }
  const DeviceLimits &getLimits() const { return limits; }
  /// The subgroup size of this dispatch (a pipeline's required size); 0,
  /// the default: the launcher's.
  void setSubgroupSize(uint32_t size) { subgroupSize = size; }
  /// How the user turns on the bounds check, for the advice in a fault's
  /// message (default: spv-run's --check-bounds).
  void setBoundsCheckHint(std::string hint) {
    boundsCheckHint = std::move(hint);
  }
  /// Names memory the shader reaches through device addresses rather than
  /// a descriptor, for the message of a fault in it.
  void nameMemory(std::string name, const void *data, uint64_t size);
  /// The application's own name for what is bound at (set, binding,
  /// element), added to fault messages after the shader's (a Vulkan
  /// driver's VK_EXT_debug_utils object name).
  void labelBinding(uint32_t set, uint32_t binding, uint32_t arrayElement,
                    std::string label);

  /// Checks that every resource and the push constants the shader uses are
  /// provided; errors name the resource.
  llvm::Error validate() const;
  /// Runs the dispatch, once it is valid and within the device limits. A
  /// hardware fault in the kernel (runtime::KernelFault)
  /// becomes an error naming the buffer the access fell nearest to.
  /// `base` is the WorkgroupId of the first workgroup (vkCmdDispatchBase).
  llvm::Error run(runtime::Launcher &launcher, std::array<uint32_t, 3> groups,
                  std::array<uint32_t, 3> base = {0, 0, 0});
  /// What run() launches with, once the dispatch is valid and within the
  /// limits; valid until the next call.
  llvm::Expected<runtime::DispatchResources>
  prepare(std::array<uint32_t, 3> groups);
  /// A launch's error, with a hardware fault (runtime::KernelFault) named
  /// after the buffer the access fell nearest to.
  llvm::Error explainFault(llvm::Error error) const;
  const Kernel &getKernel() const { return *kernel; }

private:
  std::string describeFault(const runtime::KernelFault &fault) const;
  spvb_binding
  getBinding(const std::tuple<uint32_t, uint32_t, uint32_t> &key) const;
  /// The elements of a runtime-sized descriptor array: one past the highest
  /// bound one (at least 1, so that a missing element 0 is reported), or
  /// the partially bound count if that is more.
  uint32_t getElementCount(uint32_t set, uint32_t binding) const;

  std::shared_ptr<const Kernel> kernel;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, spvb_binding> buffers;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> images;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> samplers;
  std::vector<uint8_t> pushConstants;
  bool hasPushConstants = false;
  /// (set, binding) -> element count, from bindPartially().
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> partialBindings;
  /// Runtime-sized descriptor arrays' own tables (kernel_abi.h).
  std::map<uint32_t, std::vector<spvb_binding>> elementTables;
  struct NamedMemory {
    std::string name;
    uintptr_t start;
    uint64_t size;
  };
  std::vector<NamedMemory> namedMemory;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::string> labels;
  DeviceLimits limits = DeviceLimits::lavapipe();
  uint32_t subgroupSize = 0;
  std::string boundsCheckHint = "--check-bounds";
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_KERNEL_H
