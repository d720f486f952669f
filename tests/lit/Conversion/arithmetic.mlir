// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Division by zero and INT_MIN / -1 never reach LLVM's sdiv: the divisor is
// replaced by 1 and the result by -1 (all ones) when it was zero.
// CHECK-LABEL: llvm.func internal @sdiv
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK-DAG: %[[ONES:.*]] = llvm.mlir.constant(-1 : i32)
// CHECK: %[[ISZERO:.*]] = llvm.icmp "eq" %[[B:.*]], %[[ZERO]]
// CHECK: %[[MIN:.*]] = llvm.mlir.constant(-2147483648 : i32)
// CHECK: llvm.icmp "eq" %[[A:.*]], %[[MIN]]
// CHECK: llvm.icmp "eq" %[[B]], %[[ONES]]
// CHECK: %[[UNSAFE:.*]] = llvm.or %[[ISZERO]]
// CHECK: %[[DIVISOR:.*]] = llvm.select %[[UNSAFE]], %[[ONE]], %[[B]]
// CHECK: %[[Q:.*]] = llvm.sdiv %[[A]], %[[DIVISOR]]
// CHECK: llvm.select %[[ISZERO]], %[[ONES]], %[[Q]]
spirv.module Logical GLSL450 {
  spirv.func @sdiv(%a: i32, %b: i32) -> i32 "None" {
    %0 = spirv.SDiv %a, %b : i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// Shift amounts are taken modulo the bit width (after widening to it).
// CHECK-LABEL: llvm.func internal @shl
// CHECK: %[[WIDE:.*]] = llvm.zext %{{.*}} : i16 to i32
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(31 : i32)
// CHECK: %[[AMOUNT:.*]] = llvm.and %[[WIDE]], %[[MASK]]
// CHECK: llvm.shl %{{.*}}, %[[AMOUNT]] : i32
spirv.module Logical GLSL450 {
  spirv.func @shl(%a: i32, %b: i16) -> i32 "None" {
    %0 = spirv.ShiftLeftLogical %a, %b : i32, i16
    spirv.ReturnValue %0 : i32
  }
}

// -----

// Float to int conversions saturate.
// CHECK-LABEL: llvm.func internal @ftos
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat"(%{{.*}}) : (f32) -> i32
spirv.module Logical GLSL450 {
  spirv.func @ftos(%a: f32) -> i32 "None" {
    %0 = spirv.ConvertFToS %a : f32 to i32
    spirv.ReturnValue %0 : i32
  }
}
