//===- CompileWarmup.cpp - A cold process's compile prepared early --------===//
#include "CompileWarmup.h"

#include "spvbridge/bridge/Codegen.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace spvb;

/// Builds the subtarget a kernel's functions use (they carry no target
/// attributes), with its lowering and legalizer tables.
static void buildSubtarget(llvm::TargetMachine &machine) {
  llvm::LLVMContext context;
  llvm::Module module("warmup", context);
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::GlobalValue::ExternalLinkage, "warmup", module);
  machine.getSubtargetImpl(*function);
}

CompileWarmup::CompileWarmup(OptLevel level) : level(level) {
  // Registering the target writes LLVM's registry, which the thread reads.
  initializeHostTarget();
  // The context first: the compile needs it after validation, the target
  // machine only after the lowering.
  pending = std::async(std::launch::async, [this, level] {
    Prepared prepared;
    prepared.context = createCompilerContext();
    if (cancelled)
      return prepared;
    if (auto machine = createHostTargetMachine(level)) {
      buildSubtarget(**machine);
      prepared.machine = std::move(*machine);
    } else {
      // The compile makes its own and reports the error.
      llvm::consumeError(machine.takeError());
    }
    return prepared;
  });
}

CompileWarmup::~CompileWarmup() {
  cancelled = true;
  if (pending.valid())
    pending.wait();
}

CompileWarmup::Prepared &CompileWarmup::wait() {
  if (!prepared)
    prepared = pending.get();
  return *prepared;
}

std::unique_ptr<mlir::MLIRContext> CompileWarmup::takeContext() {
  return std::move(wait().context);
}

std::unique_ptr<llvm::TargetMachine>
CompileWarmup::takeTargetMachine(OptLevel wanted) {
  if (wanted != level)
    return nullptr;
  return std::move(wait().machine);
}
