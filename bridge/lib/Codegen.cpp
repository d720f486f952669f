//===- Codegen.cpp - Optimize and emit LLVM modules for the host ----------===//
#include "spvbridge/bridge/Codegen.h"

#include "spvbridge/transforms/BarrierLoopUnroll.h"
#include "spvbridge/transforms/ConvergentOperations.h"
#include "spvbridge/transforms/GatherScatterLoops.h"
#include "spvbridge/transforms/InvocationBlockScopes.h"
#include "spvbridge/transforms/InvocationVectorizer.h"
#include "spvbridge/transforms/SingleThreadAtomics.h"
#include "spvbridge/transforms/SkipIdentityAtomics.h"
#include "spvbridge/transforms/SplitInvocationEntry.h"
#include "spvbridge/transforms/SubgroupSites.h"
#include "spvbridge/transforms/VectorMathLibrary.h"
#include "spvbridge/transforms/WorkgroupLoops.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"

using namespace spvb;

static llvm::OptimizationLevel toPassBuilderLevel(OptLevel level) {
  switch (level) {
  case OptLevel::O0:
    return llvm::OptimizationLevel::O0;
  case OptLevel::O1:
    return llvm::OptimizationLevel::O1;
  case OptLevel::O2:
    return llvm::OptimizationLevel::O2;
  case OptLevel::O3:
    return llvm::OptimizationLevel::O3;
  }
  return llvm::OptimizationLevel::O2;
}

static llvm::CodeGenOptLevel toCodeGenLevel(OptLevel level) {
  switch (level) {
  case OptLevel::O0:
    return llvm::CodeGenOptLevel::None;
  case OptLevel::O1:
    return llvm::CodeGenOptLevel::Less;
  case OptLevel::O2:
    return llvm::CodeGenOptLevel::Default;
  case OptLevel::O3:
    return llvm::CodeGenOptLevel::Aggressive;
  }
  return llvm::CodeGenOptLevel::Default;
}

void spvb::initializeHostTarget() {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialized;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
spvb::createHostTargetMachine(OptLevel level) {
  initializeHostTarget();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: no LLVM target for the host: " +
                                       error);
  llvm::SubtargetFeatures features;
  for (const auto &[feature, enabled] : llvm::sys::getHostCPUFeatures())
    features.AddFeature(feature, enabled);
  llvm::TargetOptions targetOptions;
  targetOptions.VecLib = getVectorMathLibrary();
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), features.getString(), targetOptions,
      llvm::Reloc::PIC_, std::nullopt, toCodeGenLevel(level)));
  if (!machine)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: cannot create the host target");
  return machine;
}

namespace {
/// The new pass manager's analysis managers, registered with each other.
struct AnalysisManagers {
  explicit AnalysisManagers(llvm::PassBuilder &builder) {
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(cgscc);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, cgscc, modules);
  }
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
};
} // namespace

/// Names the deferred module's level: `!spvb.deferred = !{!{i32 LEVEL}}`.
static constexpr llvm::StringLiteral kDeferredMetadata = "spvb.deferred";

static void setTarget(llvm::Module &module, llvm::TargetMachine &machine) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
}

/// Large frames touch each page on the way down, so a stack overflow
/// faults on the guard page (which the launcher reports) instead of
/// jumping past it into other memory.
static void addStackProbes(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");
}

/// The workgroup entries run the invocation with every call inlined; doing
/// so before the first simplification lets it see across calls (a Private
/// variable one function stores and another loads becomes a value), where
/// LLVM's inliner would keep a large function called from several places
/// (ggml's mul_mat_vec). SPIR-V's DontInline is kept.
static void inlineShaderFunctions(llvm::Module &module) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && function.hasLocalLinkage() &&
        !function.hasFnAttribute(llvm::Attribute::NoInline))
      function.addFnAttr(llvm::Attribute::AlwaysInline);
}

static void registerSubgroupSites(llvm::PassBuilder &builder) {
  builder.registerOptimizerLastEPCallback(
      [](llvm::ModulePassManager &modulePasses, llvm::OptimizationLevel,
         llvm::ThinOrFullLTOPhase) {
        modulePasses.addPass(SubgroupSitesPass());
        // After the optimizer, which would only spend time on the loops.
        modulePasses.addPass(
            llvm::createModuleToFunctionPassAdaptor(GatherScatterLoopsPass()));
      });
}

void spvb::optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                          const CompileOptions &options,
                          std::unique_ptr<llvm::Module> *deferred) {
  OptLevel level = options.getOptLevel();
  setTarget(module, machine);
  // LLVM's -time-passes (spv-run --time-passes) times these passes too.
  llvm::PassInstrumentationCallbacks instrumentation;
  std::optional<llvm::StandardInstrumentations> standard;
  if (llvm::TimePassesIsEnabled)
    standard.emplace(module.getContext(), /*DebugLogging=*/false);
  llvm::PassBuilder builder(
      &machine, llvm::PipelineTuningOptions(), std::nullopt,
      llvm::TimePassesIsEnabled ? &instrumentation : nullptr);
  AnalysisManagers analyses(builder);
  if (standard)
    standard->registerCallbacks(instrumentation, &analyses.modules);
  bool loops = options.getBarrierMode() == BarrierMode::Loops;
  bool lanes = options.shouldVectorize();
  unsigned subgroupSize = options.subgroupSize;
  llvm::ModulePassManager passes;
  if (level == OptLevel::O0) {
    passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    if (loops)
      passes.addPass(WorkgroupLoopsPass());
    passes.addPass(SubgroupSitesPass());
  } else {
    inlineShaderFunctions(module);
    builder.registerPipelineStartEPCallback(
        [](llvm::ModulePassManager &modulePasses, llvm::OptimizationLevel) {
          modulePasses.addPass(llvm::AlwaysInlinerPass());
          modulePasses.addPass(InvocationBlockScopesPass());
        });
    registerSubgroupSites(builder);
    // The workgroup entries are cut from the simplified invocation body,
    // then simplified themselves before loop vectorization.
    builder.registerOptimizerEarlyEPCallback(
        [&builder, &machine, loops, lanes, subgroupSize, deferred](
            llvm::ModulePassManager &modulePasses,
            llvm::OptimizationLevel optLevel, llvm::ThinOrFullLTOPhase phase) {
          if (loops) {
            modulePasses.addPass(llvm::createModuleToFunctionPassAdaptor(
                BarrierLoopUnrollPass()));
            modulePasses.addPass(WorkgroupLoopsPass(
                lanes ? &machine : nullptr, 0, lanes ? subgroupSize : 0));
          }
          if (lanes)
            modulePasses.addPass(InvocationVectorizerPass(machine));
          modulePasses.addPass(llvm::createModuleToFunctionPassAdaptor(
              SingleThreadAtomicsPass()));
          modulePasses.addPass(llvm::createModuleToFunctionPassAdaptor(
              SkipIdentityAtomicsPass()));
          if (deferred)
            modulePasses.addPass(SplitInvocationEntryPass(*deferred));
          if (loops || lanes)
            modulePasses.addPass(llvm::createModuleToFunctionPassAdaptor(
                builder.buildFunctionSimplificationPipeline(optLevel, phase)));
        });
    passes = builder.buildPerModuleDefaultPipeline(toPassBuilderLevel(level));
  }
  // Before anything LLVM could duplicate a barrier with.
  ConvergentOperationsPass().run(module, analyses.modules);
  passes.run(module, analyses.modules);
  addStackProbes(module);
  if (deferred && *deferred) {
    llvm::LLVMContext &context = module.getContext();
    (*deferred)
        ->getOrInsertNamedMetadata(kDeferredMetadata)
        ->addOperand(llvm::MDNode::get(
            context, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                         llvm::Type::getInt32Ty(context),
                         static_cast<uint32_t>(level)))));
  }
}

void spvb::optimizeWithLLVMPipeline(llvm::Module &module,
                                    llvm::TargetMachine &machine,
                                    OptLevel level,
                                    llvm::function_ref<bool()> keepGoing) {
  setTarget(module, machine);
  llvm::PassInstrumentationCallbacks instrumentation;
  instrumentation.registerShouldRunOptionalPassCallback(
      [keepGoing](llvm::StringRef, llvm::Any) { return keepGoing(); });
  llvm::PassBuilder builder(&machine, llvm::PipelineTuningOptions(),
                            std::nullopt, &instrumentation);
  AnalysisManagers analyses(builder);
  llvm::OptimizationLevel passLevel = toPassBuilderLevel(level);
  llvm::ModulePassManager passes =
      level == OptLevel::O0 ? builder.buildO0DefaultPipeline(passLevel)
                            : builder.buildPerModuleDefaultPipeline(passLevel);
  passes.run(module, analyses.modules);
}

bool spvb::isDeferredModule(const llvm::Module &module) {
  return module.getNamedMetadata(kDeferredMetadata) != nullptr;
}

llvm::Error spvb::optimizeDeferredModule(llvm::Module &module) {
  llvm::NamedMDNode *metadata = module.getNamedMetadata(kDeferredMetadata);
  std::optional<uint64_t> level;
  if (metadata && metadata->getNumOperands() == 1 &&
      metadata->getOperand(0)->getNumOperands() == 1)
    if (auto *constant = llvm::mdconst::dyn_extract<llvm::ConstantInt>(
            metadata->getOperand(0)->getOperand(0)))
      level = constant->getZExtValue();
  if (!level || *level > static_cast<uint64_t>(OptLevel::O3))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: " + module.getModuleIdentifier() +
            ": a deferred module without its optimization level");
  module.eraseNamedMetadata(metadata);
  auto optLevel = static_cast<OptLevel>(*level);
  auto machine = createHostTargetMachine(optLevel);
  if (!machine)
    return machine.takeError();
  setTarget(module, **machine);
  llvm::PassBuilder builder(machine->get());
  AnalysisManagers analyses(builder);
  registerSubgroupSites(builder);
  llvm::ModulePassManager passes = builder.buildModuleOptimizationPipeline(
      toPassBuilderLevel(optLevel), llvm::ThinOrFullLTOPhase::None);
  passes.run(module, analyses.modules);
  addStackProbes(module);
  return llvm::Error::success();
}

llvm::Error spvb::emitMachineCode(llvm::Module &module,
                                  llvm::TargetMachine &machine, ObjectKind kind,
                                  llvm::raw_pwrite_stream &os) {
  setTarget(module, machine);
  llvm::legacy::PassManager passes;
  auto fileType = kind == ObjectKind::Assembly
                      ? llvm::CodeGenFileType::AssemblyFile
                      : llvm::CodeGenFileType::ObjectFile;
  if (machine.addPassesToEmitFile(passes, os, nullptr, fileType))
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: the host target cannot emit this file type");
  passes.run(module);
  return llvm::Error::success();
}
