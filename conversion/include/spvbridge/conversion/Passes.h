//===- Passes.h - The conversion's passes by name ---------------*- C++ -*-===//
//
// The steps of the lowering as MLIR passes, so that spvb-opt runs each alone
// (lit tests of one step, as upstream's test/Conversion has):
//
//   --spvb-guard-helper-invocations{entry=NAME}
//                               helper invocations write no shared memory
//                               (HelperInvocations.h); spirv dialect
//   --spvb-implicit-lod         implicit-LOD samples get quad gradients
//                               (ImplicitLod.h); spirv dialect
//   --spvb-undefined-checks{mode=report|perturb}
//                               results the specifications leave undefined
//                               are reported or perturbed
//                               (UndefinedChecks.h); spirv dialect
//   --spvb-nan-checks           NaNs and infinities from finite operands are
//                               reported (NanChecks.h); spirv dialect
//   --spvb-race-checks          accesses to memory other invocations see
//                               are recorded for the race report
//                               (RaceChecks.h); spirv dialect
//   --spvb-lower-to-llvm{...}   the whole lowering to the llvm dialect with
//                               the entry wrappers; its options are
//                               LoweringOptions' (robust-access,
//                               bounds-reports, race-reports, entry, stage,
//                               undefined-checks, nan-checks). Bounds checks
//                               are no pass of their own: they change how
//                               each access is lowered (RobustAccess.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CONVERSION_PASSES_H
#define SPVBRIDGE_CONVERSION_PASSES_H

namespace spvb {

/// Registers the passes above in MLIR's pass registry.
void registerConversionPasses();

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_PASSES_H
