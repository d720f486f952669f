//===- CompileWarmup.cpp - A process's first compile, prepared ------------===//
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
  std::promise<std::unique_ptr<mlir::MLIRContext>> contextMade;
  std::promise<std::unique_ptr<llvm::TargetMachine>> machineMade;
  context = contextMade.get_future();
  machine = machineMade.get_future();
  // The context first: the compile needs it right after validation, the
  // target machine only at the optimizer.
  thread = std::thread([this, level, contextMade = std::move(contextMade),
                        machineMade = std::move(machineMade)]() mutable {
    contextMade.set_value(cancelled ? nullptr : createCompilerContext());
    std::unique_ptr<llvm::TargetMachine> made;
    if (!cancelled) {
      if (auto created = createHostTargetMachine(level)) {
        buildSubtarget(**created);
        made = std::move(*created);
      } else {
        // The compile makes its own and reports the error.
        llvm::consumeError(created.takeError());
      }
    }
    machineMade.set_value(std::move(made));
  });
}

CompileWarmup::~CompileWarmup() {
  cancelled = true;
  thread.join();
}

std::unique_ptr<mlir::MLIRContext> CompileWarmup::takeContext() {
  if (!context.valid() ||
      context.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return nullptr;
  return context.get();
}

std::unique_ptr<llvm::TargetMachine>
CompileWarmup::takeTargetMachine(OptLevel wanted) {
  if (wanted != level || !machine.valid())
    return nullptr;
  return machine.get();
}
