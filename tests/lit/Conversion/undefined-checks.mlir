// RUN: spvb-opt --spvb-undefined-checks %s | FileCheck %s --check-prefix=REPORT
// RUN: spvb-opt '--spvb-undefined-checks=mode=perturb' %s | FileCheck %s --check-prefix=PERTURB

// OpSDiv is undefined for a zero divisor and for INT_MIN / -1 (SPIR-V
// "OpSDiv"). Report: one spvb.check_defined per rule, before the division,
// naming the operation, its operands and the rule. Perturb: where either
// holds, the result becomes its bitwise complement.
// REPORT-LABEL: spirv.func @sdiv
// REPORT: %[[ZERO:.*]] = spirv.IEqual %arg1, %{{.*}} : i32
// REPORT: %[[MINUS1:.*]] = spirv.IEqual %arg1, %{{.*}} : i32
// REPORT: %[[MIN:.*]] = spirv.IEqual %arg0, %{{.*}} : i32
// REPORT: %[[OVERFLOW:.*]] = spirv.LogicalAnd %[[MIN]], %[[MINUS1]] : i1
// REPORT: spvb.check_defined %[[ZERO]], "{{.*}}:[[@LINE+12]]:8: OpSDiv of %d by %d is undefined (division by zero)"(%arg0, %arg1 : i32, i32)
// REPORT: spvb.check_defined %[[OVERFLOW]], "{{.*}}:[[@LINE+11]]:8: OpSDiv of %d by %d is undefined (the minimum value by -1 overflows)"(%arg0, %arg1 : i32, i32)
// REPORT: spirv.SDiv %arg0, %arg1 : i32

// PERTURB-LABEL: spirv.func @sdiv
// PERTURB-NOT: spvb.check_defined
// PERTURB: %[[Q:.*]] = spirv.SDiv %arg0, %arg1 : i32
// PERTURB: %[[EITHER:.*]] = spirv.LogicalOr
// PERTURB: %[[FLIPPED:.*]] = spirv.Not %[[Q]] : i32
// PERTURB: %[[R:.*]] = spirv.Select %[[EITHER]], %[[FLIPPED]], %[[Q]] : i1, i32
// PERTURB: spirv.ReturnValue %[[R]] : i32
spirv.func @sdiv(%a: i32, %b: i32) -> i32 "None" {
  %0 = spirv.SDiv %a, %b : i32
  spirv.ReturnValue %0 : i32
}

// A float addition is defined for all operands: left alone.
// REPORT-LABEL: spirv.func @fadd
// REPORT-NEXT: spirv.FAdd
// REPORT-NEXT: spirv.ReturnValue
spirv.func @fadd(%a: f32, %b: f32) -> f32 "None" {
  %0 = spirv.FAdd %a, %b : f32
  spirv.ReturnValue %0 : f32
}
