//===- spv-to-ll.cpp - Compile a compute shader to LLVM IR ----------------===//
//
// spv-to-ll INPUT [-o FILE] [--emit=KIND] [-O0..-O3] [--entry NAME]
//           [--spec ID:TYPE:VALUE]... [-DNAME[=VALUE]]... [-IDIR]...
//
// INPUT is anything the front end loads: .spv, .spvasm, GLSL (.comp .vert
// .frag .glsl) or .hlsl. Default: optimized (-O2) LLVM IR text on stdout.
//
//===----------------------------------------------------------------------===//
#include "CompileFlags.h"
#include "HugePageHeap.h"
#include "spvbridge/bridge/Codegen.h"
#include "spvbridge/bridge/Compiler.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace llvm;
using namespace spvb;

static cl::OptionCategory &category = spvb::tools::getToolCategory();

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<input shader>"),
                                      cl::cat(category));
static cl::opt<std::string> outputPath("o",
                                       cl::desc("Output file (- = stdout)"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::opt<std::string>
    emitKind("emit",
             cl::desc("What to emit: llvm (default), bc, asm, obj, "
                      "mlir-spirv, mlir-llvm"),
             cl::init("llvm"), cl::cat(category));

static cl::opt<std::string> subgroupSize(
    "subgroup-size",
    cl::desc("Compile for subgroups of N invocations (a power of two from 1 "
             "to 64): a compute kernel's subgroup instructions then run in "
             "SIMD lanes; 0 (default): the dispatch's size"),
    cl::value_desc("N"), cl::init("0"), cl::cat(category));

using spvb::tools::fail;

int main(int argc, char **argv) {
  spvb::tools::backHeapWithHugePages();
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "spv-to-ll: compile a compute shader to LLVM IR "
                              "on the spvbridge kernel ABI\n");

  static const char *kinds[] = {"llvm", "bc",         "asm",
                                "obj",  "mlir-spirv", "mlir-llvm"};
  if (!llvm::is_contained(kinds, emitKind))
    return fail("--emit: unknown value '" + emitKind +
                "' (expected llvm, bc, asm, obj, mlir-spirv or mlir-llvm)");
  Expected<CompileOptions> options = spvb::tools::getCompileOptions();
  if (!options)
    return fail(options.takeError());
  uint32_t size = 0;
  if (StringRef(subgroupSize).getAsInteger(10, size) ||
      (size && (!isPowerOf2_32(size) || size > 64)))
    return fail("--subgroup-size '" + subgroupSize +
                "': expected 0 or a power of two from 1 to 64");
  options->subgroupSize = size;
  // LLVM IR is for people to read: values named as in the shader.
  options->valueNames = emitKind == "llvm" || emitKind == "bc";
  Compiler compiler(*options);
  Expected<SpirvBinary> binary = compiler.load(inputPath);
  if (!binary)
    return fail(binary.takeError());
  Expected<ModuleReflection> reflection = compiler.reflect(*binary);
  if (!reflection)
    return fail(reflection.takeError());

  std::error_code ec;
  bool binaryOutput = emitKind == "bc" || emitKind == "obj";
  auto output = std::make_unique<ToolOutputFile>(
      outputPath, ec, binaryOutput ? sys::fs::OF_None : sys::fs::OF_Text);
  if (ec)
    return fail("cannot open output file '" + outputPath +
                "': " + ec.message());

  auto spirvModule = compiler.deserialize(*binary);
  if (!spirvModule)
    return fail(spirvModule.takeError());
  if (!compiler.getListingPath().empty())
    errs() << "note: " << inputPath
           << " has no debug info; its lines are those of its disassembly "
           << compiler.getListingPath() << "\n";
  if (emitKind == "mlir-spirv") {
    spirvModule->get()->print(output->os());
    output->keep();
    return 0;
  }
  Expected<LoweredModule> lowered =
      compiler.lower(std::move(*spirvModule), *reflection, binary->name);
  if (!lowered)
    return fail(lowered.takeError());
  if (emitKind == "mlir-llvm") {
    lowered->module->print(output->os());
    output->keep();
    return 0;
  }

  LLVMContext context;
  auto module = compiler.translate(*lowered->module, context, binary->name);
  if (!module)
    return fail(module.takeError());
  auto machine = createHostTargetMachine(options->getOptLevel());
  if (!machine)
    return fail(machine.takeError());
  optimizeModule(**module, **machine, *options);

  if (emitKind == "llvm") {
    (*module)->print(output->os(), nullptr);
  } else if (emitKind == "bc") {
    WriteBitcodeToFile(**module, output->os());
  } else {
    ObjectKind kind =
        emitKind == "asm" ? ObjectKind::Assembly : ObjectKind::Object;
    if (Error error = emitMachineCode(**module, **machine, kind, output->os()))
      return fail(std::move(error));
  }
  output->keep();
  return 0;
}
