//===- PassRegistry.h - The transforms by name ------------------*- C++ -*-===//
//
// Every LLVM IR transform of the bridge, by the name a textual pipeline
// (`spvb-llvm-opt -passes=...`) gives it:
//
//   spvb-convergent-operations         ConvergentOperationsPass
//   spvb-workgroup-loops[<lanes>]      WorkgroupLoopsPass (lanes: leave
//                                      derivative-only fragment shaders to
//                                      the invocation vectorizer)
//   spvb-invocation-vectorizer[<lanes=N>]
//                                      InvocationVectorizerPass (N: the
//                                      lane count, else the host's)
//   spvb-subgroup-sites                SubgroupSitesPass
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_PASSREGISTRY_H
#define SPVBRIDGE_TRANSFORMS_PASSREGISTRY_H

namespace llvm {
class PassBuilder;
class TargetMachine;
} // namespace llvm

namespace spvb {

/// Lets \p builder parse the names above. The invocation vectorizer asks
/// \p machine for the host's vector width.
void registerTransformPasses(llvm::PassBuilder &builder,
                             llvm::TargetMachine &machine);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_PASSREGISTRY_H
