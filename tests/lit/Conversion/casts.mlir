// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Buffer device addresses (PhysicalStorageBuffer64) are host pointers:
// integers convert to and from them bit for bit, zero-extending or
// truncating to 64 bits.
// CHECK-LABEL: llvm.func internal @convert_u_to_ptr
// CHECK-SAME: %[[A:[a-z0-9]+]]: i64, %[[B:[a-z0-9]+]]: i32)
// CHECK: %[[P:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr
// CHECK: %[[WIDE:.*]] = llvm.zext %[[B]] : i32 to i64
// CHECK: %[[Q:.*]] = llvm.inttoptr %[[WIDE]] : i64 to !llvm.ptr
// CHECK: llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> f32
// CHECK: llvm.load %[[Q]] {alignment = 4 : i64} : !llvm.ptr -> f32
spirv.module Physical64 GLSL450 requires #spirv.vce<v1.5, [Shader, PhysicalStorageBufferAddresses], []> {
  spirv.func @convert_u_to_ptr(%a: i64, %b: i32) -> f32 "None" {
    %p = spirv.ConvertUToPtr %a : i64 to !spirv.ptr<f32, PhysicalStorageBuffer>
    %q = spirv.ConvertUToPtr %b : i32 to !spirv.ptr<f32, PhysicalStorageBuffer>
    %0 = spirv.Load "PhysicalStorageBuffer" %p ["Aligned", 4] : f32
    %1 = spirv.Load "PhysicalStorageBuffer" %q ["Aligned", 4] : f32
    %2 = spirv.FAdd %0, %1 : f32
    spirv.ReturnValue %2 : f32
  }
}

// -----

// CHECK-LABEL: llvm.func internal @convert_ptr_to_u
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[A:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK: %[[W:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK: %[[B:.*]] = llvm.trunc %[[W]] : i64 to i32
// CHECK: llvm.zext %[[B]] : i32 to i64
spirv.module Physical64 GLSL450 requires #spirv.vce<v1.5, [Shader, PhysicalStorageBufferAddresses], []> {
  spirv.func @convert_ptr_to_u(%p: !spirv.ptr<f32, PhysicalStorageBuffer> {spirv.decoration = #spirv.decoration<Aliased>}) -> i64 "None" {
    %a = spirv.ConvertPtrToU %p : !spirv.ptr<f32, PhysicalStorageBuffer> to i64
    %b = spirv.ConvertPtrToU %p : !spirv.ptr<f32, PhysicalStorageBuffer> to i32
    %c = spirv.UConvert %b : i32 to i64
    %0 = spirv.IAdd %a, %c : i64
    spirv.ReturnValue %0 : i64
  }
}

// -----

// OpBitcast between a buffer reference and a uvec2 (spvb.pointer_bitcast)
// goes through the 64-bit integer: the low word is component 0 on a
// little-endian host.
// CHECK-LABEL: llvm.func internal @pointer_bitcast
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<2xi32>)
// CHECK: %[[I:.*]] = llvm.bitcast %[[V]] : vector<2xi32> to i64
// CHECK: %[[P:.*]] = llvm.inttoptr %[[I]] : i64 to !llvm.ptr
// CHECK: %[[J:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK: %[[R:.*]] = llvm.bitcast %[[J]] : i64 to vector<2xi32>
// CHECK: llvm.return %[[R]] : vector<2xi32>
module {
  spirv.func @pointer_bitcast(%v: vector<2xi32>) -> vector<2xi32> "None" {
    %p = spvb.pointer_bitcast %v : vector<2xi32> to !spirv.ptr<f32, PhysicalStorageBuffer>
    %r = spvb.pointer_bitcast %p : !spirv.ptr<f32, PhysicalStorageBuffer> to vector<2xi32>
    spirv.ReturnValue %r : vector<2xi32>
  }
}

// -----

// A bitcast between two buffer-reference types changes nothing; value
// bitcasts stay bitcasts.
// CHECK-LABEL: llvm.func internal @bitcasts
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[F:[a-z0-9]+]]: f32)
// CHECK-NEXT: %[[I:.*]] = llvm.bitcast %[[F]] : f32 to i32
// CHECK-NEXT: llvm.store %[[I]], %[[P]] {alignment = 4 : i64} : i32, !llvm.ptr
spirv.module Physical64 GLSL450 requires #spirv.vce<v1.5, [Shader, PhysicalStorageBufferAddresses], []> {
  spirv.func @bitcasts(%p: !spirv.ptr<f32, PhysicalStorageBuffer> {spirv.decoration = #spirv.decoration<Aliased>}, %f: f32) "None" {
    %q = spirv.Bitcast %p : !spirv.ptr<f32, PhysicalStorageBuffer> to !spirv.ptr<i32, PhysicalStorageBuffer>
    %i = spirv.Bitcast %f : f32 to i32
    spirv.Store "PhysicalStorageBuffer" %q, %i ["Aligned", 4] : i32
    spirv.Return
  }
}

// -----

// OpPtrEqual (401), OpPtrNotEqual (402) compare addresses; OpPtrDiff (403)
// counts elements: byte difference / element size (the pointee's size, or
// the ArrayStride recorded as `stride`), signed.
// CHECK-LABEL: llvm.func internal @pointer_compare
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[Q:[a-z0-9]+]]: !llvm.ptr)
// CHECK: llvm.icmp "eq" %[[P]], %[[Q]] : !llvm.ptr
// CHECK: llvm.icmp "ne" %[[P]], %[[Q]] : !llvm.ptr
// CHECK: %[[A:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr to i64
// CHECK: %[[B:.*]] = llvm.ptrtoint %[[Q]] : !llvm.ptr to i64
// CHECK: %[[D:.*]] = llvm.sub %[[A]], %[[B]] : i64
// CHECK: %[[S:.*]] = llvm.mlir.constant(12 : i64) : i64
// CHECK: %[[N:.*]] = llvm.sdiv %[[D]], %[[S]] : i64
// CHECK: llvm.trunc %[[N]] : i64 to i32
// CHECK: %[[D2:.*]] = llvm.sub
// CHECK: %[[S2:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: llvm.sdiv %[[D2]], %[[S2]] : i64
module {
  spirv.func @pointer_compare(%p: !spirv.ptr<vector<3xf32>, Workgroup>, %q: !spirv.ptr<vector<3xf32>, Workgroup>) -> i32 "None" {
    %0 = spvb.pointer_compare 401 (%p, %q) {stride = 0 : i32} : !spirv.ptr<vector<3xf32>, Workgroup>, !spirv.ptr<vector<3xf32>, Workgroup> -> i1
    %1 = spvb.pointer_compare 402 (%p, %q) {stride = 0 : i32} : !spirv.ptr<vector<3xf32>, Workgroup>, !spirv.ptr<vector<3xf32>, Workgroup> -> i1
    %2 = spvb.pointer_compare 403 (%p, %q) {stride = 0 : i32} : !spirv.ptr<vector<3xf32>, Workgroup>, !spirv.ptr<vector<3xf32>, Workgroup> -> i32
    %3 = spvb.pointer_compare 403 (%p, %q) {stride = 16 : i32} : !spirv.ptr<vector<3xf32>, Workgroup>, !spirv.ptr<vector<3xf32>, Workgroup> -> i64
    spirv.ReturnValue %2 : i32
  }
}

// -----

// OpQuantizeToF16 rounds through f16 and back; results below the smallest
// normal f16, 2^-14 = 6.103515625e-05, become a zero of the operand's sign
// (SPIR-V spec: "too small to represent as a normalized 16-bit value").
// CHECK-LABEL: llvm.func internal @quantize_to_f16
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<2xf32>)
// CHECK: %[[H:.*]] = llvm.fptrunc %[[X]] : vector<2xf32> to vector<2xf16>
// CHECK: %[[W:.*]] = llvm.fpext %[[H]] : vector<2xf16> to vector<2xf32>
// CHECK: %[[A:.*]] = llvm.intr.fabs(%[[W]]) : (vector<2xf32>) -> vector<2xf32>
// CHECK: %[[MIN:.*]] = llvm.mlir.constant(dense<6.10351563E-5> : vector<2xf32>) : vector<2xf32>
// CHECK: %[[SMALL:.*]] = llvm.fcmp "olt" %[[A]], %[[MIN]] : vector<2xf32>
// CHECK: %[[Z:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<2xf32>) : vector<2xf32>
// CHECK: %[[SZ:.*]] = llvm.intr.copysign(%[[Z]], %[[X]]) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK: %[[R:.*]] = llvm.select %[[SMALL]], %[[SZ]], %[[W]] : vector<2xi1>, vector<2xf32>
// CHECK: llvm.return %[[R]] : vector<2xf32>
module {
  spirv.func @quantize_to_f16(%x: vector<2xf32>) -> vector<2xf32> "None" {
    %0 = spvb.quantize_to_f16 %x : vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}
