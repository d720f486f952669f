// Option values the passes do not know are errors naming the option.
// RUN: not spvb-opt '--spvb-undefined-checks=mode=sometimes' %s 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: error: spvb-undefined-checks: unknown mode 'sometimes' (expected report or perturb)
// RUN: not spvb-opt '--spvb-lower-to-llvm=stage=mesh' %s 2>&1 | FileCheck %s --check-prefix=STAGE
// STAGE: error: spvb-lower-to-llvm: unknown stage 'mesh' (expected compute, vertex, tess-control, tess-evaluation, geometry or fragment)
// RUN: not spvb-opt '--spvb-lower-to-llvm=undefined-checks=all' %s 2>&1 | FileCheck %s --check-prefix=CHECKS
// CHECKS: error: spvb-lower-to-llvm: unknown undefined-checks 'all' (expected none, report or perturb)
spirv.func @f() "None" {
  spirv.Return
}
