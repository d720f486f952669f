//===- Codegen.h - Optimize and emit LLVM modules for the host --*- C++ -*-===//
#ifndef SPVBRIDGE_BRIDGE_CODEGEN_H
#define SPVBRIDGE_BRIDGE_CODEGEN_H

#include "spvbridge/bridge/Compiler.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace spvb {

/// Registers the host target with LLVM, once per process; safe to call from
/// any thread.
void initializeHostTarget();

/// A target machine for the host CPU and its features, calling the vector
/// math library.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createHostTargetMachine(OptLevel level);

/// Sets the module's triple and data layout from the target machine and runs
/// LLVM's default pipeline for the options' level (new pass manager). With
/// BarrierMode::Loops, kernels with barriers get their workgroup entry here;
/// with shouldVectorize(), kernels without run their invocations in SIMD
/// lanes. Given `deferred`, a kernel with a workgroup entry leaves its
/// invocation entry there (SplitInvocationEntryPass), simplified but not yet
/// through the optimization pipeline: optimizeDeferredModule finishes it.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    const CompileOptions &options,
                    std::unique_ptr<llvm::Module> *deferred = nullptr);

/// Whether `module` is a deferred invocation entry optimizeModule split off.
bool isDeferredModule(const llvm::Module &module);
/// Runs the rest of optimizeModule's pipeline on a deferred module, at the
/// level recorded in it.
llvm::Error optimizeDeferredModule(llvm::Module &module);

/// Runs LLVM's own per-module pipeline at `level` (none of the bridge's
/// passes) on a module of plain LLVM IR; optional passes run only while
/// `keepGoing` says so.
void optimizeWithLLVMPipeline(llvm::Module &module,
                              llvm::TargetMachine &machine, OptLevel level,
                              llvm::function_ref<bool()> keepGoing);

enum class ObjectKind { Assembly, Object };
/// Machine code for the module.
llvm::Error emitMachineCode(llvm::Module &module, llvm::TargetMachine &machine,
                            ObjectKind kind, llvm::raw_pwrite_stream &os);

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_CODEGEN_H
