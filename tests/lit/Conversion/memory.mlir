// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Function variables are byte buffers on the stack laid out naturally
// (Layout.h): struct { float a; double b; vec3 c; } puts a at 0, b at 8
// (aligned to 8), c at 16 (aligned to its 4-byte element); it ends at 28 and
// is padded to its 8-byte alignment: 32 bytes. Allocas are 16-byte aligned.
// CHECK-LABEL: llvm.func internal @function_variable
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[VAR:.*]] = llvm.alloca %[[ONE]] x !llvm.array<32 x i8> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// c[1]: 16 + 4.
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(20 : i64) : i64
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[VAR]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK: llvm.store %{{.*}}, %[[ADDR]] {alignment = 4 : i64} : f32, !llvm.ptr
// b: 8, loaded with alignment 8.
// CHECK: %[[BOFF:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[B:.*]] = llvm.getelementptr %[[VAR]][%[[BOFF]]]
// CHECK: llvm.load %[[B]] {alignment = 8 : i64} : !llvm.ptr -> f64
spirv.module Logical GLSL450 {
  spirv.func @function_variable(%x: f32) -> f64 "None" {
    %var = spirv.Variable : !spirv.ptr<!spirv.struct<(f32, f64, vector<3xf32>)>, Function>
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %var[%c2, %c1] : !spirv.ptr<!spirv.struct<(f32, f64, vector<3xf32>)>, Function>, i32, i32 -> !spirv.ptr<f32, Function>
    spirv.Store "Function" %0, %x : f32
    %1 = spirv.AccessChain %var[%c1] : !spirv.ptr<!spirv.struct<(f32, f64, vector<3xf32>)>, Function>, i32 -> !spirv.ptr<f64, Function>
    %2 = spirv.Load "Function" %1 : f64
    spirv.ReturnValue %2 : f64
  }
}

// -----

// An initializer is stored right after the alloca. A bool takes one byte.
// CHECK-LABEL: llvm.func internal @initialized_variable
// CHECK: %[[VAR:.*]] = llvm.alloca %{{.*}} x !llvm.array<1 x i8> {alignment = 16 : i64}
// CHECK-NEXT: llvm.store %{{.*}}, %[[VAR]] {alignment = 1 : i64} : i1, !llvm.ptr
// CHECK: llvm.load %[[VAR]] {alignment = 1 : i64} : !llvm.ptr -> i1
spirv.module Logical GLSL450 {
  spirv.func @initialized_variable() -> i1 "None" {
    %true = spirv.Constant true
    %var = spirv.Variable init(%true) : !spirv.ptr<i1, Function>
    %0 = spirv.Load "Function" %var : i1
    spirv.ReturnValue %0 : i1
  }
}

// -----

// Storing a struct value writes each member at its natural offset:
// struct { vec3 a; int b[2]; double c; } -> a 0, b 12 (stride 4), c 24.
// CHECK-LABEL: llvm.func internal @store_struct
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: !llvm.struct<(vector<3xf32>, array<2 x i32>, f64)>)
// CHECK: %[[A:.*]] = llvm.extractvalue %[[V]][0]
// CHECK: llvm.store %[[A]], %[[P]] {alignment = 4 : i64} : vector<3xf32>, !llvm.ptr
// CHECK: %[[B:.*]] = llvm.extractvalue %[[V]][1]
// CHECK: %[[BOFF:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK: %[[BADDR:.*]] = llvm.getelementptr %[[P]][%[[BOFF]]]
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
// CHECK: llvm.store %[[B0]], %[[BADDR]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[B1:.*]] = llvm.extractvalue %[[B]][1]
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: %[[B1ADDR:.*]] = llvm.getelementptr %[[BADDR]][%[[FOUR]]]
// CHECK: llvm.store %[[B1]], %[[B1ADDR]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: %[[C:.*]] = llvm.extractvalue %[[V]][2]
// CHECK: %[[COFF:.*]] = llvm.mlir.constant(24 : i64) : i64
// CHECK: %[[CADDR:.*]] = llvm.getelementptr %[[P]][%[[COFF]]]
// CHECK: llvm.store %[[C]], %[[CADDR]] {alignment = 8 : i64} : f64, !llvm.ptr
spirv.module Logical GLSL450 {
  spirv.func @store_struct(%p: !spirv.ptr<!spirv.struct<(vector<3xf32>, !spirv.array<2 x i32>, f64)>, Function>, %v: !spirv.struct<(vector<3xf32>, !spirv.array<2 x i32>, f64)>) "None" {
    spirv.Store "Function" %p, %v : !spirv.struct<(vector<3xf32>, !spirv.array<2 x i32>, f64)>
    spirv.Return
  }
}

// -----

// OpCopyMemory of a struct is a load of every member and a store of it at
// the same offsets: { i16 a; i64 b; } -> a at 0, b at 8.
// CHECK-LABEL: llvm.func internal @copy_memory
// CHECK-SAME: %[[DST:[a-z0-9]+]]: !llvm.ptr, %[[SRC:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[A:.*]] = llvm.load %[[SRC]] {alignment = 2 : i64} : !llvm.ptr -> i16
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[SB:.*]] = llvm.getelementptr %[[SRC]][%[[OFF]]]
// CHECK: %[[B:.*]] = llvm.load %[[SB]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: llvm.store %{{.*}}, %[[DST]] {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: %[[OFF2:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[DB:.*]] = llvm.getelementptr %[[DST]][%[[OFF2]]]
// CHECK: llvm.store %{{.*}}, %[[DB]] {alignment = 8 : i64} : i64, !llvm.ptr
spirv.module Logical GLSL450 {
  spirv.func @copy_memory(%dst: !spirv.ptr<!spirv.struct<(i16, i64)>, Function>, %src: !spirv.ptr<!spirv.struct<(i16, i64)>, Function>) "None" {
    spirv.CopyMemory "Function" %dst, "Function" %src : !spirv.struct<(i16, i64)>
    spirv.Return
  }
}

// -----

// OpUndef is zero: SPIR-V undefined values never become LLVM undef/poison.
// CHECK-LABEL: llvm.func internal @undef
// CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<4xi32>
// CHECK: llvm.return %[[Z]] : vector<4xi32>
spirv.module Logical GLSL450 {
  spirv.func @undef() -> vector<4xi32> "None" {
    %0 = spirv.Undef : vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }
}

// -----

// OpPtrAccessChain: the Element operand steps over whole pointees; without
// an ArrayStride on the pointer type, by the pointee's size (struct
// { vec2 [0]; float [8] } spans 12 bytes), then the indices add 8.
// CHECK-LABEL: llvm.func internal @ptr_access_chain
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[E:[a-z0-9]+]]: i32)
// CHECK: %[[WIDE:.*]] = llvm.sext %[[E]] : i32 to i64
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK: %[[OFF:.*]] = llvm.mul %[[WIDE]], %[[SIZE]] : i64
// CHECK: %[[ELEM:.*]] = llvm.getelementptr %[[P]][%[[OFF]]]
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: llvm.getelementptr %[[ELEM]][%[[EIGHT]]]
spirv.module Physical64 GLSL450 requires #spirv.vce<v1.5, [Shader, PhysicalStorageBufferAddresses], []> {
  spirv.func @ptr_access_chain(%p: !spirv.ptr<!spirv.struct<(vector<2xf32> [0], f32 [8])>, PhysicalStorageBuffer> {spirv.decoration = #spirv.decoration<Aliased>}, %e: i32) -> f32 "None" {
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.PtrAccessChain %p[%e %c1] : !spirv.ptr<!spirv.struct<(vector<2xf32> [0], f32 [8])>, PhysicalStorageBuffer>, i32, i32 -> !spirv.ptr<f32, PhysicalStorageBuffer>
    %1 = spirv.Load "PhysicalStorageBuffer" %0 ["Aligned", 4] : f32
    spirv.ReturnValue %1 : f32
  }
}

// -----

// With an ArrayStride on the pointer type (recorded by the deserializer as
// spvb.ptr_stride), the Element operand steps by it.
// CHECK-LABEL: llvm.func internal @ptr_access_chain_stride
// CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: llvm.mul %{{.*}}, %[[STRIDE]] : i64
spirv.module Physical64 GLSL450 requires #spirv.vce<v1.5, [Shader, PhysicalStorageBufferAddresses], []> {
  spirv.func @ptr_access_chain_stride(%p: !spirv.ptr<f32, PhysicalStorageBuffer> {spirv.decoration = #spirv.decoration<Aliased>}, %e: i64) -> f32 "None" {
    %0 = spirv.PtrAccessChain %p[%e] {spvb.ptr_stride = 32 : i32} : !spirv.ptr<f32, PhysicalStorageBuffer>, i64 -> !spirv.ptr<f32, PhysicalStorageBuffer>
    %1 = spirv.Load "PhysicalStorageBuffer" %0 ["Aligned", 4] : f32
    spirv.ReturnValue %1 : f32
  }
}

// -----

// OpArrayLength: (binding size - offset of the runtime array) / ArrayStride,
// with the size read from the binding-table entry (spvb_binding.size at +8).
// The buffer is at (set 0, binding 3), slot 1 of the sorted table, so its
// entry is bindings + 16. A buffer smaller than the offset has length 0.
!Elem = !spirv.struct<(vector<4xf32> [0], f32 [16])>
!Buf = !spirv.struct<(vector<4xf32> [0], !spirv.rtarray<!Elem, stride=32> [16]), Block>
// CHECK-LABEL: llvm.func internal @array_length
// CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr)
// The variable's own address (unused here) is computed first.
// CHECK: llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[T:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[TADDR:.*]] = llvm.getelementptr %[[D]][%[[T]]]
// CHECK: %[[TABLE:.*]] = llvm.load %[[TADDR]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[ENTRY:.*]] = llvm.getelementptr %[[TABLE]][%[[SLOT]]]
// CHECK: %[[SZ:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[SIZEADDR:.*]] = llvm.getelementptr %[[ENTRY]][%[[SZ]]]
// CHECK: %[[SIZE:.*]] = llvm.load %[[SIZEADDR]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[CLAMPED:.*]] = llvm.intr.umax(%[[SIZE]], %[[OFF]]) : (i64, i64) -> i64
// CHECK: %[[BYTES:.*]] = llvm.sub %[[CLAMPED]], %[[OFF]] : i64
// CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[COUNT:.*]] = llvm.udiv %[[BYTES]], %[[STRIDE]] : i64
// CHECK: %[[LEN:.*]] = llvm.trunc %[[COUNT]] : i64 to i32
// CHECK: llvm.return %[[LEN]] : i32
module {
  spirv.GlobalVariable @other bind(0, 0) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.GlobalVariable @buf bind(0, 3) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.func @array_length() -> i32 "None" {
    %p = spirv.mlir.addressof @buf : !spirv.ptr<!Buf, StorageBuffer>
    %0 = spvb.array_length %p[1] : !spirv.ptr<!Buf, StorageBuffer>
    spirv.ReturnValue %0 : i32
  }
}

// -----

// OpArrayLength of an element of a descriptor array: the array takes slots
// 1..4 of the table (after set 0 binding 0), so element i's entry is at
// bindings + 16 * 1 + 16 * i.
!Buf = !spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>
// CHECK-LABEL: llvm.func internal @array_length_descriptor_array
// CHECK-SAME: (%[[D:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[I:[a-z0-9]+]]: i32)
// The access chain's buffer address (unused here) is computed first.
// CHECK: llvm.load %{{.*}} invariant
// CHECK: llvm.getelementptr
// CHECK: llvm.mul
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[T:.*]] = llvm.mlir.constant(32 : i64) : i64
// CHECK: %[[TADDR:.*]] = llvm.getelementptr %[[D]][%[[T]]]
// CHECK: %[[TABLE:.*]] = llvm.load %[[TADDR]] invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[SLOT:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[FIRST:.*]] = llvm.getelementptr %[[TABLE]][%[[SLOT]]]
// CHECK: %[[LAST:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: %[[WIDE:.*]] = llvm.sext %[[I]] : i32 to i64
// CHECK: %[[CI:.*]] = llvm.intr.umin(%[[WIDE]], %[[LAST]]) : (i64, i64) -> i64
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[OFF:.*]] = llvm.mul %[[CI]], %[[SIXTEEN]] : i64
// CHECK: %[[ENTRY:.*]] = llvm.getelementptr %[[FIRST]][%[[OFF]]]
// CHECK: %[[SZ:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[SIZEADDR:.*]] = llvm.getelementptr %[[ENTRY]][%[[SZ]]]
// CHECK: %[[SIZE:.*]] = llvm.load %[[SIZEADDR]] {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: llvm.intr.umax(%[[SIZE]], %[[ZERO]])
// CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.udiv %{{.*}}, %[[STRIDE]] : i64
module {
  spirv.GlobalVariable @first bind(0, 0) : !spirv.ptr<!Buf, StorageBuffer>
  spirv.GlobalVariable @bufs bind(0, 1) : !spirv.ptr<!spirv.array<4 x !Buf>, StorageBuffer>
  spirv.func @array_length_descriptor_array(%i: i32) -> i32 "None" {
    %p = spirv.mlir.addressof @bufs : !spirv.ptr<!spirv.array<4 x !Buf>, StorageBuffer>
    %0 = spirv.AccessChain %p[%i] : !spirv.ptr<!spirv.array<4 x !Buf>, StorageBuffer>, i32 -> !spirv.ptr<!Buf, StorageBuffer>
    %1 = spvb.array_length %0[0] : !spirv.ptr<!Buf, StorageBuffer>
    spirv.ReturnValue %1 : i32
  }
}
