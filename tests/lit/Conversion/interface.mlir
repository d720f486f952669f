// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file --verify-diagnostics %s | FileCheck %s -DABI=%spvb_abi
// RUN: not spvb-opt --spvb-lower-to-llvm --split-input-file %s 2>&1 | FileCheck %s -DABI=%spvb_abi --check-prefix=ERR

// Every global becomes an address computed from the kernel ABI blocks of
// cpu_runtime/kernel_abi.h. Field offsets on a 64-bit host, by hand:
//   spvb_dispatch:   workgroup_count 0, workgroup_size 12, subgroup_size 24,
//                    binding_count 28, bindings 32, push_constants 40
//   spvb_invocation: workgroup_id 0, local_id 12, global_id 24,
//                    local_index 36, shared_memory 40, private_memory 48,
//                    runtime 56, subgroup_id 64, subgroup_local_id 68
//   spvb_binding:    base 0, size 8; 16 bytes per slot
// Every function takes (dispatch, invocation) as its first two parameters.

// The binding table is sorted by (set, binding), whatever the declaration
// order: (0,0) -> slot 0, (0,2) -> slot 1, (1,0) -> slot 2. A buffer's base
// is the `base` field of its slot: bindings + 16 * slot.
!Buf = !spirv.struct<(f32 [0], f32 [4]), Block>
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @c bind(1, 0) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.GlobalVariable @b bind(0, 2) : !spirv.ptr<!Buf, Uniform>
  spirv.GlobalVariable @a bind(0, 0) : !spirv.ptr<!Buf, StorageBuffer>

  // CHECK-LABEL: llvm.func internal @slot2
  // CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK: %[[B:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[BA:.*]] = llvm.getelementptr %[[D]][%[[B]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: %[[TABLE:.*]] = llvm.load %[[BA]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[SA:.*]] = llvm.getelementptr %[[TABLE]][%[[S]]]
  // CHECK: %[[BASE:.*]] = llvm.load %[[SA]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[F:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[FA:.*]] = llvm.getelementptr %[[BASE]][%[[F]]]
  // CHECK: llvm.load %[[FA]] {alignment = 4 : i64} : !llvm.ptr -> f32
  spirv.func @slot2() -> f32 "None" {
    %p = spirv.mlir.addressof @c : !spirv.ptr<!Buf, StorageBuffer>
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c1] : !spirv.ptr<!Buf, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // A uniform buffer is addressed the same way: slot 1.
  // CHECK-LABEL: llvm.func internal @slot1
  // CHECK: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[SA:.*]] = llvm.getelementptr %[[TABLE]][%[[S]]]
  // CHECK: %[[BASE:.*]] = llvm.load %[[SA]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // Uniform blocks are read-only for the dispatch: invariant loads.
  // CHECK: llvm.load %[[BASE]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  spirv.func @slot1() -> f32 "None" {
    %p = spirv.mlir.addressof @b : !spirv.ptr<!Buf, Uniform>
    %c0 = spirv.Constant 0 : i32
    %0 = spirv.AccessChain %p[%c0] : !spirv.ptr<!Buf, Uniform>, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // Slot 0 is the first entry itself.
  // CHECK-LABEL: llvm.func internal @slot0
  // CHECK: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK-NEXT: %[[BASE:.*]] = llvm.load %[[TABLE]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: llvm.store %{{.*}}, %[[BASE]] {alignment = 4 : i64} : f32, !llvm.ptr
  spirv.func @slot0(%v: f32) "None" {
    %p = spirv.mlir.addressof @a : !spirv.ptr<!Buf, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %0 = spirv.AccessChain %p[%c0] : !spirv.ptr<!Buf, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %0, %v : f32
    spirv.Return
  }
}

// -----

// A descriptor array of N buffers takes N consecutive slots: (0,0) is slot
// 0, the array at (0,1) slots 1-3, (0,2) slot 4 (bindings + 64). Element i
// of the array is the buffer of slot 1 + i.
!Buf = !spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @first bind(0, 0) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.GlobalVariable @array bind(0, 1) : !spirv.ptr<!spirv.array<3 x !Buf>, StorageBuffer>
  spirv.GlobalVariable @after bind(0, 2) : !spirv.ptr<!Buf, StorageBuffer>

  // CHECK-LABEL: llvm.func internal @descriptor_array
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[I:[a-z0-9]+]]: i32, %[[J:[a-z0-9]+]]: i32)
  // The variable's own address (unused here) is computed first.
  // CHECK: llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[TABLE]][%[[S]]]
  // An index past the end picks the last element (2).
  // CHECK: %[[LAST:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: %[[WI:.*]] = llvm.sext %[[I]] : i32 to i64
  // CHECK: %[[CI:.*]] = llvm.intr.umin(%[[WI]], %[[LAST]]) : (i64, i64) -> i64
  // CHECK: %[[SIZE:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[OFF:.*]] = llvm.mul %[[CI]], %[[SIZE]] : i64
  // CHECK: %[[ENTRY:.*]] = llvm.getelementptr %[[FIRST]][%[[OFF]]]
  // CHECK: %[[BASE:.*]] = llvm.load %[[ENTRY]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[WJ:.*]] = llvm.sext %[[J]] : i32 to i64
  // CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[EOFF:.*]] = llvm.mul %[[WJ]], %[[STRIDE]] : i64
  // CHECK: %[[ELEM:.*]] = llvm.getelementptr %[[BASE]][%[[EOFF]]]
  // CHECK: llvm.load %[[ELEM]] {alignment = 4 : i64} : !llvm.ptr -> f32
  spirv.func @descriptor_array(%i: i32, %j: i32) -> f32 "None" {
    %p = spirv.mlir.addressof @array : !spirv.ptr<!spirv.array<3 x !Buf>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %0 = spirv.AccessChain %p[%i, %c0, %j] : !spirv.ptr<!spirv.array<3 x !Buf>, StorageBuffer>, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // CHECK-LABEL: llvm.func internal @after_array
  // CHECK: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.mlir.constant(64 : i64) : i64
  // CHECK: %[[SA:.*]] = llvm.getelementptr %[[TABLE]][%[[S]]]
  // CHECK: llvm.load %[[SA]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  spirv.func @after_array() -> f32 "None" {
    %p = spirv.mlir.addressof @after : !spirv.ptr<!Buf, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %0 = spirv.AccessChain %p[%c0, %c0] : !spirv.ptr<!Buf, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }
}

// -----

// A runtime-sized descriptor array takes one slot: (0,1) is slot 1 and
// (0,2) slot 2 (bindings + 32).
!Buf = !spirv.struct<(f32 [0]), Block>
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @first bind(0, 0) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.GlobalVariable @unsized bind(0, 1) : !spirv.ptr<!spirv.rtarray<!Buf>, StorageBuffer>
  spirv.GlobalVariable @after bind(0, 2) : !spirv.ptr<!Buf, StorageBuffer>
  // CHECK-LABEL: llvm.func internal @after_unsized
  // CHECK: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: llvm.getelementptr %[[TABLE]][%[[S]]]
  spirv.func @after_unsized() -> f32 "None" {
    %p = spirv.mlir.addressof @after : !spirv.ptr<!Buf, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %0 = spirv.AccessChain %p[%c0] : !spirv.ptr<!Buf, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // Its slot (bindings + 16) holds the array's own table (base) and its
  // size, 16 bytes per element: element i is entry min(i, size / 16 - 1).
  // CHECK-LABEL: llvm.func internal @unsized_element
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[I:[a-z0-9]+]]: i32)
  // The variable's own address (unused here) is computed first.
  // CHECK: llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[TABLE:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[TABLE]][%[[S]]]
  // CHECK: %[[OWN:.*]] = llvm.load %[[SLOT]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[SIZEADDR:.*]] = llvm.getelementptr %[[SLOT]][%[[EIGHT]]]
  // CHECK: %[[SIZE:.*]] = llvm.load %[[SIZEADDR]] invariant {alignment = 8 : i64} : !llvm.ptr -> i64
  // CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[COUNT:.*]] = llvm.udiv %[[SIZE]], %[[SIXTEEN]] : i64
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: %[[LAST:.*]] = llvm.sub %[[COUNT]], %[[ONE]] : i64
  // CHECK: %[[WI:.*]] = llvm.sext %[[I]] : i32 to i64
  // CHECK: %[[CI:.*]] = llvm.intr.umin(%[[WI]], %[[LAST]]) : (i64, i64) -> i64
  // CHECK: %[[ES:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[OFF:.*]] = llvm.mul %[[CI]], %[[ES]] : i64
  // CHECK: %[[ENTRY:.*]] = llvm.getelementptr %[[OWN]][%[[OFF]]]
  // CHECK: %[[BASE:.*]] = llvm.load %[[ENTRY]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: llvm.load %[[BASE]] {alignment = 4 : i64} : !llvm.ptr -> f32
  spirv.func @unsized_element(%i: i32) -> f32 "None" {
    %p = spirv.mlir.addressof @unsized : !spirv.ptr<!spirv.rtarray<!Buf>, StorageBuffer>
    %c0 = spirv.Constant 0 : i32
    %0 = spirv.AccessChain %p[%i, %c0] : !spirv.ptr<!spirv.rtarray<!Buf>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }
}

// -----

// Push constants: dispatch->push_constants (+40), then the member offset.
!PC = !spirv.struct<(vector<4xf32> [0], i32 [16]), Block>
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @pc : !spirv.ptr<!PC, PushConstant>
  // CHECK-LABEL: llvm.func internal @push_constant
  // CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(40 : i64) : i64
  // CHECK: %[[FA:.*]] = llvm.getelementptr %[[D]][%[[F]]]
  // CHECK: %[[BASE:.*]] = llvm.load %[[FA]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[M:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[MA:.*]] = llvm.getelementptr %[[BASE]][%[[M]]]
  // CHECK: llvm.load %[[MA]] invariant {alignment = 4 : i64} : !llvm.ptr -> i32
  spirv.func @push_constant() -> i32 "None" {
    %p = spirv.mlir.addressof @pc : !spirv.ptr<!PC, PushConstant>
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c1] : !spirv.ptr<!PC, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
    %1 = spirv.Load "PushConstant" %0 : i32
    spirv.ReturnValue %1 : i32
  }
}

// -----

// Workgroup variables are packed in declaration order with their natural
// alignment: f32 at 0, f64 at 8, vec3[3] (stride 12, 36 bytes) at 16, i16
// at 52: 54 bytes of shared memory. Private variables likewise: vector of
// two i64 at 0, i8 at 16, struct { i32; f16; } (8 bytes, 4-aligned) at 20:
// 28 bytes. The kernel info records both sizes, the LocalSize and no
// bindings or barriers:
//   { abi_version 1, workgroup_size 8 4 2, shared 54, private 28, bindings 0,
//     uses_barriers 0 }
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @s1 : !spirv.ptr<f32, Workgroup>
  spirv.GlobalVariable @s2 : !spirv.ptr<f64, Workgroup>
  spirv.GlobalVariable @s3 : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Workgroup>
  spirv.GlobalVariable @s4 : !spirv.ptr<i16, Workgroup>
  spirv.GlobalVariable @p1 : !spirv.ptr<vector<2xi64>, Private>
  spirv.GlobalVariable @p2 : !spirv.ptr<i8, Private>
  spirv.GlobalVariable @p3 : !spirv.ptr<!spirv.struct<(i32, f16)>, Private>

  // CHECK-LABEL: llvm.func @spvb_main_invocation
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // s3[2][1]: shared_memory (+40) + 16, then 2 * 12 + 4. Loads from the
  // invocation block are not invariant: the workgroup entry writes its copy.
  // CHECK: %[[F:.*]] = llvm.mlir.constant(40 : i64) : i64
  // CHECK: %[[FA:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: %[[SHARED:.*]] = llvm.load %[[FA]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[V:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[S3:.*]] = llvm.getelementptr %[[SHARED]][%[[V]]]
  // CHECK: %[[E:.*]] = llvm.mlir.constant(28 : i64) : i64
  // CHECK: %[[EA:.*]] = llvm.getelementptr %[[S3]][%[[E]]]
  // CHECK: llvm.load %[[EA]] {alignment = 4 : i64} : !llvm.ptr -> f32
  // s4: shared_memory + 52.
  // CHECK: %[[F2:.*]] = llvm.mlir.constant(40 : i64) : i64
  // CHECK: %[[FA2:.*]] = llvm.getelementptr %[[INV]][%[[F2]]]
  // CHECK: %[[SHARED2:.*]] = llvm.load %[[FA2]] {alignment = 8 : i64}
  // CHECK: %[[V4:.*]] = llvm.mlir.constant(52 : i64) : i64
  // CHECK: %[[S4:.*]] = llvm.getelementptr %[[SHARED2]][%[[V4]]]
  // CHECK: llvm.store %{{.*}}, %[[S4]] {alignment = 2 : i64} : i16, !llvm.ptr
  // p3.1: private_memory (+48) + 20, then 4.
  // CHECK: %[[P:.*]] = llvm.mlir.constant(48 : i64) : i64
  // CHECK: %[[PA:.*]] = llvm.getelementptr %[[INV]][%[[P]]]
  // CHECK: %[[PRIVATE:.*]] = llvm.load %[[PA]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  // CHECK: %[[V3:.*]] = llvm.mlir.constant(20 : i64) : i64
  // CHECK: %[[P3:.*]] = llvm.getelementptr %[[PRIVATE]][%[[V3]]]
  // CHECK: %[[M:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[MA:.*]] = llvm.getelementptr %[[P3]][%[[M]]]
  // CHECK: llvm.store %{{.*}}, %[[MA]] {alignment = 2 : i64} : f16, !llvm.ptr
  // The kernel info comes after the entry wrappers.
  // CHECK: llvm.func @spvb_main_workgroup
  // CHECK: llvm.mlir.global external constant @spvb_main_info(dense<{{\[}}[[ABI]], 8, 4, 2, 54, 28, 0, 0, 1, 0, 5, 0, 0, 0, 1, 0, 0]> : tensor<17xi32>) {addr_space = 0 : i32} : !llvm.array<17 x i32>
  spirv.func @main() "None" {
    %s3 = spirv.mlir.addressof @s3 : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Workgroup>
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %s3[%c2, %c1] : !spirv.ptr<!spirv.array<3 x vector<3xf32>>, Workgroup>, i32, i32 -> !spirv.ptr<f32, Workgroup>
    %1 = spirv.Load "Workgroup" %0 : f32
    %s4 = spirv.mlir.addressof @s4 : !spirv.ptr<i16, Workgroup>
    %c7 = spirv.Constant 7 : i16
    spirv.Store "Workgroup" %s4, %c7 : i16
    %p3 = spirv.mlir.addressof @p3 : !spirv.ptr<!spirv.struct<(i32, f16)>, Private>
    %2 = spirv.AccessChain %p3[%c1] : !spirv.ptr<!spirv.struct<(i32, f16)>, Private>, i32 -> !spirv.ptr<f16, Private>
    %h = spirv.FConvert %1 : f32 to f16
    spirv.Store "Private" %2, %h : f16
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @main
  spirv.ExecutionMode @main "LocalSize", 8, 4, 2
}

// -----

// Builtins are fields of the ABI blocks.
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lid built_in("LocalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @lindex built_in("LocalInvocationIndex") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @wgid built_in("WorkgroupId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @nwg built_in("NumWorkgroups") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @wgsize built_in("WorkgroupSize") : !spirv.ptr<vector<3xi32>, Input>
  spirv.GlobalVariable @sgsize built_in("SubgroupSize") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @sglid built_in("SubgroupLocalInvocationId") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @sgid built_in("SubgroupId") : !spirv.ptr<i32, Input>

  // CHECK-LABEL: llvm.func internal @global_invocation_id
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(24 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xi32>
  spirv.func @global_invocation_id() -> vector<3xi32> "None" {
    %p = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // gl_GlobalInvocationID.y: 24 + 4.
  // CHECK-LABEL: llvm.func internal @global_invocation_id_y
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(24 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: %[[Y:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[YA:.*]] = llvm.getelementptr %[[A]][%[[Y]]]
  // CHECK: llvm.load %[[YA]] {alignment = 4 : i64} : !llvm.ptr -> i32
  spirv.func @global_invocation_id_y() -> i32 "None" {
    %p = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c1] : !spirv.ptr<vector<3xi32>, Input>, i32 -> !spirv.ptr<i32, Input>
    %1 = spirv.Load "Input" %0 : i32
    spirv.ReturnValue %1 : i32
  }

  // CHECK-LABEL: llvm.func internal @local_invocation_id
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(12 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xi32>
  spirv.func @local_invocation_id() -> vector<3xi32> "None" {
    %p = spirv.mlir.addressof @lid : !spirv.ptr<vector<3xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // CHECK-LABEL: llvm.func internal @local_invocation_index
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(36 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> i32
  spirv.func @local_invocation_index() -> i32 "None" {
    %p = spirv.mlir.addressof @lindex : !spirv.ptr<i32, Input>
    %0 = spirv.Load "Input" %p : i32
    spirv.ReturnValue %0 : i32
  }

  // workgroup_id is the first field: the invocation block itself.
  // CHECK-LABEL: llvm.func internal @workgroup_id
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK-NEXT: %[[R:.*]] = llvm.load %[[INV]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xi32>
  // CHECK-NEXT: llvm.return %[[R]]
  spirv.func @workgroup_id() -> vector<3xi32> "None" {
    %p = spirv.mlir.addressof @wgid : !spirv.ptr<vector<3xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // workgroup_count is the first field of the dispatch block.
  // CHECK-LABEL: llvm.func internal @num_workgroups
  // CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK-NEXT: %[[R:.*]] = llvm.load %[[D]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xi32>
  // CHECK-NEXT: llvm.return %[[R]]
  spirv.func @num_workgroups() -> vector<3xi32> "None" {
    %p = spirv.mlir.addressof @nwg : !spirv.ptr<vector<3xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // CHECK-LABEL: llvm.func internal @workgroup_size
  // CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(12 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[D]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xi32>
  spirv.func @workgroup_size() -> vector<3xi32> "None" {
    %p = spirv.mlir.addressof @wgsize : !spirv.ptr<vector<3xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // CHECK-LABEL: llvm.func internal @subgroup_size
  // CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(24 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[D]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> i32
  spirv.func @subgroup_size() -> i32 "None" {
    %p = spirv.mlir.addressof @sgsize : !spirv.ptr<i32, Input>
    %0 = spirv.Load "Input" %p : i32
    spirv.ReturnValue %0 : i32
  }

  // CHECK-LABEL: llvm.func internal @subgroup_local_id
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(68 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> i32
  spirv.func @subgroup_local_id() -> i32 "None" {
    %p = spirv.mlir.addressof @sglid : !spirv.ptr<i32, Input>
    %0 = spirv.Load "Input" %p : i32
    spirv.ReturnValue %0 : i32
  }

  // CHECK-LABEL: llvm.func internal @subgroup_id
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(64 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %[[INV]][%[[F]]]
  // CHECK: llvm.load %[[A]] {alignment = 4 : i64} : !llvm.ptr -> i32
  spirv.func @subgroup_id() -> i32 "None" {
    %p = spirv.mlir.addressof @sgid : !spirv.ptr<i32, Input>
    %0 = spirv.Load "Input" %p : i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// Builtins derived from the subgroup size are computed into a stack slot.
// NumSubgroups = ceil(x * y * z / subgroup_size), with a subgroup size of 0
// taken as 1.
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @nsg built_in("NumSubgroups") : !spirv.ptr<i32, Input>
  spirv.GlobalVariable @eq built_in("SubgroupEqMask") : !spirv.ptr<vector<4xi32>, Input>
  spirv.GlobalVariable @ge built_in("SubgroupGeMask") : !spirv.ptr<vector<4xi32>, Input>

  // CHECK-LABEL: llvm.func internal @num_subgroups
  // CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
  // CHECK: %[[F:.*]] = llvm.mlir.constant(24 : i64) : i64
  // CHECK: %[[FA:.*]] = llvm.getelementptr %[[D]][%[[F]]]
  // CHECK: %[[RAW:.*]] = llvm.load %[[FA]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[ISZERO:.*]] = llvm.icmp "eq" %[[RAW]], %[[ZERO]] : i32
  // CHECK: %[[SIZE:.*]] = llvm.select %[[ISZERO]], %[[ONE]], %[[RAW]] : i1, i32
  // CHECK: %[[XO:.*]] = llvm.mlir.constant(12 : i64) : i64
  // CHECK: %[[XA:.*]] = llvm.getelementptr %[[D]][%[[XO]]]
  // CHECK: %[[X:.*]] = llvm.load %[[XA]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[YO:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[YA:.*]] = llvm.getelementptr %[[D]][%[[YO]]]
  // CHECK: %[[Y:.*]] = llvm.load %[[YA]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[ZO:.*]] = llvm.mlir.constant(20 : i64) : i64
  // CHECK: %[[ZA:.*]] = llvm.getelementptr %[[D]][%[[ZO]]]
  // CHECK: %[[Z:.*]] = llvm.load %[[ZA]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[XY:.*]] = llvm.mul %[[X]], %[[Y]] : i32
  // CHECK: %[[XYZ:.*]] = llvm.mul %[[XY]], %[[Z]] : i32
  // CHECK: %[[SM1:.*]] = llvm.sub %[[SIZE]], %[[ONE]] : i32
  // CHECK: %[[ROUND:.*]] = llvm.add %[[XYZ]], %[[SM1]] : i32
  // CHECK: %[[N:.*]] = llvm.udiv %[[ROUND]], %[[SIZE]] : i32
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  // CHECK: llvm.store %[[N]], %[[SLOT]] {alignment = 4 : i64} : i32, !llvm.ptr
  // CHECK: %[[R:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: llvm.return %[[R]] : i32
  spirv.func @num_subgroups() -> i32 "None" {
    %p = spirv.mlir.addressof @nsg : !spirv.ptr<i32, Input>
    %0 = spirv.Load "Input" %p : i32
    spirv.ReturnValue %0 : i32
  }

  // SubgroupEqMask = 1 << subgroup_local_id, as a 128-bit uvec4.
  // CHECK-LABEL: llvm.func internal @eq_mask
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
  // CHECK: %[[LO:.*]] = llvm.mlir.constant(68 : i64) : i64
  // CHECK: %[[LA:.*]] = llvm.getelementptr %[[INV]][%[[LO]]]
  // CHECK: %[[L:.*]] = llvm.load %[[LA]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[L128:.*]] = llvm.zext %[[L]] : i32 to i128
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i128) : i128
  // CHECK: %[[EQ:.*]] = llvm.shl %[[ONE]], %[[L128]] : i128
  // CHECK: %[[V:.*]] = llvm.bitcast %[[EQ]] : i128 to vector<4xi32>
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x vector<4xi32> {alignment = 16 : i64}
  // CHECK: llvm.store %[[V]], %[[SLOT]]
  spirv.func @eq_mask() -> vector<4xi32> "None" {
    %p = spirv.mlir.addressof @eq : !spirv.ptr<vector<4xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }

  // SubgroupGeMask = ~((1 << id) - 1) & all, where all = (1 << size) - 1,
  // or every bit for size 128 (a shift by 128 would be poison).
  // CHECK-LABEL: llvm.func internal @ge_mask
  // CHECK: %[[L128:.*]] = llvm.zext %{{.*}} : i32 to i128
  // CHECK: %[[S128:.*]] = llvm.zext %{{.*}} : i32 to i128
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i128) : i128
  // CHECK: %[[EQ:.*]] = llvm.shl %[[ONE]], %[[L128]] : i128
  // CHECK: %[[LT:.*]] = llvm.sub %[[EQ]], %[[ONE]] : i128
  // CHECK: %[[C127:.*]] = llvm.mlir.constant(127 : i128) : i128
  // CHECK: %[[S127:.*]] = llvm.intr.umin(%[[S128]], %[[C127]]) : (i128, i128) -> i128
  // CHECK: %[[TOP:.*]] = llvm.shl %[[ONE]], %[[S127]] : i128
  // CHECK: %[[BELOW:.*]] = llvm.sub %[[TOP]], %[[ONE]] : i128
  // CHECK: %[[C128:.*]] = llvm.mlir.constant(128 : i128) : i128
  // CHECK: %[[FULL:.*]] = llvm.icmp "uge" %[[S128]], %[[C128]] : i128
  // CHECK: %[[ALLONES:.*]] = llvm.mlir.constant(-1 : i128) : i128
  // CHECK: %[[ALL:.*]] = llvm.select %[[FULL]], %[[ALLONES]], %[[BELOW]] : i1, i128
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i128) : i128
  // CHECK: %[[NOTLT:.*]] = llvm.xor %[[LT]], %[[ONES]] : i128
  // CHECK: %[[GE:.*]] = llvm.and %[[NOTLT]], %[[ALL]] : i128
  // CHECK: llvm.bitcast %[[GE]] : i128 to vector<4xi32>
  spirv.func @ge_mask() -> vector<4xi32> "None" {
    %p = spirv.mlir.addressof @ge : !spirv.ptr<vector<4xi32>, Input>
    %0 = spirv.Load "Input" %p : vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }
}

// -----

// Output variables belong to other stages: they are dropped.
// CHECK-LABEL: llvm.func internal @ignores_outputs
// CHECK-NOT: llvm.mlir.global
spirv.module Logical GLSL450 {
  spirv.GlobalVariable @color : !spirv.ptr<vector<4xf32>, Output>
  spirv.func @ignores_outputs() "None" {
    spirv.Return
  }
}

// -----

// ERR: interface.mlir:[[@LINE+2]]:1: error: resource variable 'nobind' has no DescriptorSet/Binding decoration
// expected-error @+1 {{resource variable 'nobind' has no DescriptorSet/Binding decoration}}
module {
  spirv.GlobalVariable @nobind : !spirv.ptr<!spirv.struct<(f32 [0]), Block>, StorageBuffer>
}

// -----

// ERR: interface.mlir:[[@LINE+2]]:1: error: builtin 'FragCoord' of variable 'frag' is not supported yet
// expected-error @+1 {{builtin 'FragCoord' of variable 'frag' is not supported yet}}
module {
  spirv.GlobalVariable @frag built_in("FragCoord") : !spirv.ptr<vector<4xf32>, Input>
}

// -----

// ERR: interface.mlir:[[@LINE+2]]:1: error: variable 'cw' has storage class CrossWorkgroup, which is not supported yet
// expected-error @+1 {{variable 'cw' has storage class CrossWorkgroup, which is not supported yet}}
module {
  spirv.GlobalVariable @cw : !spirv.ptr<f32, CrossWorkgroup>
}
