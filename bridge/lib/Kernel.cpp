//===- Kernel.cpp - Compiled kernels and their dispatches -----------------===//
#include "spvbridge/bridge/Kernel.h"

#include "DeferredEntries.h"

#include "spvbridge/bridge/Codegen.h"
#include "spvbridge/bridge/CompileWarmup.h"
#include "spvbridge/bridge/KernelCache.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/spirv/Deserializer.h"
#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/OpcodeNames.h"
#include "spvbridge/spirv/SpvbDialect.h"
#include "spvbridge/transforms/VectorMathLibrary.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/ExecutionEngine/ObjectCache.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h"
#include "llvm/ExecutionEngine/Orc/Debugging/PerfSupportPlugin.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <spirv/unified1/spirv.hpp>

#include <chrono>

using namespace spvb;
using namespace llvm::orc;

/// The identifier suffix of a deferred module, whose object (compiled on
/// the first call, if at all) the disk cache does not keep: it keeps the
/// module's bitcode instead.
static constexpr llvm::StringLiteral kDeferredSuffix = ".deferred";

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// The object files the JIT compiles, by module identifier, while a disk
/// cache wants them.
class spvb::CompiledObjects : public llvm::ObjectCache {
public:
  void notifyObjectCompiled(const llvm::Module *module,
                            llvm::MemoryBufferRef object) override {
    std::lock_guard<std::mutex> lock(mutex);
    if (recording && !llvm::StringRef(module->getModuleIdentifier())
                          .ends_with(kDeferredSuffix))
      objects[module->getModuleIdentifier()] =
          llvm::MemoryBuffer::getMemBufferCopy(object.getBuffer());
  }
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module *) override {
    return nullptr;
  }
  std::unique_ptr<llvm::MemoryBuffer> take(const std::string &module) {
    std::lock_guard<std::mutex> lock(mutex);
    auto found = objects.find(module);
    if (found == objects.end())
      return nullptr;
    std::unique_ptr<llvm::MemoryBuffer> object = std::move(found->second);
    objects.erase(found);
    return object;
  }
  void record() {
    std::lock_guard<std::mutex> lock(mutex);
    recording = true;
  }

private:
  std::mutex mutex;
  bool recording = false;
  std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> objects;
};

JitCompiler::JitCompiler(std::unique_ptr<LLJIT> jit,
                         std::shared_ptr<CompiledObjects> objects,
                         std::unique_ptr<DeferredEntries> deferred)
    : jit(std::move(jit)), objects(std::move(objects)),
      deferred(std::move(deferred)) {}
JitCompiler::~JitCompiler() = default;

void JitCompiler::setDiskCache(std::unique_ptr<KernelDiskCache> cache) {
  std::lock_guard<std::mutex> lock(mutex);
  diskCache = std::move(cache);
  if (diskCache)
    objects->record();
}

/// Writes a jitdump of each object's functions (their names, code and line
/// tables) that `perf inject --jit` turns into symbols of a `perf record
/// -k 1` profile.
static llvm::Error enablePerfSupport(LLJIT &jit) {
  auto *linking = llvm::dyn_cast<ObjectLinkingLayer>(&jit.getObjLinkingLayer());
  if (!linking || !jit.getProcessSymbolsJITDylib())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: SPVBRIDGE_PERF: this JIT does not link with JITLink");
  // LLVM's writer puts it in JITDUMPDIR (else $HOME)/.debug/jit and says
  // nothing when it cannot.
  llvm::SmallString<128> directory;
  if (const char *dump = std::getenv("JITDUMPDIR"))
    directory = dump;
  else
    llvm::sys::path::home_directory(directory);
  llvm::sys::path::append(directory, ".debug", "jit");
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: SPVBRIDGE_PERF: cannot create '" +
                                       directory +
                                       "' for the jitdump: " + error.message());
  auto plugin = PerfSupportPlugin::Create(
      jit.getExecutionSession().getExecutorProcessControl(),
      *jit.getProcessSymbolsJITDylib(), /*EmitDebugInfo=*/true,
      /*EmitUnwindInfo=*/false);
  if (!plugin)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: SPVBRIDGE_PERF: " +
                                       llvm::toString(plugin.takeError()));
  linking->addPlugin(std::move(*plugin));
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<JitCompiler>>
JitCompiler::create(bool debuggable) {
  // First: it registers the host target, and its thread's work overlaps
  // making the JIT.
  auto warmup = std::make_unique<CompileWarmup>(
      debuggable ? OptLevel::O0 : CompileOptions().getOptLevel());
  auto machineBuilder = JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return machineBuilder.takeError();
  machineBuilder->getOptions().VecLib = getVectorMathLibrary();
  // Code a debugger steps through: statements in source order, variables
  // in their stack slots.
  if (debuggable)
    machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::None);
  // LLJIT's own compiler, also handing the objects to a disk cache.
  auto objects = std::make_shared<CompiledObjects>();
  auto jit = LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(*machineBuilder))
                 .setCompileFunctionCreator(
                     [objects](JITTargetMachineBuilder builder)
                         -> llvm::Expected<
                             std::unique_ptr<IRCompileLayer::IRCompiler>> {
                       auto machine = builder.createTargetMachine();
                       if (!machine)
                         return machine.takeError();
                       return std::make_unique<TMOwningSimpleCompiler>(
                           std::move(*machine), objects.get());
                     })
                 .create();
  if (!jit)
    return jit.takeError();
  // Registers each object's DWARF with the GDB JIT interface, which gdb
  // and lldb read.
  if (debuggable)
    if (llvm::Error error = enableDebuggerSupport(**jit))
      return error;
  if (std::getenv("SPVBRIDGE_PERF"))
    if (llvm::Error error = enablePerfSupport(**jit))
      return error;
  auto deferred = DeferredEntries::create(**jit);
  if (!deferred)
    return deferred.takeError();
  std::unique_ptr<JitCompiler> compiler(new JitCompiler(
      std::move(*jit), std::move(objects), std::move(*deferred)));
  compiler->warmup = std::move(warmup);
  return compiler;
}

static bool isImage(ResourceKind kind) {
  return kind == ResourceKind::StorageImage ||
         kind == ResourceKind::SampledImage ||
         kind == ResourceKind::StorageTexelBuffer ||
         kind == ResourceKind::UniformTexelBuffer ||
         kind == ResourceKind::CombinedImageSampler ||
         kind == ResourceKind::InputAttachment;
}

/// Buffers, images and separate samplers.
static bool isSupportedResource(ResourceKind kind) {
  return kind == ResourceKind::StorageBuffer ||
         kind == ResourceKind::UniformBuffer ||
         kind == ResourceKind::PushConstant || kind == ResourceKind::Sampler ||
         isImage(kind);
}

/// The image instructions spvb_rt_image implements (cpu_runtime/Images.cpp).
static bool isSupportedImageInstruction(uint32_t opcode) {
  switch (opcode) {
  case spv::OpSampledImage:
  case spv::OpImage:
  case spv::OpImageSampleImplicitLod:
  case spv::OpImageSampleExplicitLod:
  case spv::OpImageSampleDrefImplicitLod:
  case spv::OpImageSampleDrefExplicitLod:
  case spv::OpImageFetch:
  case spv::OpImageGather:
  case spv::OpImageDrefGather:
  case spv::OpImageRead:
  case spv::OpImageWrite:
  case spv::OpImageQuerySizeLod:
  case spv::OpImageQuerySize:
  case spv::OpImageQueryLevels:
  case spv::OpImageQuerySamples:
  case spv::OpImageTexelPointer:
    return true;
  default:
    return false;
  }
}

/// The cache key: everything that changes the generated code.
static std::string getCacheKey(const SpirvBinary &binary,
                               const CompileOptions &options) {
  llvm::SHA256 hash;
  hash.update(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(binary.words.data()),
      binary.words.size() * 4));
  std::string key = llvm::toHex(hash.final());
  key +=
      "|" + options.entryPoint + "|" +
      std::to_string(static_cast<int>(options.executionModel)) + "|O" +
      std::to_string(static_cast<int>(options.getOptLevel())) + "|" +
      (options.validate ? "v" : "nv") +
      (options.getBarrierMode() == BarrierMode::Loops ? "|loops" : "|fibers") +
      (options.robust ? "|robust" : "") +
      (options.shouldVectorize() ? "|lanes" : "") +
      (options.subgroupSize
           ? "|subgroup-size=" + std::to_string(options.subgroupSize)
           : "") +
      (options.checkBounds ? "|check-bounds" : "") +
      (options.debug
           ? "|debug|" + options.listingName + "|" + options.listingDirectory
           : "") +
      (options.checkNan ? "|check-nan" : "") +
      (options.checkRaces ? "|check-races" : "") +
      (options.undefinedChecks == UndefinedChecks::Report ? "|check-undefined"
       : options.undefinedChecks == UndefinedChecks::Perturb
           ? "|perturb-undefined"
           : "");
  for (const SpecConstantValue &spec : options.specializations) {
    key += "|" + std::to_string(spec.id) + ":" + spec.type;
    for (uint32_t word : spec.words)
      key += ":" + std::to_string(word);
  }
  return key;
}

llvm::Expected<std::shared_ptr<const Kernel>>
JitCompiler::compileFile(llvm::StringRef path, const CompileOptions &options) {
  SourceOptions source = options.source;
  source.debug |= options.debug;
  auto start = std::chrono::steady_clock::now();
  llvm::Expected<SpirvBinary> binary = loadSource(path, source);
  if (!binary)
    return binary.takeError();
  return compileLoaded(*binary, options,
                       std::chrono::duration<double, std::milli>(
                           std::chrono::steady_clock::now() - start)
                           .count());
}

namespace {
/// Adds the milliseconds since the last phase ended to one phase.
class PhaseClock {
public:
  void end(double &phase) {
    auto now = std::chrono::steady_clock::now();
    phase += std::chrono::duration<double, std::milli>(now - last).count();
    last = now;
  }

private:
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};
} // namespace

/// What the front end's SPIR-V depends on besides the files it includes.
static std::string getSourceKey(llvm::StringRef path, llvm::StringRef contents,
                                const SourceOptions &source) {
  std::string key = path.str();
  key += '\0' +
         llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(contents)));
  for (const std::vector<std::string> *list :
       {&source.defines, &source.includeDirs})
    key += '\0' + llvm::join(*list, std::string(1, '\1'));
  key += '\0' + source.targetEnv + '\0' + source.entry +
         (source.debug ? "\0debug" : "");
  return key;
}

llvm::Expected<SpirvBinary> JitCompiler::loadThroughCache(
    const std::string &key, llvm::StringRef name,
    llvm::function_ref<llvm::Expected<SpirvBinary>()> compileFront) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!diskCache)
    return compileFront();
  if (std::optional<SpirvBinary> cached = diskCache->loadSpirv(key, name))
    return std::move(*cached);
  llvm::Expected<SpirvBinary> binary = compileFront();
  if (binary)
    diskCache->storeSpirv(key, *binary);
  return binary;
}

llvm::Expected<SpirvBinary>
JitCompiler::loadSource(llvm::StringRef path, const SourceOptions &source) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".spv" || extension == ".spvasm")
    return loadShaderFile(path, source);
  auto contents = llvm::MemoryBuffer::getFile(path);
  if (!contents)
    return loadShaderFile(path, source); // It names the error.
  return loadThroughCache(getSourceKey(path, (*contents)->getBuffer(), source),
                          path, [&] { return loadShaderFile(path, source); });
}

llvm::Expected<SpirvBinary>
JitCompiler::compileSource(llvm::StringRef text, llvm::StringRef name,
                           ShaderStage stage, bool hlsl,
                           const SourceOptions &source) {
  // Text has no path: the key names the language and stage instead.
  std::string what = (llvm::Twine(hlsl ? "<hlsl " : "<glsl ") +
                      getShaderStageName(stage) + "> " + name)
                         .str();
  return loadThroughCache(getSourceKey(what, text, source), name, [&] {
    return hlsl ? compileHlsl(text, name, stage, source)
                : compileGlsl(text, name, stage, source);
  });
}

llvm::Expected<std::shared_ptr<const Kernel>>
JitCompiler::compile(const SpirvBinary &binary, const CompileOptions &options) {
  return compileLoaded(binary, options, 0);
}

llvm::Expected<std::shared_ptr<const Kernel>>
JitCompiler::compileLoaded(const SpirvBinary &binary,
                           const CompileOptions &options,
                           double frontendMilliseconds) {
  auto start = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex);
  // Once a kernel is compiled or loaded, warming up helps no compile.
  llvm::scope_exit stopWarmup([this] { warmup->cancel(); });
  std::string key = getCacheKey(binary, options);
  auto cached = cache.find(key);
  if (cached != cache.end())
    return cached->second;

  CompilePhases phases;
  phases.frontend = frontendMilliseconds;
  PhaseClock clock;
  // The context is made only if the kernel is compiled, not loaded.
  Compiler compiler(
      options, [this]() -> mlir::MLIRContext & { return getMlirContext(); });
  llvm::Expected<SpirvBinary> prepared = compiler.prepare(binary);
  if (!prepared)
    return prepared.takeError();
  clock.end(phases.validate);
  llvm::Expected<ModuleReflection> reflection = compiler.reflect(*prepared);
  if (!reflection)
    return reflection.takeError();
  clock.end(phases.reflect);
  for (const ResourceInfo &resource : reflection->resources)
    if (!isSupportedResource(resource.kind))
      return makeError(llvm::formatv(
          "error: {0}: resource '{1}' (set {2}, binding {3}) is a {4}, which "
          "the runtime does not support yet",
          binary.name, resource.name, resource.set, resource.binding,
          getResourceKindName(resource.kind)));
  auto kernel = std::make_shared<Kernel>();
  kernel->sourceName = binary.name;
  kernel->entryPoint = compiler.getOptions().entryPoint;
  kernel->reflection = std::move(*reflection);
  kernel->entry.checksRaces = options.checkRaces;
  auto finish = [&](std::shared_ptr<Kernel> done) {
    done->compileMilliseconds =
        frontendMilliseconds + std::chrono::duration<double, std::milli>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
    done->phases = phases;
    cache[key] = done;
    return done;
  };
  if (diskCache) {
    std::optional<std::shared_ptr<Kernel>> loaded = loadFromDisk(key, *kernel);
    clock.end(phases.load);
    if (loaded)
      return finish(std::move(*loaded));
    kernel->diskCache = DiskCacheUse::Miss;
  }

  auto spirvModule = compiler.deserialize(*prepared);
  if (!spirvModule)
    return spirvModule.takeError();
  clock.end(phases.deserialize);
  kernel->listingPath = compiler.getListingPath();
  std::string unsupported;
  (*spirvModule)->walk([&](ImageOp op) {
    if (unsupported.empty() && !isSupportedImageInstruction(op.getOpcode()))
      unsupported = formatError(binary.name, op.getLoc(),
                                getOpcodeName(op.getOpcode()) +
                                    " is not supported by the runtime yet");
  });
  if (!unsupported.empty())
    return makeError(unsupported);
  // Memory a null initializer must keep zero is not perturbed.
  bool perturbWorkgroup = options.undefinedChecks == UndefinedChecks::Perturb;
  if (perturbWorkgroup)
    (*spirvModule)->walk([&](mlir::spirv::GlobalVariableOp variable) {
      perturbWorkgroup &= !variable->hasAttr(kZeroInitializedAttr);
    });
  llvm::Expected<LoweredModule> lowered =
      compiler.lower(std::move(*spirvModule), kernel->reflection, binary.name);
  if (!lowered)
    return lowered.takeError();
  clock.end(phases.lower);
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = compiler.translate(*lowered->module, *context, binary.name);
  if (!module)
    return module.takeError();
  clock.end(phases.translate);
  std::unique_ptr<llvm::TargetMachine> machine =
      warmup->takeTargetMachine(options.getOptLevel());
  if (!machine) {
    auto made = createHostTargetMachine(options.getOptLevel());
    if (!made)
      return made.takeError();
    machine = std::move(*made);
  }
  // A compute kernel's invocation entry waits for its first call when a
  // workgroup entry runs the kernel; a debug build compiles everything.
  std::unique_ptr<llvm::Module> deferredModule;
  bool defer = !options.debug && compiler.getOptions().executionModel ==
                                     spv::ExecutionModelGLCompute;
  optimizeModule(**module, *machine, options,
                 defer ? &deferredModule : nullptr);
  clock.end(phases.optimize);

  llvm::Expected<JITDylib *> dylib = createKernelDylib();
  if (!dylib)
    return dylib.takeError();
  std::string moduleName = (*dylib)->getName();
  (*module)->setModuleIdentifier(moduleName);
  const std::string &name = lowered->layout.entryPoints.front().name;
  ThreadSafeContext sharedContext(std::move(context));
  if (llvm::Error error = jit->addIRModule(
          **dylib, ThreadSafeModule(std::move(*module), sharedContext)))
    return error;
  std::unique_ptr<llvm::MemoryBuffer> deferredBitcode;
  if (deferredModule) {
    deferredModule->setModuleIdentifier(moduleName + kDeferredSuffix.str());
    if (diskCache) {
      llvm::SmallString<0> bitcode;
      llvm::raw_svector_ostream os(bitcode);
      llvm::WriteBitcodeToFile(*deferredModule, os);
      deferredBitcode = llvm::MemoryBuffer::getMemBufferCopy(bitcode);
    }
    if (llvm::Error error = deferred->add(
            **dylib, ThreadSafeModule(std::move(deferredModule), sharedContext),
            abi::getInvocationEntrySymbol(name)))
      return error;
    kernel->invocationDeferred = true;
  }
  for (const DescriptorBinding &used : lowered->layout.usedBindings)
    kernel->usedBindings.insert({used.set, used.binding});
  if (perturbWorkgroup)
    kernel->entry.workgroupFill = 0xff;
  if (llvm::Error error = linkEntries(*kernel, **dylib, name))
    return error;
  clock.end(phases.codegen);
  if (diskCache)
    if (std::unique_ptr<llvm::MemoryBuffer> object = objects->take(moduleName))
      diskCache->store(
          key, {name,
                {kernel->usedBindings.begin(), kernel->usedBindings.end()},
                kernel->entry.workgroupFill,
                std::move(object),
                std::move(deferredBitcode)});
  return finish(std::move(kernel));
}

mlir::MLIRContext &JitCompiler::getMlirContext() {
  // Loading the dialects takes a few milliseconds of each compile; what a
  // context interns (types, attributes, locations) only grows, so it is
  // replaced now and then.
  if (!mlirContext)
    mlirContext = warmup->takeContext();
  if (!mlirContext || ++mlirContextUses > kMlirContextUses) {
    mlirContext = createCompilerContext();
    mlirContextUses = 0;
  }
  return *mlirContext;
}

llvm::Expected<JITDylib *> JitCompiler::createKernelDylib() {
  // One JITDylib per kernel: every kernel exports the same ABI names.
  auto dylib = jit->createJITDylib("kernel" + std::to_string(dylibCount++));
  if (!dylib)
    return dylib.takeError();
  MangleAndInterner mangle(jit->getExecutionSession(), jit->getDataLayout());
  SymbolMap runtimeSymbols;
  auto defineRuntime = [&](llvm::StringRef name, auto *function) {
    runtimeSymbols[mangle(name)] = {ExecutorAddr::fromPtr(function),
                                    llvm::JITSymbolFlags::Exported |
                                        llvm::JITSymbolFlags::Callable};
  };
  defineRuntime(abi::kControlBarrier, &spvb_rt_control_barrier);
  defineRuntime(abi::kPrintf, &spvb_rt_printf);
  defineRuntime(abi::kSubgroup, &spvb_rt_subgroup);
  defineRuntime(abi::kSubgroupAll, &spvb_rt_subgroup_all);
  defineRuntime(abi::kImage, &spvb_rt_image);
  defineRuntime(abi::kSample2, &spvb_rt_sample2);
  defineRuntime(abi::kSample2Lanes, &spvb_rt_sample2_lanes);
  defineRuntime(abi::kSample2Uniform, &spvb_rt_sample2_uniform);
  defineRuntime(abi::kInterpolate, &spvb_rt_interpolate);
  defineRuntime(abi::kFault, &spvb_rt_fault);
  defineRuntime(abi::kRecordAccess, &spvb_rt_record_access);
  defineRuntime(abi::kUndefined, &spvb_rt_undefined);
  if (llvm::Error error = dylib->define(absoluteSymbols(runtimeSymbols)))
    return error;
  // libm and compiler-rt helpers (sinf, __truncsfhf2, ...) from the process.
  auto process = DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit->getDataLayout().getGlobalPrefix());
  if (!process)
    return process.takeError();
  dylib->addGenerator(std::move(*process));
  return &*dylib;
}

llvm::Error JitCompiler::linkEntries(Kernel &kernel, JITDylib &dylib,
                                     llvm::StringRef name) {
  auto invocation = jit->lookup(dylib, abi::getInvocationEntrySymbol(name));
  if (!invocation)
    return invocation.takeError();
  auto info = jit->lookup(dylib, abi::getKernelInfoSymbol(name));
  if (!info)
    return info.takeError();
  kernel.entry.invocation = invocation->toPtr<spvb_entry_fn>();
  kernel.entry.info = *info->toPtr<const spvb_kernel_info *>();
  if (kernel.entry.info.execution_model == spv::ExecutionModelGLCompute) {
    auto table = jit->lookup(dylib, abi::getPrivateAtomicsSymbol(name));
    if (!table)
      return table.takeError();
    const auto *buffers = table->toPtr<const spvb_private_atomics *>();
    kernel.entry.privateAtomics.assign(
        buffers, buffers + kernel.entry.info.private_atomic_count);
  } else {
    auto table = jit->lookup(dylib, abi::getStageVariablesSymbol(name));
    if (!table)
      return table.takeError();
    const auto *variables = table->toPtr<const spvb_stage_variable *>();
    kernel.stageVariables.assign(
        variables, variables + kernel.entry.info.stage_variable_count);
  }
  if (kernel.entry.info.workgroup_entry != SPVB_WORKGROUP_ENTRY_NONE) {
    auto workgroup = jit->lookup(dylib, abi::getWorkgroupEntrySymbol(name));
    if (!workgroup)
      return workgroup.takeError();
    kernel.entry.workgroup = workgroup->toPtr<spvb_entry_fn>();
  }
  return llvm::Error::success();
}

std::optional<std::shared_ptr<Kernel>>
JitCompiler::loadFromDisk(llvm::StringRef key, const Kernel &reflected) {
  std::optional<KernelDiskCache::Entry> entry = diskCache->load(key);
  if (!entry)
    return std::nullopt;
  auto kernel = std::make_shared<Kernel>(reflected);
  kernel->usedBindings.insert(entry->usedBindings.begin(),
                              entry->usedBindings.end());
  kernel->entry.workgroupFill = entry->workgroupFill;
  kernel->diskCache = DiskCacheUse::Hit;
  llvm::Expected<JITDylib *> dylib = createKernelDylib();
  llvm::Error error =
      dylib ? jit->addObjectFile(**dylib, std::move(entry->object))
            : dylib.takeError();
  kernel->invocationDeferred = entry->deferredBitcode != nullptr;
  if (!error && entry->deferredBitcode)
    error =
        deferred->addBitcode(**dylib, std::move(entry->deferredBitcode),
                             abi::getInvocationEntrySymbol(entry->entryName),
                             (*dylib)->getName() + kDeferredSuffix.str());
  if (!error)
    error = linkEntries(*kernel, **dylib, entry->entryName);
  if (!error)
    return kernel;
  // An object that does not link is dropped and compiled again.
  llvm::consumeError(std::move(error));
  diskCache->remove(key);
  return std::nullopt;
}

Dispatch::Dispatch(std::shared_ptr<const Kernel> kernel)
    : kernel(std::move(kernel)) {}

void Dispatch::bindBuffer(uint32_t set, uint32_t binding, void *data,
                          uint64_t size, uint32_t arrayElement) {
  buffers[{set, binding, arrayElement}] = {static_cast<uint8_t *>(data), size};
}

void Dispatch::bindImage(uint32_t set, uint32_t binding,
                         const spvb_image *image, uint32_t arrayElement) {
  buffers[{set, binding, arrayElement}] = {
      reinterpret_cast<uint8_t *>(const_cast<spvb_image *>(image)),
      sizeof(spvb_image)};
  images.insert({set, binding, arrayElement});
}

void Dispatch::bindSampler(uint32_t set, uint32_t binding,
                           const spvb_sampler *sampler, uint32_t arrayElement) {
  buffers[{set, binding, arrayElement}] = {
      reinterpret_cast<uint8_t *>(const_cast<spvb_sampler *>(sampler)),
      sizeof(spvb_sampler)};
  samplers.insert({set, binding, arrayElement});
}

void Dispatch::setPushConstants(llvm::ArrayRef<uint8_t> bytes) {
  pushConstants.assign(bytes.begin(), bytes.end());
  hasPushConstants = true;
}

void Dispatch::bindPartially(uint32_t set, uint32_t binding, uint32_t count) {
  partialBindings[{set, binding}] = count;
}

uint32_t Dispatch::getElementCount(uint32_t set, uint32_t binding) const {
  auto partial = partialBindings.find({set, binding});
  uint32_t count = partial != partialBindings.end() ? partial->second : 1;
  auto first = buffers.lower_bound({set, binding, 0});
  auto end = buffers.lower_bound({set, binding + 1, 0});
  if (binding == UINT32_MAX)
    end = buffers.lower_bound({set + 1, 0, 0});
  if (first == end)
    return count;
  return std::max(count, std::get<2>(std::prev(end)->first) + 1);
}

llvm::Error Dispatch::validate() const {
  const ModuleReflection &reflection = kernel->reflection;
  for (const ResourceInfo &resource : reflection.resources) {
    // What the shader never names needs no descriptor.
    if (!kernel->usedBindings.count({resource.set, resource.binding}))
      continue;
    for (uint32_t element = 0,
                  count = resource.arraySize
                              ? resource.arraySize
                              : getElementCount(resource.set, resource.binding);
         element < count; ++element) {
      std::tuple<uint32_t, uint32_t, uint32_t> key{resource.set,
                                                   resource.binding, element};
      const char *problem = nullptr;
      bool isSampler = resource.kind == ResourceKind::Sampler;
      if (!buffers.count(key)) {
        if (partialBindings.count({resource.set, resource.binding}))
          continue;
        problem = "nothing is bound to it";
      } else if (images.count(key) && !isImage(resource.kind))
        problem = "an image is bound to it";
      else if (samplers.count(key) && !isSampler)
        problem = "a sampler is bound to it";
      else if (!images.count(key) && !samplers.count(key) &&
               (isImage(resource.kind) || isSampler))
        problem = "a buffer is bound to it";
      if (problem)
        return makeError(llvm::formatv(
            "error: {0}: the shader uses {1} '{2}' (set {3}, binding {4}{5}) "
            "but {6}",
            kernel->sourceName,
            llvm::join(llvm::split(getResourceKindName(resource.kind), '-'),
                       " "),
            resource.name.empty() ? resource.blockTypeName : resource.name,
            resource.set, resource.binding,
            resource.arraySize != 1
                ? llvm::formatv(", element {0}", element).str()
                : std::string(),
            problem));
    }
  }
  if (reflection.pushConstants && !hasPushConstants)
    return makeError(llvm::formatv(
        "error: {0}: the shader uses push constants ({1} bytes) but none are "
        "given",
        kernel->sourceName, reflection.pushConstantSize));
  return llvm::Error::success();
}

llvm::Error Dispatch::run(runtime::Launcher &launcher,
                          std::array<uint32_t, 3> groups,
                          std::array<uint32_t, 3> base) {
  // Graphics stages run inside a draw (spvb::Draw).
  uint32_t model = kernel->entry.info.execution_model;
  if (model != spv::ExecutionModelGLCompute)
    return makeError(llvm::formatv(
        "error: {0}: entry point '{1}' is a {2} shader, which runs in a draw "
        "(spv-run --framebuffer WxH, an Amber script), not a dispatch",
        kernel->sourceName, kernel->entryPoint, getCompiledStageName(model)));
  llvm::Expected<runtime::DispatchResources> resources = prepare(groups);
  if (!resources)
    return resources.takeError();
  resources->baseWorkgroup = base;
  return explainFault(launcher.launch(kernel->entry, *resources, groups));
}

llvm::Error Dispatch::explainFault(llvm::Error error) const {
  return llvm::handleErrors(std::move(error),
                            [&](const runtime::KernelFault &fault) {
                              return makeError(describeFault(fault));
                            });
}

spvb_binding Dispatch::getBinding(
    const std::tuple<uint32_t, uint32_t, uint32_t> &key) const {
  // validate() checked that what the shader uses is bound.
  auto it = buffers.find(key);
  return it != buffers.end() ? it->second : spvb_binding{nullptr, 0};
}

llvm::Expected<runtime::DispatchResources>
Dispatch::prepare(std::array<uint32_t, 3> groups) {
  if (llvm::Error error = validate())
    return error;
  std::vector<BoundBufferSize> sizes;
  for (const auto &[key, binding] : buffers)
    if (!images.count(key) && !samplers.count(key))
      sizes.push_back(
          {std::get<0>(key), std::get<1>(key), std::get<2>(key), binding.size});
  if (llvm::Error error = checkDeviceLimits(
          *kernel, groups,
          [&](uint32_t set, uint32_t binding) {
            return getElementCount(set, binding);
          },
          sizes, limits))
    return error;
  runtime::DispatchResources resources;
  const ModuleReflection &reflection = kernel->reflection;
  resources.bindings.resize(reflection.bindingTableSize);
  // A runtime-sized descriptor array's slot points at its own table of the
  // bound elements (kernel_abi.h).
  elementTables.clear();
  for (const ResourceInfo &resource : reflection.resources) {
    if (resource.arraySize == 0) {
      std::vector<spvb_binding> &table = elementTables[resource.slot];
      if (table.empty())
        for (uint32_t element = 0,
                      count = getElementCount(resource.set, resource.binding);
             element < count; ++element)
          table.push_back(
              getBinding({resource.set, resource.binding, element}));
      resources.bindings[resource.slot] = {
          reinterpret_cast<uint8_t *>(table.data()),
          table.size() * sizeof(spvb_binding)};
      continue;
    }
    for (uint32_t element = 0; element < resource.arraySize; ++element)
      resources.bindings[resource.slot + element] =
          getBinding({resource.set, resource.binding, element});
  }
  resources.subgroupSize = subgroupSize;
  // Reads past the given bytes stay inside the block.
  resources.pushConstants = pushConstants;
  if (resources.pushConstants.size() < reflection.pushConstantSize)
    resources.pushConstants.resize(reflection.pushConstantSize, 0);
  return resources;
}

void Dispatch::nameMemory(std::string name, const void *data, uint64_t size) {
  namedMemory.push_back(
      {std::move(name), reinterpret_cast<uintptr_t>(data), size});
}

void Dispatch::labelBinding(uint32_t set, uint32_t binding,
                            uint32_t arrayElement, std::string label) {
  labels[{set, binding, arrayElement}] = std::move(label);
}

/// How far `address` is from [start, start + size): 0 inside.
static uint64_t getDistance(uintptr_t address, uintptr_t start, uint64_t size) {
  if (address < start)
    return start - address;
  return address - start < size ? 0 : address - start - size + 1;
}

/// Beyond the guard regions (GuardedBuffer.h) a fault is nobody's.
static constexpr uint64_t kNearby = uint64_t(16) << 30;

std::string Dispatch::describeFault(const runtime::KernelFault &trapped) const {
  runtime::KernelFault fault = trapped;
  fault.boundsCheckHint = boundsCheckHint;
  std::string prefix = "error: " + kernel->sourceName + ": ";
  if (fault.kind != runtime::KernelFault::Kind::Access || !fault.region.empty())
    return prefix + fault.getMessage();

  // The buffer the access fell nearest to.
  std::string nearest, detail;
  uintptr_t start = 0;
  uint64_t size = 0, best = UINT64_MAX;
  auto consider = [&](std::string name, std::string where, uintptr_t begin,
                      uint64_t bytes) {
    uint64_t distance = getDistance(fault.address, begin, bytes);
    if (distance < best) {
      best = distance;
      nearest = std::move(name);
      detail = std::move(where);
      start = begin;
      size = bytes;
    }
  };
  for (const ResourceInfo &resource : kernel->reflection.resources)
    for (auto it = buffers.lower_bound({resource.set, resource.binding, 0});
         it != buffers.end() && std::get<0>(it->first) == resource.set &&
         std::get<1>(it->first) == resource.binding;
         ++it) {
      if (samplers.count(it->first))
        continue;
      std::string name = llvm::formatv(
          "{0} '{1}'", images.count(it->first) ? "image" : "buffer",
          resource.name.empty() ? resource.blockTypeName : resource.name);
      auto label = labels.find(it->first);
      if (label != labels.end())
        name += " (" + label->second + ")";
      std::string where = llvm::formatv(
          "set {0}, binding {1}{2}", resource.set, resource.binding,
          resource.arraySize != 1
              ? llvm::formatv(", element {0}", std::get<2>(it->first)).str()
              : std::string());
      if (images.count(it->first)) {
        const auto *image =
            reinterpret_cast<const spvb_image *>(it->second.base);
        consider(name, where, reinterpret_cast<uintptr_t>(image->data),
                 image->size);
      } else {
        consider(name, where, reinterpret_cast<uintptr_t>(it->second.base),
                 it->second.size);
      }
    }
  for (const NamedMemory &memory : namedMemory)
    consider("buffer '" + memory.name + "'", "", memory.start, memory.size);
  if (best > kNearby)
    return prefix + fault.getMessage();
  return prefix + fault.describeAccess(
                      fault.describeOffset(nearest, detail, start, size));
}

llvm::StringRef spvb::getDiskCacheUseName(DiskCacheUse use) {
  switch (use) {
  case DiskCacheUse::Hit:
    return "hit";
  case DiskCacheUse::Miss:
    return "miss";
  case DiskCacheUse::Off:
    break;
  }
  return "off";
}

llvm::StringRef spvb::getWorkgroupEntryName(uint32_t kind) {
  switch (kind) {
  case SPVB_WORKGROUP_ENTRY_LOOP:
    return "loop";
  case SPVB_WORKGROUP_ENTRY_REGIONS:
    return "regions";
  case SPVB_WORKGROUP_ENTRY_LANES:
    return "lanes";
  default:
    return "fibers";
  }
}
