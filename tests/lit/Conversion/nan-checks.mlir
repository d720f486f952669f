// RUN: spvb-opt --spvb-nan-checks %s | FileCheck %s

// A float operation whose result is a NaN or an infinity while its float
// operands are finite fails the dispatch (spv-run --check-nan): after the
// operation, result-is-not-finite and each-operand-is-finite, then one
// check naming the operation and printing result and operands.
// CHECK-LABEL: spirv.func @fdiv
// CHECK: %[[Q:.*]] = spirv.FDiv %arg0, %arg1 : f32
// CHECK: %[[QINF:.*]] = spirv.IsInf %[[Q]] : f32
// CHECK: %[[QNAN:.*]] = spirv.IsNan %[[Q]] : f32
// CHECK: %[[BAD:.*]] = spirv.LogicalOr %[[QNAN]], %[[QINF]] : i1
// CHECK: %[[AINF:.*]] = spirv.IsInf %arg0 : f32
// CHECK: %[[ANAN:.*]] = spirv.IsNan %arg0 : f32
// CHECK: %[[ABAD:.*]] = spirv.LogicalOr %[[ANAN]], %[[AINF]] : i1
// CHECK: %[[AOK:.*]] = spirv.LogicalNot %[[ABAD]] : i1
// CHECK: %[[C1:.*]] = spirv.LogicalAnd %[[BAD]], %[[AOK]] : i1
// CHECK: %[[BOK:.*]] = spirv.LogicalNot
// CHECK: %[[C2:.*]] = spirv.LogicalAnd %[[C1]], %[[BOK]] : i1
// CHECK: spvb.check_defined %[[C2]], "{{.*}}:[[@LINE+3]]:8: OpFDiv made %g from finite operands %g, %g"(%[[Q]], %arg0, %arg1 : f32, f32, f32)
// CHECK: spirv.ReturnValue %[[Q]] : f32
spirv.func @fdiv(%a: f32, %b: f32) -> f32 "None" {
  %0 = spirv.FDiv %a, %b : f32
  spirv.ReturnValue %0 : f32
}

// Integer operations make no NaNs: no check.
// CHECK-LABEL: spirv.func @idiv
// CHECK-NOT: spvb.check_defined
// CHECK: spirv.ReturnValue
spirv.func @idiv(%a: i32, %b: i32) -> i32 "None" {
  %0 = spirv.SDiv %a, %b : i32
  spirv.ReturnValue %0 : i32
}
