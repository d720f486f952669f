//===- spvb-llvm-opt.cpp - opt with the bridge's transforms ---------------===//
//
// spvb-llvm-opt INPUT.ll -passes=PIPELINE [-o FILE] [--spvb-stats]
//
// Runs a textual new-pass-manager pipeline on an LLVM IR file and prints the
// result as text, as LLVM's opt does, with the bridge's transforms
// registered by name (spvbridge/transforms/PassRegistry.h) and the host as
// the target. For the lit tests of each transform, and for trying one on
// `spv-to-ll -O0 --barriers=fibers` output.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/bridge/Codegen.h"
#include "spvbridge/transforms/PassRegistry.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

static cl::OptionCategory category("spvb-llvm-opt options");
static cl::opt<std::string> inputPath(cl::Positional, cl::init("-"),
                                      cl::desc("<input .ll or .bc>"),
                                      cl::cat(category));
static cl::opt<std::string> outputPath("o",
                                       cl::desc("Output file (- = stdout)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<std::string>
    pipeline("passes", cl::desc("A pipeline: spvb-* passes and LLVM's"),
             cl::value_desc("pipeline"), cl::Required, cl::cat(category));

static cl::opt<bool>
    printStats("spvb-stats",
               cl::desc("Print the transforms' counters after the run (LLVM's "
                        "-stats needs a build of LLVM with assertions)"),
               cl::cat(category));

static int fail(const Twine &message) {
  WithColor::error(errs(), "spvb-llvm-opt") << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  // LLVM's own options stay visible (-debug-only with a debug LLVM).
  cl::ParseCommandLineOptions(
      argc, argv, "spvb-llvm-opt: run spvbridge's LLVM IR transforms\n");

  LLVMContext context;
  SMDiagnostic diagnostic;
  std::unique_ptr<Module> module = parseIRFile(inputPath, diagnostic, context);
  if (!module) {
    diagnostic.print("spvb-llvm-opt", errs());
    return 1;
  }
  Expected<std::unique_ptr<TargetMachine>> machine =
      spvb::createHostTargetMachine(spvb::OptLevel::O2);
  if (!machine)
    return fail(toString(machine.takeError()));
  module->setTargetTriple((*machine)->getTargetTriple());
  module->setDataLayout((*machine)->createDataLayout());

  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassBuilder builder(machine->get());
  spvb::registerTransformPasses(builder, **machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  // Counters register only while statistics are enabled.
  if (printStats)
    EnableStatistics(/*DoPrintOnExit=*/false);
  ModulePassManager passes;
  if (Error error = builder.parsePassPipeline(passes, pipeline))
    return fail("-passes='" + pipeline + "': " + toString(std::move(error)));
  passes.run(*module, mam);
  if (verifyModule(*module, &errs()))
    return fail("the transformed module does not verify");

  if (printStats)
    for (const auto &[name, value] : GetStatistics())
      errs() << formatv("{0,8} {1}\n", value, name);

  std::error_code ec;
  ToolOutputFile output(outputPath, ec, sys::fs::OF_Text);
  if (ec)
    return fail("cannot write '" + outputPath + "': " + ec.message());
  module->print(output.os(), nullptr);
  output.keep();
  return 0;
}
