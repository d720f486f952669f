//===- Compiler.cpp - Shader to LLVM module, stage by stage ---------------===//
#include "spvbridge/bridge/Compiler.h"

#include "ShaderDebugInfo.h"

#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/spirv/Deserializer.h"
#include "spvbridge/spirv/DisassemblyListing.h"
#include "spvbridge/spirv/Validator.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace spvb;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

std::unique_ptr<mlir::MLIRContext> spvb::createCompilerContext() {
  auto context = std::make_unique<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  registerDeserializerDialects(*context);
  registerLoweringDialects(*context);
  return context;
}

Compiler::Compiler(CompileOptions options,
                   llvm::unique_function<mlir::MLIRContext &()> getContext)
    : options(std::move(options)), contextSource(std::move(getContext)) {}

mlir::MLIRContext &Compiler::getContext() {
  // Made on first use: validation and reflection need none.
  if (!mlirContext) {
    if (!contextSource)
      ownedContext = createCompilerContext();
    mlirContext = contextSource ? &contextSource() : ownedContext.get();
  }
  return *mlirContext;
}

Compiler::~Compiler() = default;

llvm::Expected<SpirvBinary> Compiler::load(llvm::StringRef path) {
  SourceOptions source = options.source;
  source.debug |= options.debug;
  llvm::Expected<SpirvBinary> binary = loadShaderFile(path, source);
  if (!binary)
    return binary.takeError();
  return prepare(std::move(*binary));
}

llvm::Expected<SpirvBinary> Compiler::prepare(SpirvBinary binary) {
  if (options.validate)
    if (llvm::Error error = validateSpirv(binary, options.source.targetEnv))
      return error;
  return specialize(binary, options.specializations);
}

llvm::Expected<ModuleReflection> Compiler::reflect(const SpirvBinary &binary) {
  llvm::Expected<ModuleReflection> reflection = reflectModule(binary);
  if (!reflection)
    return reflection.takeError();
  // A module whose only entry point is a vertex or fragment shader (and
  // not asked for another stage) compiles as that stage: spv-to-ll takes
  // any stage's module.
  if (options.executionModel == spv::ExecutionModelGLCompute &&
      reflection->entryPoints.size() == 1 &&
      !getCompiledStageName(reflection->entryPoints[0].executionModel)
           .empty() &&
      (options.entryPoint.empty() ||
       options.entryPoint == reflection->entryPoints[0].name))
    options.executionModel = reflection->entryPoints[0].executionModel;
  spv::ExecutionModel model = options.executionModel;
  std::string modelName = getCompiledStageName(model).str();
  if (modelName.empty())
    return makeError(llvm::formatv(
        "error: {0}: only compute, vertex, tessellation, geometry and "
        "fragment shaders can be compiled",
        binary.name));
  if (options.entryPoint.empty()) {
    const EntryPointInfo *only = nullptr;
    unsigned entries = 0;
    for (const EntryPointInfo &entry : reflection->entryPoints)
      if (entry.executionModel == model) {
        only = &entry;
        ++entries;
      }
    options.entryPoint = entries == 1 ? only->name : "main";
  }
  const EntryPointInfo *match = nullptr;
  for (const EntryPointInfo &entry : reflection->entryPoints)
    if (entry.name == options.entryPoint && entry.executionModel == model)
      match = &entry;
  if (!match) {
    llvm::Expected<const EntryPointInfo *> entry =
        reflection->getEntryPoint(options.entryPoint);
    if (!entry)
      return entry.takeError();
    return makeError(llvm::formatv(
        "error: {0}: entry point '{1}' is not a {2} shader{3}", binary.name,
        options.entryPoint, modelName,
        model == spv::ExecutionModelGLCompute ? " (GLCompute)" : ""));
  }
  return reflection;
}

llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
Compiler::deserialize(const SpirvBinary &binary) {
  bool debugInfo = options.debug || options.valueNames;
  if (!options.debug)
    return deserializeSpirv(binary, getContext(), debugInfo);
  llvm::Expected<bool> hasLines = hasSourceLines(binary);
  if (!hasLines)
    return hasLines.takeError();
  if (*hasLines)
    return deserializeSpirv(binary, getContext(), debugInfo);
  // Without lines a debugger could only step through machine code: it
  // steps through the module's disassembly instead.
  std::string name = options.listingName;
  if (name.empty())
    name = llvm::sys::path::stem(binary.name).str();
  llvm::Expected<DisassemblyListing> listing = writeDisassemblyListing(
      binary, name,
      options.listingDirectory.empty() ? getDefaultListingDirectory()
                                       : options.listingDirectory);
  if (!listing)
    return listing.takeError();
  listingPath = listing->path;
  return deserializeSpirv(binary, getContext(), debugInfo, &*listing);
}

llvm::Expected<LoweredModule>
Compiler::lower(mlir::OwningOpRef<mlir::ModuleOp> module,
                const ModuleReflection &reflection, llvm::StringRef fileName) {
  LoweringOptions lowering;
  lowering.entryPoint = options.entryPoint;
  lowering.executionModel =
      static_cast<mlir::spirv::ExecutionModel>(options.executionModel);
  lowering.robustBufferAccess = options.robust;
  lowering.boundsReports = options.checkBounds;
  lowering.raceReports = options.checkRaces;
  lowering.undefinedChecks = options.undefinedChecks;
  lowering.debugInfo = options.debug || options.valueNames;
  lowering.fillUnreadInputs = options.debug;
  lowering.privateAtomics = !options.debug;
  lowering.nanChecks = options.checkNan;
  // The binding table is reflection's: the runtime fills it in that order.
  std::vector<std::pair<uint32_t, const ResourceInfo *>> slots;
  for (const ResourceInfo &resource : reflection.resources)
    if (resource.slot != ResourceInfo::NoSlot)
      slots.emplace_back(resource.slot, &resource);
  llvm::sort(slots,
             [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[slot, resource] : slots)
    if (lowering.bindings.size() == slot)
      lowering.bindings.insert(lowering.bindings.end(),
                               std::max(resource->arraySize, 1u),
                               {resource->set, resource->binding});
  llvm::Expected<LoweredModule> lowered =
      lowerToLLVMDialect(std::move(module), lowering, fileName);
  if (lowered) {
    if (options.debug || options.valueNames) {
      // Names alone need no source files.
      if (!options.debug)
        (*lowered->module)->removeAttr(kDebugSourcesAttr);
      llvm::StringMap<std::string> entryPoints;
      for (const auto &entry : lowered->layout.entryPoints)
        entryPoints[abi::getInvocationEntrySymbol(entry.name)] = entry.name;
      attachShaderDebugInfo(*lowered->module, fileName, entryPoints);
    }
    return lowered;
  }
  // The interface's errors name the variable; add the file.
  std::string message = llvm::toString(lowered.takeError());
  llvm::StringRef text(message);
  if (text.consume_front("error: ") && !text.starts_with(fileName))
    return makeError("error: " + fileName + ": " + text);
  return makeError(message);
}

/// Names the stack slots of declared variables and the values stored in
/// them after the variables, and parameters after theirs, so that the IR
/// reads like the shader (`%i`, `%n`). `preferValues`: the slots will be
/// promoted to registers, so the values get the plain names.
static void nameDeclaredValues(llvm::Module &module, bool preferValues) {
  for (llvm::Function &function : module)
    for (llvm::Instruction &inst : llvm::instructions(function))
      for (llvm::DbgVariableRecord &record :
           llvm::filterDbgVars(inst.getDbgRecordRange())) {
        auto *slot = llvm::dyn_cast_or_null<llvm::AllocaInst>(
            record.isDbgDeclare() ? record.getAddress() : nullptr);
        if (!slot || slot->hasName())
          continue;
        llvm::StringRef name = record.getVariable()->getName();
        // A parameter or a global's address, read through the slot.
        if (record.getVariable()->getArg() ||
            record.getExpression()->getNumElements()) {
          slot->setName(name + ".addr");
          for (llvm::User *user : slot->users())
            if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user))
              if (auto *argument =
                      llvm::dyn_cast<llvm::Argument>(store->getValueOperand()))
                argument->setName(name);
          continue;
        }
        if (!preferValues)
          slot->setName(name);
        // The values stored into a variable take its name, and keep it when
        // the slot is promoted to registers.
        for (llvm::User *user : slot->users())
          if (auto *store = llvm::dyn_cast<llvm::StoreInst>(user))
            if (auto *value =
                    llvm::dyn_cast<llvm::Instruction>(store->getValueOperand());
                value && store->getPointerOperand() == slot &&
                !value->hasName() && !value->getType()->isVoidTy())
              value->setName(name);
        if (preferValues)
          slot->setName(name + ".addr");
      }
}

llvm::Expected<std::unique_ptr<llvm::Module>>
Compiler::translate(mlir::ModuleOp module, llvm::LLVMContext &context,
                    llvm::StringRef fileName) {
  std::string diagnostics;
  mlir::ScopedDiagnosticHandler handler(&getContext(),
                                        [&](mlir::Diagnostic &diag) {
                                          if (diagnostics.empty())
                                            diagnostics = diag.str();
                                          return mlir::success();
                                        });
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, fileName);
  if (!llvmModule)
    return makeError("error: " + fileName +
                     ": translation to LLVM IR failed: " + diagnostics);
  // DWARF 5 marks where each function's prologue ends, where debuggers
  // stop on entry.
  if (options.debug) {
    llvmModule->addModuleFlag(llvm::Module::Max, "Dwarf Version", 5);
    nameDeclaredValues(*llvmModule, /*preferValues=*/false);
  } else if (options.valueNames) {
    // The variables' debug records carry their names to the IR; the debug
    // information itself was not asked for.
    nameDeclaredValues(*llvmModule, /*preferValues=*/true);
    llvm::StripDebugInfo(*llvmModule);
  }
  std::string verifierMessage;
  llvm::raw_string_ostream os(verifierMessage);
  if (llvm::verifyModule(*llvmModule, &os))
    return makeError("error: " + fileName +
                     ": generated LLVM IR is invalid: " + verifierMessage);
  return llvmModule;
}
