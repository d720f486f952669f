// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s -DABI=%spvb_abi

// Every function takes the dispatch and invocation blocks as two leading
// !llvm.ptr parameters; calls pass the caller's along. Functions other than
// entry points are internal. FunctionControl Inline/DontInline become LLVM's
// inlining attributes.
// CHECK-LABEL: llvm.func internal @callee
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[A:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: f32) -> i32
// CHECK-SAME: attributes {always_inline}
// CHECK: llvm.return %[[A]] : i32
// CHECK-LABEL: llvm.func internal @not_inlined
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK-SAME: attributes {no_inline}
// CHECK-LABEL: llvm.func internal @caller
// CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %[[I:[a-z0-9]+]]: !llvm.ptr, %[[X:[a-z0-9]+]]: i32) -> i32
// CHECK: %[[F:.*]] = llvm.mlir.constant(2.000000e+00 : f32) : f32
// CHECK: %[[R:.*]] = llvm.call @callee(%[[D]], %[[I]], %[[X]], %[[F]]) : (!llvm.ptr, !llvm.ptr, i32, f32) -> i32
// CHECK: llvm.call @not_inlined(%[[D]], %[[I]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.return %[[R]] : i32
spirv.module Logical GLSL450 {
  spirv.func @callee(%a: i32, %b: f32) -> i32 "Inline" {
    spirv.ReturnValue %a : i32
  }
  spirv.func @not_inlined() "DontInline" {
    spirv.Return
  }
  spirv.func @caller(%x: i32) -> i32 "None" {
    %f = spirv.Constant 2.0 : f32
    %0 = spirv.FunctionCall @callee(%x, %f) : (i32, f32) -> i32
    spirv.FunctionCall @not_inlined() : () -> ()
    spirv.ReturnValue %0 : i32
  }
}

// -----

// A pointer parameter is an !llvm.ptr after the two ABI pointers.
// CHECK-LABEL: llvm.func internal @pointer_parameter
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[P:[a-z0-9]+]]: !llvm.ptr) -> f32
// CHECK: llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> f32
spirv.module Logical GLSL450 {
  spirv.func @pointer_parameter(%p: !spirv.ptr<f32, Function>) -> f32 "None" {
    %0 = spirv.Load "Function" %p : f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// A GLCompute entry point becomes the external spvb_NAME_invocation; the
// functions it calls stay internal, the ones it does not reach are dropped.
// spvb_NAME_workgroup runs the LocalSize (8, 4, 2) invocations: z outermost,
// x innermost; for each it stores the local id (invocation + 12 + 4 * d),
// the global id workgroup_id[d] * size[d] + local[d] (+ 24 + 4 * d), the
// local index (z * 4 + y) * 8 + x (+ 36), the subgroup id and local id
// index / size and index % size (+ 64, + 68) with a subgroup size of 0 taken
// as 1, then calls the invocation entry.
// CHECK-NOT: @unreached
// CHECK-LABEL: llvm.func internal @helper
// CHECK-NOT: @unreached
// CHECK-LABEL: llvm.func @spvb_main_invocation(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) {
// CHECK: llvm.call @helper
// CHECK-LABEL: llvm.func @spvb_main_workgroup(
// CHECK-SAME: %[[D:[a-z0-9]+]]: !llvm.ptr, %[[ARG:[a-z0-9]+]]: !llvm.ptr) {
// The invocation block is copied (72 bytes) so LLVM can keep it in registers.
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(72 : i64) : i64
// CHECK: %[[INV:.*]] = llvm.alloca %[[SIZE]] x i8 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK: "llvm.intr.memcpy"(%[[INV]], %[[ARG]], %{{.*}}) <{isVolatile = false}>
// CHECK: %[[GX:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[GYA:.*]] = llvm.getelementptr %[[INV]][4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[GY:.*]] = llvm.load %[[GYA]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[GZA:.*]] = llvm.getelementptr %[[INV]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[GZ:.*]] = llvm.load %[[GZA]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[SGA:.*]] = llvm.getelementptr %[[D]][24] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: %[[SGRAW:.*]] = llvm.load %[[SGA]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: %[[SG:.*]] = llvm.intr.umax(%[[SGRAW]], %{{.*}}) : (i32, i32) -> i32
// CHECK: %[[NZ:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: ^bb1(%[[Z:.*]]: i32):
// CHECK: llvm.icmp "slt" %[[Z]], %[[NZ]] : i32
// CHECK: %[[NY:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: ^bb3(%[[Y:.*]]: i32):
// CHECK: llvm.icmp "slt" %[[Y]], %[[NY]] : i32
// CHECK: %[[NX:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: ^bb5(%[[X:.*]]: i32):
// CHECK: llvm.icmp "slt" %[[X]], %[[NX]] : i32
// CHECK: %[[LXA:.*]] = llvm.getelementptr %[[INV]][12] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[X]], %[[LXA]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[SX:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[MX:.*]] = llvm.mul %[[GX]], %[[SX]] : i32
// CHECK: %[[IDX:.*]] = llvm.add %[[MX]], %[[X]] : i32
// CHECK: %[[GXA:.*]] = llvm.getelementptr %[[INV]][24] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[IDX]], %[[GXA]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[LYA:.*]] = llvm.getelementptr %[[INV]][16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[Y]], %[[LYA]]
// CHECK: %[[SY:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[MY:.*]] = llvm.mul %[[GY]], %[[SY]] : i32
// CHECK: %[[IDY:.*]] = llvm.add %[[MY]], %[[Y]] : i32
// CHECK: %[[GYA2:.*]] = llvm.getelementptr %[[INV]][28] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[IDY]], %[[GYA2]]
// CHECK: %[[LZA:.*]] = llvm.getelementptr %[[INV]][20] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[Z]], %[[LZA]]
// CHECK: %[[SZ:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[MZ:.*]] = llvm.mul %[[GZ]], %[[SZ]] : i32
// CHECK: %[[IDZ:.*]] = llvm.add %[[MZ]], %[[Z]] : i32
// CHECK: %[[GZA2:.*]] = llvm.getelementptr %[[INV]][32] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[IDZ]], %[[GZA2]]
// CHECK: %[[W:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK: %[[H:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[ZH:.*]] = llvm.mul %[[Z]], %[[H]] : i32
// CHECK: %[[ZHY:.*]] = llvm.add %[[ZH]], %[[Y]] : i32
// CHECK: %[[ZHYW:.*]] = llvm.mul %[[ZHY]], %[[W]] : i32
// CHECK: %[[INDEX:.*]] = llvm.add %[[ZHYW]], %[[X]] : i32
// CHECK: %[[LIA:.*]] = llvm.getelementptr %[[INV]][36] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[INDEX]], %[[LIA]]
// CHECK: %[[SGID:.*]] = llvm.udiv %[[INDEX]], %[[SG]] : i32
// CHECK: %[[SGLID:.*]] = llvm.urem %[[INDEX]], %[[SG]] : i32
// CHECK: %[[SGIDA:.*]] = llvm.getelementptr %[[INV]][64] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[SGID]], %[[SGIDA]]
// CHECK: %[[SGLIDA:.*]] = llvm.getelementptr %[[INV]][68] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK: llvm.store %[[SGLID]], %[[SGLIDA]]
// CHECK: llvm.call @spvb_main_invocation(%[[D]], %[[INV]]) : (!llvm.ptr, !llvm.ptr) -> ()
// The kernel info: the ABI version, the workgroup size, no shared or private
// memory, no bindings, no barriers.
// CHECK: llvm.mlir.global external constant @spvb_main_info(dense<{{\[}}[[ABI]], 8, 4, 2, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 1, 0, 0]> : tensor<17xi32>) {addr_space = 0 : i32} : !llvm.array<17 x i32>
spirv.module Logical GLSL450 {
  spirv.func @unreached() "None" {
    spirv.Return
  }
  spirv.func @helper() "None" {
    spirv.Return
  }
  spirv.func @main() "None" {
    spirv.FunctionCall @helper() : () -> ()
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 8, 4, 2
}

// -----

// Symbols follow the entry point's name. Without a LocalSize the workgroup
// is 1 x 1 x 1. A control barrier sets uses_barriers and leaves the
// workgroup entry to the LLVM-level WorkgroupLoops pass (entry kind 0, no
// scratch yet); the binding count is the number of binding-table slots (a
// descriptor array of 3 takes 3).
// Other stages' entry points are not exported, and what only they reach is
// dropped.
// CHECK-NOT: @frag
// CHECK-LABEL: llvm.func @spvb_my_kernel_invocation(
// CHECK: llvm.call @spvb_rt_control_barrier
// CHECK-NOT: @spvb_my_kernel_workgroup
// CHECK: llvm.mlir.global external constant @spvb_my_kernel_info(dense<{{\[}}[[ABI]], 1, 1, 1, 0, 0, 4, 1, 0, 0, 5, 0, 0, 0, 1, 0, 0]> : tensor<17xi32>)
// CHECK-NOT: @frag
!Buf = !spirv.struct<(f32 [0]), Block>
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @one bind(0, 0) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.GlobalVariable @three bind(0, 1) : !spirv.ptr<!spirv.array<3 x !Buf>, StorageBuffer>
  spirv.func @my_kernel() "None" {
    spirv.ControlBarrier <Workgroup>, <Workgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
  spirv.func @frag() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @my_kernel
  spirv.EntryPoint "Fragment" @frag
  spirv.ExecutionMode @frag "OriginUpperLeft"
}

// -----

// Every GLCompute entry point of the module is exported (when no entry
// point is selected), each with its own workgroup size.
// CHECK-LABEL: llvm.func @spvb_first_invocation(
// CHECK-LABEL: llvm.func @spvb_second_invocation(
// CHECK-DAG: llvm.func @spvb_first_workgroup(
// CHECK-DAG: llvm.func @spvb_second_workgroup(
// CHECK-DAG: llvm.mlir.global external constant @spvb_first_info(dense<{{\[}}[[ABI]], 16, 1, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 1, 0, 0]> : tensor<17xi32>)
// CHECK-DAG: llvm.mlir.global external constant @spvb_second_info(dense<{{\[}}[[ABI]], 2, 3, 4, 0, 0, 0, 0, 1, 0, 5, 0, 0, 0, 1, 0, 0]> : tensor<17xi32>)
spirv.module Logical GLSL450 {
  spirv.func @first() "None" {
    spirv.Return
  }
  spirv.func @second() "None" {
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @first
  spirv.EntryPoint "GLCompute" @second
  spirv.ExecutionMode @first "LocalSize", 16, 1, 1
  spirv.ExecutionMode @second "LocalSize", 2, 3, 4
}
