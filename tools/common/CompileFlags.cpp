//===- CompileFlags.cpp - Compiler flags shared by the tools --------------===//
#include "CompileFlags.h"

#include "spvbridge/spirv/Validator.h"

using namespace llvm;

cl::OptionCategory &spvb::tools::getToolCategory() {
  static cl::OptionCategory category("spvbridge options");
  return category;
}

static cl::opt<std::string>
    entryPoint("entry",
               cl::desc("Entry point (default: the only compute entry point, "
                        "else main)"),
               cl::cat(spvb::tools::getToolCategory()));
static cl::list<std::string>
    specs("spec", cl::desc("Specialization constant ID:TYPE:VALUE"),
          cl::cat(spvb::tools::getToolCategory()));
static cl::list<std::string>
    defines("D", cl::Prefix, cl::desc("Preprocessor define NAME[=VALUE]"),
            cl::cat(spvb::tools::getToolCategory()));
static cl::list<std::string>
    includeDirs("I", cl::Prefix, cl::desc("Include directory"),
                cl::cat(spvb::tools::getToolCategory()));
static cl::opt<std::string> optLevel("O", cl::desc("Optimization level 0-3"),
                                     cl::Prefix, cl::init("2"),
                                     cl::cat(spvb::tools::getToolCategory()));
static cl::opt<std::string>
    targetEnv("target-env",
              cl::desc("Target environment for compiling and validating"),
              cl::init("vulkan1.2"), cl::cat(spvb::tools::getToolCategory()));
static cl::opt<bool> noValidate("no-validate",
                                cl::desc("Skip SPIRV-Tools validation"),
                                cl::cat(spvb::tools::getToolCategory()));
static cl::opt<std::string> barrierMode(
    "barriers",
    cl::desc("How kernels with barriers run a workgroup: loops (a loop over "
             "the invocations between barriers, default) or fibers (one "
             "fiber per invocation)"),
    cl::init("loops"), cl::cat(spvb::tools::getToolCategory()));
static cl::opt<std::string> vectorize(
    "vectorize",
    cl::desc("on (default) runs invocations in SIMD lanes, as many as a "
             "vector register holds: kernels without barriers whole, kernels "
             "with barriers region by region; off runs them one after the "
             "other"),
    cl::init("on"), cl::cat(spvb::tools::getToolCategory()));
static cl::opt<bool>
    robust("robust",
           cl::desc("robustBufferAccess2 semantics: out-of-bounds reads give "
                    "zero, writes are dropped"),
           cl::cat(spvb::tools::getToolCategory()));
static cl::opt<bool> checkBounds(
    "check-bounds",
    cl::desc("Report the first out-of-bounds buffer access as an error "
             "naming the shader line, buffer and invocation (the access "
             "behaves as with --robust)"),
    cl::cat(spvb::tools::getToolCategory()));

static cl::opt<bool> checkRaces(
    "check-races",
    cl::desc("Report the first data race on buffer or Workgroup memory (two "
             "accesses of different invocations, one a write, not both "
             "atomic, no barrier between them) naming both source lines and "
             "invocations; slow, for debugging"),
    cl::cat(spvb::tools::getToolCategory()));

static cl::opt<bool> checkUndefined(
    "check-undefined",
    cl::desc("Report the first operation whose result the specifications "
             "leave undefined for its operands (OpSMod of a negative value, "
             "OpConvertFToU of -1.5, Pow(0, -1), a shift by the bit width, "
             "...) naming the shader line, operands and invocation"),
    cl::cat(spvb::tools::getToolCategory()));
static cl::opt<bool> checkNan(
    "check-nan",
    cl::desc("Report the first float operation that makes a NaN or an "
             "infinity from finite operands (0/0, log(0), sqrt(-1), an "
             "overflow) naming the shader line, operands and invocation"),
    cl::cat(spvb::tools::getToolCategory()));
static cl::opt<bool> perturbUndefined(
    "perturb-undefined",
    cl::desc("Flip every bit of each result the specifications leave "
             "undefined, take element 0 for an out-of-bounds index and make "
             "OpUndef all ones instead of zero: outputs that change depend "
             "on undefined values"),
    cl::cat(spvb::tools::getToolCategory()));

static cl::opt<bool> debug(
    "debug",
    cl::desc("Compile for gdb and lldb: DWARF line tables and variables of "
             "the shader's source, no optimization, one invocation at a "
             "time; `gdb --args spv-run --debug ...` then stops at "
             "`break shader.comp:LINE`"),
    cl::cat(spvb::tools::getToolCategory()));

static cl::alias debugAlias("g", cl::desc("Alias for --debug"),
                            cl::aliasopt(debug),
                            cl::cat(spvb::tools::getToolCategory()));

Expected<spvb::CompileOptions> spvb::tools::getCompileOptions() {
  if (Expected<spv_target_env> env = parseTargetEnv(targetEnv); !env)
    return env.takeError();
  if (optLevel.size() != 1 || optLevel[0] < '0' || optLevel[0] > '3')
    return createStringError(inconvertibleErrorCode(),
                             "error: -O" + optLevel +
                                 ": unknown optimization level (expected "
                                 "-O0, -O1, -O2 or -O3)");
  if (barrierMode != "loops" && barrierMode != "fibers")
    return createStringError(inconvertibleErrorCode(),
                             "error: --barriers=" + barrierMode +
                                 ": unknown barrier mode (expected loops or "
                                 "fibers)");
  if (vectorize != "on" && vectorize != "off")
    return createStringError(inconvertibleErrorCode(),
                             "error: --vectorize=" + vectorize +
                                 ": expected on or off");
  if (checkUndefined && perturbUndefined)
    return createStringError(inconvertibleErrorCode(),
                             "error: --check-undefined and "
                             "--perturb-undefined exclude each other: one "
                             "reports undefined results, the other changes "
                             "them");
  CompileOptions options;
  options.barriers =
      barrierMode == "loops" ? BarrierMode::Loops : BarrierMode::Fibers;
  options.source.defines = defines;
  options.source.includeDirs = includeDirs;
  options.source.targetEnv = targetEnv;
  if (!entryPoint.empty())
    options.source.entry = entryPoint;
  options.entryPoint = entryPoint;
  options.optLevel = static_cast<OptLevel>(optLevel[0] - '0');
  options.validate = !noValidate;
  options.robust = robust;
  options.vectorize = vectorize == "on";
  options.checkBounds = checkBounds;
  options.checkRaces = checkRaces;
  options.debug = debug;
  options.source.debug = debug;
  options.checkNan = checkNan;
  if (checkUndefined)
    options.undefinedChecks = UndefinedChecks::Report;
  else if (perturbUndefined)
    options.undefinedChecks = UndefinedChecks::Perturb;
  for (const std::string &spec : specs) {
    Expected<SpecConstantValue> value = parseSpecArgument(spec);
    if (!value)
      return value.takeError();
    options.specializations.push_back(*value);
  }
  return options;
}

int spvb::tools::fail(Error error) {
  errs() << toString(std::move(error)) << "\n";
  return 1;
}

int spvb::tools::fail(const Twine &message) {
  errs() << "error: " << message << "\n";
  return 1;
}
