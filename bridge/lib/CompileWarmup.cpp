//===- CompileWarmup.cpp - A process's first compile, prepared ------------===//
#include "spvbridge/bridge/CompileWarmup.h"

#include "spvbridge/bridge/Codegen.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

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

/// What a kernel's workgroup entry looks like to LLVM, in small: a loop
/// over 16-lane chunks with consecutive loads, a gather, fused arithmetic,
/// a compare and a masked store.
static constexpr llvm::StringLiteral kWarmupKernel = R"(
define void @warmup(ptr noalias %x, ptr noalias %y, ptr %table, float %a,
                    i32 %n) {
entry:
  %any = icmp sgt i32 %n, 0
  br i1 %any, label %chunk, label %done
chunk:
  %i = phi i32 [ 0, %entry ], [ %next, %chunk ]
  %offset = sext i32 %i to i64
  %xp = getelementptr inbounds float, ptr %x, i64 %offset
  %yp = getelementptr inbounds float, ptr %y, i64 %offset
  %xs = load <16 x float>, ptr %xp, align 4
  %ys = load <16 x float>, ptr %yp, align 4
  %lanes = add <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6,
                           i32 7, i32 8, i32 9, i32 10, i32 11, i32 12,
                           i32 13, i32 14, i32 15>, splat (i32 7)
  %indices = and <16 x i32> %lanes, splat (i32 255)
  %slots = getelementptr float, ptr %table, <16 x i32> %indices
  %gathered = call <16 x float> @llvm.masked.gather.v16f32.v16p0(
      <16 x ptr> %slots, i32 4, <16 x i1> splat (i1 true), <16 x float> poison)
  %as = insertelement <16 x float> poison, float %a, i32 0
  %splat = shufflevector <16 x float> %as, <16 x float> poison,
                         <16 x i32> zeroinitializer
  %fma = call <16 x float> @llvm.fma.v16f32(<16 x float> %splat,
                                            <16 x float> %xs, <16 x float> %ys)
  %sum = fadd <16 x float> %fma, %gathered
  %positive = fcmp ogt <16 x float> %sum, zeroinitializer
  %kept = select <16 x i1> %positive, <16 x float> %sum, <16 x float> %ys
  %left = sub i32 %n, %i
  %leftv = insertelement <16 x i32> poison, i32 %left, i32 0
  %lefts = shufflevector <16 x i32> %leftv, <16 x i32> poison,
                         <16 x i32> zeroinitializer
  %inside = icmp ult <16 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5,
                                 i32 6, i32 7, i32 8, i32 9, i32 10, i32 11,
                                 i32 12, i32 13, i32 14, i32 15>, %lefts
  call void @llvm.masked.store.v16f32.p0(<16 x float> %kept, ptr %yp, i32 4,
                                         <16 x i1> %inside)
  %next = add nsw i32 %i, 16
  %more = icmp slt i32 %next, %n
  br i1 %more, label %chunk, label %done
done:
  ret void
}
)";

llvm::Error CompileWarmup::compileLoop(OptLevel level,
                                       const std::atomic<bool> &cancelled) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module =
      llvm::parseAssemblyString(kWarmupKernel, diagnostic, context);
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "error: the compile warm-up's loop, line " +
                                       llvm::Twine(diagnostic.getLineNo()) +
                                       ": " + diagnostic.getMessage());
  auto machine = createHostTargetMachine(level);
  if (!machine)
    return machine.takeError();
  optimizeWithLLVMPipeline(*module, **machine, level,
                           [&cancelled] { return !cancelled; });
  if (cancelled)
    return llvm::Error::success();
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream os(object);
  return emitMachineCode(*module, **machine, ObjectKind::Object, os);
}

/// Whether to warm up the optimizer and code generator: not for debug
/// builds (which use neither), not when asked not to, and not while LLVM
/// times passes (its timers are shared with the compile).
static bool shouldWarmUpCodeGeneration(OptLevel level) {
  const char *setting = std::getenv("SPVBRIDGE_COMPILE_WARMUP");
  return level != OptLevel::O0 && !llvm::TimePassesIsEnabled &&
         !(setting && llvm::StringRef(setting) == "off");
}

CompileWarmup::CompileWarmup(OptLevel level) : level(level) {
  // Registering the target writes LLVM's registry, which the thread reads.
  initializeHostTarget();
  std::promise<std::unique_ptr<mlir::MLIRContext>> contextMade;
  std::promise<std::unique_ptr<llvm::TargetMachine>> machineMade;
  bool warmCodeGeneration = shouldWarmUpCodeGeneration(level);
  context = contextMade.get_future();
  machine = machineMade.get_future();
  // The context first: the compile needs it right after validation, the
  // target machine only at the optimizer.
  thread = std::thread([this, level, warmCodeGeneration,
                        contextMade = std::move(contextMade),
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
    // Only a warm-up: a compile reports its own errors.
    if (!cancelled && warmCodeGeneration)
      llvm::consumeError(compileLoop(level, cancelled));
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
