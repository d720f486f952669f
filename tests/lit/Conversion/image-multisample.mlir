// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Multisampled images (MS = 1) lower as other images do: the Sample image
// operand (mask 0x40 = 64) is one more id operand, passed by address after
// the coordinate (and, for OpImageWrite, the texel), and the runtime's
// spvb_rt_image finds sample s of texel (x, y, layer) at texel number
// ((layer * H + y) * W + x) * samples + s (kernel_abi.h).
// Descriptors (SPVB_TYPE_DESC = kind << 16 | bytes << 8 | count): ptr
// 3 << 16 | 8 << 8 | 1 = 198657, i32 1025, vector<2xi32> 1026,
// vector<4xi32> 1028, none 4 << 16 = 262144.

// OpImageRead (98) with Sample: operands image, coordinate, sample; the
// sample's slot is the third pointer (byte 16), its descriptor the third
// (byte 8).
!Ms = !spirv.image<i32, Dim2D, NoDepth, NonArrayed, MultiSampled, NoSampler, R32ui>
// CHECK: llvm.func @spvb_rt_image(!llvm.ptr, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func internal @read_sample
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr, %[[IMG:[a-z0-9]+]]: !llvm.ptr, %[[C:[a-z0-9]+]]: vector<2xi32>, %[[S:[a-z0-9]+]]: i32) -> vector<4xi32>
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x vector<4xi32>
// CHECK: %[[SSLOT:.*]] = llvm.alloca %{{.*}} x i32 {
// CHECK: %[[CSLOT:.*]] = llvm.alloca %{{.*}} x vector<2xi32>
// CHECK: %[[ISLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK: %[[DESCS:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x i32>
// CHECK: %[[ARRAY:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x ptr>
// CHECK: llvm.store %[[IMG]], %[[ISLOT]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %[[ISLOT]], %[[ARRAY]] {alignment = 8 : i64}
// CHECK: llvm.store %[[C]], %[[CSLOT]] : vector<2xi32>, !llvm.ptr
// CHECK: llvm.store %[[S]], %[[SSLOT]] : i32, !llvm.ptr
// CHECK-NEXT: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK-NEXT: %[[E2:.*]] = llvm.getelementptr %[[ARRAY]][%[[SIXTEEN]]]
// CHECK-NEXT: llvm.store %[[SSLOT]], %[[E2]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: %[[SDESC:.*]] = llvm.mlir.constant(1025 : i32) : i32
// CHECK-NEXT: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK-NEXT: %[[D2:.*]] = llvm.getelementptr %[[DESCS]][%[[EIGHT]]]
// CHECK-NEXT: llvm.store %[[SDESC]], %[[D2]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: %[[OPC:.*]] = llvm.mlir.constant(98 : i32) : i32
// CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[DESC:.*]] = llvm.mlir.constant(1028 : i32) : i32
// CHECK-NEXT: %[[COUNT:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: llvm.call @spvb_rt_image(%[[INV]], %[[OPC]], %[[MASK]], %[[DESC]], %[[COUNT]], %[[DESCS]], %[[ARRAY]], %[[RESULT]])
// CHECK-NEXT: %[[R:.*]] = llvm.load %[[RESULT]] : !llvm.ptr -> vector<4xi32>
// CHECK-NEXT: llvm.return %[[R]]
module {
  spirv.func @read_sample(%img: !Ms, %c: vector<2xi32>, %s: i32) -> vector<4xi32> "None" {
    %0 = spvb.image 98 (%img, %c, %s) {image_operands = 64 : i32} : (!Ms, vector<2xi32>, i32) -> vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }
}

// -----

// OpImageWrite (99) with Sample: image, coordinate, texel, sample; the
// sample is the fourth pointer (byte 24) and the result pointer is null.
!Ms = !spirv.image<i32, Dim2D, NoDepth, NonArrayed, MultiSampled, NoSampler, R32ui>
// CHECK-LABEL: llvm.func internal @write_sample
// CHECK-SAME: %[[S:[a-z0-9]+]]: i32)
// CHECK: %[[ARRAY:.*]] = llvm.alloca %{{.*}} x !llvm.array<4 x ptr>
// CHECK: llvm.store %[[S]], %[[SSLOT:.*]] : i32, !llvm.ptr
// CHECK-NEXT: %[[OFFSET:.*]] = llvm.mlir.constant(24 : i64) : i64
// CHECK-NEXT: %[[E3:.*]] = llvm.getelementptr %[[ARRAY]][%[[OFFSET]]]
// CHECK-NEXT: llvm.store %[[SSLOT]], %[[E3]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[OPC:.*]] = llvm.mlir.constant(99 : i32) : i32
// CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: %[[DESC:.*]] = llvm.mlir.constant(262144 : i32) : i32
// CHECK-NEXT: %[[COUNT:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.call @spvb_rt_image(%{{.*}}, %[[OPC]], %[[MASK]], %[[DESC]], %[[COUNT]], %{{.*}}, %[[ARRAY]], %[[NULL]])
// CHECK-NEXT: llvm.return
module {
  spirv.func @write_sample(%img: !Ms, %c: vector<2xi32>, %v: vector<4xi32>, %s: i32) "None" {
    spvb.image 99 (%img, %c, %v, %s) {image_operands = 64 : i32} : (!Ms, vector<2xi32>, vector<4xi32>, i32) -> ()
    spirv.Return
  }
}

// -----

// OpImageQuerySamples (107) and OpImageQuerySize (104) of a multisampled
// image take the image alone: one operand, no image operands; the sample
// count comes back as an i32, the size as a vector<2xi32> (no LOD: an MS
// image has one level).
!Ms = !spirv.image<i32, Dim2D, NoDepth, NonArrayed, MultiSampled, NoSampler, R32ui>
// CHECK-LABEL: llvm.func internal @queries
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr, %[[IMG:[a-z0-9]+]]: !llvm.ptr)
// CHECK-DAG: %[[SAMPLES:.*]] = llvm.alloca %{{.*}} x i32 {
// CHECK-DAG: %[[SIZE:.*]] = llvm.alloca %{{.*}} x vector<2xi32>
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(107 : i32) : i32
// CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[DESC:.*]] = llvm.mlir.constant(1025 : i32) : i32
// CHECK-NEXT: %[[COUNT:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @spvb_rt_image(%[[INV]], %[[OPC]], %[[MASK]], %[[DESC]], %[[COUNT]], %{{.*}}, %{{.*}}, %[[SAMPLES]])
// CHECK-NEXT: %[[N:.*]] = llvm.load %[[SAMPLES]] : !llvm.ptr -> i32
// CHECK: %[[OPC2:.*]] = llvm.mlir.constant(104 : i32) : i32
// CHECK-NEXT: %[[MASK2:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[DESC2:.*]] = llvm.mlir.constant(1026 : i32) : i32
// CHECK-NEXT: %[[COUNT2:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.call @spvb_rt_image(%[[INV]], %[[OPC2]], %[[MASK2]], %[[DESC2]], %[[COUNT2]], %{{.*}}, %{{.*}}, %[[SIZE]])
// CHECK-NEXT: %[[WH:.*]] = llvm.load %[[SIZE]] : !llvm.ptr -> vector<2xi32>
module {
  spirv.func @queries(%img: !Ms) -> i32 "None" {
    %n = spvb.image 107 (%img) {image_operands = 0 : i32} : (!Ms) -> i32
    %wh = spvb.image 104 (%img) {image_operands = 0 : i32} : (!Ms) -> vector<2xi32>
    %w = spirv.CompositeExtract %wh[0 : i32] : vector<2xi32>
    %0 = spirv.IAdd %n, %w : i32
    spirv.ReturnValue %0 : i32
  }
}
