//===- Codegen.cpp - Optimize and emit LLVM modules for the host ----------===//
#include "spvbridge/bridge/Codegen.h"

#include "spvbridge/transforms/ConvergentOperations.h"
#include "spvbridge/transforms/InvocationVectorizer.h"
#include "spvbridge/transforms/SubgroupSites.h"
#include "spvbridge/transforms/VectorMathLibrary.h"
#include "spvbridge/transforms/WorkgroupLoops.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

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

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
spvb::createHostTargetMachine(OptLevel level) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialized;
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

void spvb::optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                          const CompileOptions &options) {
  OptLevel level = options.getOptLevel();
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  bool loops = options.getBarrierMode() == BarrierMode::Loops;
  bool lanes = options.shouldVectorize();
  llvm::ModulePassManager passes;
  if (level == OptLevel::O0) {
    passes = builder.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
    if (loops)
      passes.addPass(WorkgroupLoopsPass());
    passes.addPass(SubgroupSitesPass());
  } else {
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &modulePasses, llvm::OptimizationLevel,
           llvm::ThinOrFullLTOPhase) {
          modulePasses.addPass(SubgroupSitesPass());
        });
    // The workgroup entries are cut from the simplified invocation body,
    // then simplified themselves before loop vectorization.
    if (loops || lanes)
      builder.registerOptimizerEarlyEPCallback(
          [&builder, &machine, loops,
           lanes](llvm::ModulePassManager &modulePasses,
                  llvm::OptimizationLevel optLevel,
                  llvm::ThinOrFullLTOPhase phase) {
            if (loops)
              modulePasses.addPass(WorkgroupLoopsPass(lanes));
            if (lanes)
              modulePasses.addPass(InvocationVectorizerPass(machine));
            modulePasses.addPass(llvm::createModuleToFunctionPassAdaptor(
                builder.buildFunctionSimplificationPipeline(optLevel, phase)));
          });
    passes = builder.buildPerModuleDefaultPipeline(toPassBuilderLevel(level));
  }
  // Before anything LLVM could duplicate a barrier with.
  ConvergentOperationsPass().run(module, mam);
  passes.run(module, mam);
  // Large frames touch each page on the way down, so a stack overflow
  // faults on the guard page (which the launcher reports) instead of
  // jumping past it into other memory.
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      function.addFnAttr("probe-stack", "inline-asm");
}

llvm::Error spvb::emitMachineCode(llvm::Module &module,
                                  llvm::TargetMachine &machine, ObjectKind kind,
                                  llvm::raw_pwrite_stream &os) {
  module.setTargetTriple(machine.getTargetTriple());
  module.setDataLayout(machine.createDataLayout());
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
