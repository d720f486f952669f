//===- PassRegistry.cpp - The transforms by name --------------------------===//
#include "spvbridge/transforms/PassRegistry.h"

#include "spvbridge/transforms/BarrierLoopUnroll.h"
#include "spvbridge/transforms/ConvergentOperations.h"
#include "spvbridge/transforms/GatherScatterLoops.h"
#include "spvbridge/transforms/InvocationBlockScopes.h"
#include "spvbridge/transforms/InvocationVectorizer.h"
#include "spvbridge/transforms/SingleThreadAtomics.h"
#include "spvbridge/transforms/SkipIdentityAtomics.h"
#include "spvbridge/transforms/SubgroupSites.h"
#include "spvbridge/transforms/WorkgroupLoops.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace spvb;

/// `lanes=N` with 1 <= N <= 64: the lanes of the vectorizer and the
/// workgroup loops.
static bool parseLanes(StringRef parameter, unsigned &lanes) {
  return parameter.consume_front("lanes=") &&
         !parameter.getAsInteger(10, lanes) && lanes >= 1 && lanes <= 64;
}

void spvb::registerTransformPasses(PassBuilder &builder,
                                   TargetMachine &machine) {
  builder.registerPipelineParsingCallback(
      [&machine](StringRef name, ModulePassManager &passes,
                 ArrayRef<PassBuilder::PipelineElement>) {
        if (name == "spvb-barrier-loop-unroll") {
          passes.addPass(
              createModuleToFunctionPassAdaptor(BarrierLoopUnrollPass()));
          return true;
        }
        if (name == "spvb-convergent-operations") {
          passes.addPass(ConvergentOperationsPass());
          return true;
        }
        if (name == "spvb-invocation-block-scopes") {
          passes.addPass(InvocationBlockScopesPass());
          return true;
        }
        if (name == "spvb-gather-scatter-loops") {
          passes.addPass(
              createModuleToFunctionPassAdaptor(GatherScatterLoopsPass()));
          return true;
        }
        if (name == "spvb-single-thread-atomics") {
          passes.addPass(
              createModuleToFunctionPassAdaptor(SingleThreadAtomicsPass()));
          return true;
        }
        if (name == "spvb-skip-identity-atomics") {
          passes.addPass(
              createModuleToFunctionPassAdaptor(SkipIdentityAtomicsPass()));
          return true;
        }
        if (name == "spvb-subgroup-sites") {
          passes.addPass(SubgroupSitesPass());
          return true;
        }
        if (name == "spvb-workgroup-loops") {
          passes.addPass(WorkgroupLoopsPass());
          return true;
        }
        if (name == "spvb-workgroup-loops<lanes>") {
          passes.addPass(WorkgroupLoopsPass(&machine));
          return true;
        }
        if (name == "spvb-invocation-vectorizer") {
          passes.addPass(InvocationVectorizerPass(machine));
          return true;
        }
        unsigned lanes = 0;
        if (name.consume_front("spvb-invocation-vectorizer<") &&
            name.consume_back(">") && parseLanes(name, lanes)) {
          passes.addPass(InvocationVectorizerPass(machine, lanes));
          return true;
        }
        // spvb-workgroup-loops<lanes=N> or <lanes=N;subgroup-size=S>.
        if (name.consume_front("spvb-workgroup-loops<") &&
            name.consume_back(">")) {
          auto [lanesParameter, subgroupParameter] = name.split(';');
          unsigned subgroupSize = 0;
          if (!parseLanes(lanesParameter, lanes) ||
              (!subgroupParameter.empty() &&
               (!subgroupParameter.consume_front("subgroup-size=") ||
                subgroupParameter.getAsInteger(10, subgroupSize) ||
                !isPowerOf2_32(subgroupSize) || subgroupSize > 64)))
            return false;
          passes.addPass(WorkgroupLoopsPass(nullptr, lanes, subgroupSize));
          return true;
        }
        return false;
      });
}
