// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// FindILsb, FindSMsb, FindUMsb: -1 when no bit qualifies, so ctlz and cttz
// are called with is_zero_poison = false and return the bit width for 0.

// CHECK-LABEL: llvm.func internal @find_ilsb
// CHECK-SAME: %[[X:[a-z0-9]+]]: i32
// CHECK: %[[T:.*]] = "llvm.intr.cttz"(%[[X]]) <{is_zero_poison = false}> : (i32) -> i32
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[ISZERO:.*]] = llvm.icmp "eq" %[[X]], %[[ZERO]]
// CHECK: %[[MONE:.*]] = llvm.mlir.constant(-1 : i32)
// CHECK: llvm.select %[[ISZERO]], %[[MONE]], %[[T]]
spirv.module Logical GLSL450 {
  spirv.func @find_ilsb(%x: i32) -> i32 "None" {
    %0 = spirv.GL.FindILsb %x : i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// 31 - ctlz(x) is -1 for x = 0.
// CHECK-LABEL: llvm.func internal @find_umsb
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<2xi32>
// CHECK: %[[L:.*]] = "llvm.intr.ctlz"(%[[X]]) <{is_zero_poison = false}> : (vector<2xi32>) -> vector<2xi32>
// CHECK: %[[TOP:.*]] = llvm.mlir.constant(dense<31> : vector<2xi32>)
// CHECK: llvm.sub %[[TOP]], %[[L]] : vector<2xi32>
spirv.module Logical GLSL450 {
  spirv.func @find_umsb(%x: vector<2xi32>) -> vector<2xi32> "None" {
    %0 = spirv.GL.FindUMsb %x : vector<2xi32>
    spirv.ReturnValue %0 : vector<2xi32>
  }
}

// -----

// FindUMsb of x ^ (x >> 31): the highest bit unlike the sign bit; 0 and -1
// both give -1.
// CHECK-LABEL: llvm.func internal @find_smsb
// CHECK-SAME: %[[X:[a-z0-9]+]]: i32
// CHECK: %[[TOP:.*]] = llvm.mlir.constant(31 : i32)
// CHECK: %[[SIGN:.*]] = llvm.ashr %[[X]], %[[TOP]]
// CHECK: %[[M:.*]] = llvm.xor %[[X]], %[[SIGN]]
// CHECK: %[[L:.*]] = "llvm.intr.ctlz"(%[[M]]) <{is_zero_poison = false}>
// CHECK: llvm.sub %{{.*}}, %[[L]] : i32
spirv.module Logical GLSL450 {
  spirv.func @find_smsb(%x: i32) -> i32 "None" {
    %0 = spirv.GL.FindSMsb %x : i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// Other widths work on the operand's width; a result of another width is
// sign-extended or truncated (-1 stays -1).
// CHECK-LABEL: llvm.func internal @widths
// CHECK: "llvm.intr.cttz"(%{{.*}}) <{is_zero_poison = false}> : (i64) -> i64
// CHECK: %[[R:.*]] = llvm.select %{{.*}} : i1, i64
// CHECK: llvm.trunc %[[R]] : i64 to i32
// CHECK: %[[L:.*]] = "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i16) -> i16
// CHECK: %[[TOP:.*]] = llvm.mlir.constant(15 : i16)
// CHECK: %[[S:.*]] = llvm.sub %[[TOP]], %[[L]] : i16
// CHECK: llvm.sext %[[S]] : i16 to i32
module {
  spirv.func @widths(%a: i64, %b: i16) "None" {
    %0 = spvb.glsl 73 (%a) : (i64) -> i32
    %1 = spvb.glsl 75 (%b) : (i16) -> i32
    spirv.Return
  }
}
