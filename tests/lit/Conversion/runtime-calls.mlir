// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file --verify-diagnostics %s | FileCheck %s
// RUN: not spvb-opt --spvb-lower-to-llvm --split-input-file %s 2>&1 | FileCheck %s --check-prefix=ERR

// Subgroup instructions call
//   spvb_rt_subgroup(invocation, opcode, group_operation, cluster_size,
//                    site, operand_desc, result_desc, operand0, operand1,
//                    result)
// with values passed by address through stack slots in the entry block. The
// site is 0 here; the LLVM-level SubgroupSites pass numbers it.
// operand_desc = SPVB_TYPE_DESC(kind, bytes, count) = kind << 16 | bytes << 8
// | count (kernel_abi.h), with kinds INT 0, FLOAT 1, BOOL 2, NONE 4:
//   i32          0 << 16 | 4 << 8 | 1 = 1025
//   vector<4xf32> 1 << 16 | 4 << 8 | 4 = 66564
//   vector<2xf64> 1 << 16 | 8 << 8 | 2 = 67586
//   i1           2 << 16 | 1 << 8 | 1 = 131329
//   vector<3xi1> 2 << 16 | 1 << 8 | 3 = 131331
//   vector<4xi32> 0 << 16 | 4 << 8 | 4 = 1028
//   none         4 << 16             = 262144

// OpGroupNonUniformIAdd (349), Reduce (0).
// CHECK: llvm.func @spvb_rt_subgroup(!llvm.ptr, i32, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func internal @iadd_reduce
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr, %[[X:[a-z0-9]+]]: i32) -> i32
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK: %[[OP0:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.store %[[X]], %[[OP0]] : i32, !llvm.ptr
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(349 : i32) : i32
// CHECK: %[[GOP:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[CLUSTER:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(1025 : i32) : i32
// CHECK: %[[RDESC:.*]] = llvm.mlir.constant(1025 : i32) : i32
// CHECK: llvm.call @spvb_rt_subgroup(%[[INV]], %[[OPC]], %[[GOP]], %[[CLUSTER]], %[[SITE]], %[[DESC]], %[[RDESC]], %[[OP0]], %[[NULL]], %[[RESULT]])
// CHECK: %[[R:.*]] = llvm.load %[[RESULT]] : !llvm.ptr -> i32
// CHECK: llvm.return %[[R]] : i32
module {
  spirv.func @iadd_reduce(%x: i32) -> i32 "None" {
    %0 = spvb.subgroup 349 (%x) {group_operation = 0 : i32, cluster_size = 0 : i32} : (i32) -> i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// OpGroupNonUniformBroadcast (337): no group operation (~0u), the id is the
// second operand; the descriptor is the value's.
// CHECK-LABEL: llvm.func internal @broadcast
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: vector<4xf32>, %[[ID:[a-z0-9]+]]: i32)
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x vector<4xf32>
// CHECK: %[[OP1:.*]] = llvm.alloca %{{.*}} x i32
// CHECK: %[[OP0:.*]] = llvm.alloca %{{.*}} x vector<4xf32>
// CHECK: llvm.store %[[V]], %[[OP0]]
// CHECK: llvm.store %[[ID]], %[[OP1]]
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(337 : i32) : i32
// CHECK: %[[GOP:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[CLUSTER:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(66564 : i32) : i32
// CHECK: %[[RDESC:.*]] = llvm.mlir.constant(66564 : i32) : i32
// CHECK: llvm.call @spvb_rt_subgroup(%[[INV]], %[[OPC]], %[[GOP]], %[[CLUSTER]], %[[SITE]], %[[DESC]], %[[RDESC]], %[[OP0]], %[[OP1]], %[[RESULT]])
module {
  spirv.func @broadcast(%v: vector<4xf32>, %id: i32) -> vector<4xf32> "None" {
    %0 = spvb.subgroup 337 (%v, %id) {group_operation = -1 : i32, cluster_size = 0 : i32} : (vector<4xf32>, i32) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// OpGroupNonUniformFMax (358), ClusteredReduce (3), ClusterSize 4.
// CHECK-LABEL: llvm.func internal @clustered_fmax
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(358 : i32) : i32
// CHECK: %[[GOP:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[CLUSTER:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(67586 : i32) : i32
// CHECK: %[[RDESC:.*]] = llvm.mlir.constant(67586 : i32) : i32
// CHECK: llvm.call @spvb_rt_subgroup(%{{.*}}, %[[OPC]], %[[GOP]], %[[CLUSTER]], %[[SITE]], %[[DESC]], %[[RDESC]],
module {
  spirv.func @clustered_fmax(%v: vector<2xf64>) -> vector<2xf64> "None" {
    %0 = spvb.subgroup 358 (%v) {group_operation = 3 : i32, cluster_size = 4 : i32} : (vector<2xf64>) -> vector<2xf64>
    spirv.ReturnValue %0 : vector<2xf64>
  }
}

// -----

// Booleans cross as one byte per component: OpGroupNonUniformBallot (339)
// zero-extends its i1 operand into an i8 slot.
// CHECK-LABEL: llvm.func internal @ballot
// CHECK-SAME: %[[B:[a-z0-9]+]]: i1) -> vector<4xi32>
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x vector<4xi32>
// CHECK: %[[OP0:.*]] = llvm.alloca %{{.*}} x i8
// CHECK: %[[BYTE:.*]] = llvm.zext %[[B]] : i1 to i8
// CHECK: llvm.store %[[BYTE]], %[[OP0]] : i8, !llvm.ptr
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(131329 : i32) : i32
// CHECK: %[[RDESC:.*]] = llvm.mlir.constant(1028 : i32) : i32
// CHECK: llvm.call @spvb_rt_subgroup(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DESC]], %[[RDESC]], %[[OP0]], %{{.*}}, %[[RESULT]])
// CHECK: llvm.load %[[RESULT]] : !llvm.ptr -> vector<4xi32>
module {
  spirv.func @ballot(%b: i1) -> vector<4xi32> "None" {
    %0 = spvb.subgroup 339 (%b) {group_operation = -1 : i32, cluster_size = 0 : i32} : (i1) -> vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }
}

// -----

// A boolean vector (OpGroupNonUniformBroadcastFirst, 338) goes through a
// vector of bytes both ways.
// CHECK-LABEL: llvm.func internal @bool_vector
// CHECK-SAME: %[[B:[a-z0-9]+]]: vector<3xi1>) -> vector<3xi1>
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x vector<3xi8>
// CHECK: %[[OP0:.*]] = llvm.alloca %{{.*}} x vector<3xi8>
// CHECK: %[[BYTES:.*]] = llvm.zext %[[B]] : vector<3xi1> to vector<3xi8>
// CHECK: llvm.store %[[BYTES]], %[[OP0]]
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(131331 : i32) : i32
// CHECK: %[[RDESC:.*]] = llvm.mlir.constant(131331 : i32) : i32
// CHECK: llvm.call @spvb_rt_subgroup(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[DESC]], %[[RDESC]], %[[OP0]], %{{.*}}, %[[RESULT]])
// CHECK: %[[R8:.*]] = llvm.load %[[RESULT]] : !llvm.ptr -> vector<3xi8>
// CHECK: %[[R:.*]] = llvm.trunc %[[R8]] : vector<3xi8> to vector<3xi1>
// CHECK: llvm.return %[[R]] : vector<3xi1>
module {
  spirv.func @bool_vector(%b: vector<3xi1>) -> vector<3xi1> "None" {
    %0 = spvb.subgroup 338 (%b) {group_operation = -1 : i32, cluster_size = 0 : i32} : (vector<3xi1>) -> vector<3xi1>
    spirv.ReturnValue %0 : vector<3xi1>
  }
}

// -----

// OpGroupNonUniformElect (333) has no operands: both operand pointers are
// null and the descriptor is NONE; its bool result comes back as a byte.
// CHECK-LABEL: llvm.func internal @elect
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr) -> i1
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x i8 {alignment = 16 : i64}
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(333 : i32) : i32
// CHECK: %[[GOP:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK: %[[CLUSTER:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SITE:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(262144 : i32) : i32
// CHECK: %[[RDESC:.*]] = llvm.mlir.constant(131329 : i32) : i32
// CHECK: llvm.call @spvb_rt_subgroup(%[[INV]], %[[OPC]], %[[GOP]], %[[CLUSTER]], %[[SITE]], %[[DESC]], %[[RDESC]], %[[NULL]], %[[NULL]], %[[RESULT]])
// CHECK: %[[BYTE:.*]] = llvm.load %[[RESULT]] : !llvm.ptr -> i8
// CHECK: %[[R:.*]] = llvm.trunc %[[BYTE]] : i8 to i1
// CHECK: llvm.return %[[R]] : i1
module {
  spirv.func @elect() -> i1 "None" {
    %0 = spvb.subgroup 333 () {group_operation = -1 : i32, cluster_size = 0 : i32} : () -> i1
    spirv.ReturnValue %0 : i1
  }
}

// -----

// Slots live in the entry block, so a call in a loop does not grow the
// stack.
// CHECK-LABEL: llvm.func internal @in_loop
// CHECK-NEXT: llvm.mlir.constant(1 : i64)
// CHECK-NEXT: llvm.alloca
// CHECK-NEXT: llvm.mlir.constant(1 : i64)
// CHECK-NEXT: llvm.alloca
// CHECK: ^bb1:
// CHECK-NOT: llvm.alloca
// CHECK: llvm.call @spvb_rt_subgroup
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
module {
  spirv.func @in_loop(%x: f32, %c: i1) -> f32 "None" {
    spirv.Branch ^bb1
  ^bb1:
    %0 = spvb.subgroup 350 (%x) {group_operation = 1 : i32, cluster_size = 0 : i32} : (f32) -> f32
    spirv.BranchConditional %c, ^bb1, ^bb2
  ^bb2:
    spirv.ReturnValue %0 : f32
  }
}

// -----

// Image instructions call
//   spvb_rt_image(invocation, opcode, image_operands, result_desc,
//                 operand_count, operand_descs, operands, result)
// where operands[i] points at a slot holding the i-th id operand (images
// are pointers to the runtime's image descriptors) and operand_descs[i] is
// its type: ptr 3 << 16 | 8 << 8 | 1 = 198657, vector<2xi32> 1026.
// OpImageRead (98): result vec4 -> 66564, two operands.
!Img = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
// CHECK: llvm.func @spvb_rt_image(!llvm.ptr, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func internal @image_read
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr, %[[IMG:[a-z0-9]+]]: !llvm.ptr, %[[C:[a-z0-9]+]]: vector<2xi32>) -> vector<4xf32>
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x vector<4xf32>
// CHECK: %[[CSLOT:.*]] = llvm.alloca %{{.*}} x vector<2xi32>
// CHECK: %[[ISLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
// CHECK: %[[DESCS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x i32>
// CHECK: %[[ARRAY:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
// CHECK: llvm.store %[[IMG]], %[[ISLOT]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %[[ISLOT]], %[[ARRAY]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: %[[PDESC:.*]] = llvm.mlir.constant(198657 : i32) : i32
// CHECK: llvm.store %[[PDESC]], %[[DESCS]]
// CHECK: llvm.store %[[C]], %[[CSLOT]] : vector<2xi32>, !llvm.ptr
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: %[[E1:.*]] = llvm.getelementptr %[[ARRAY]][%[[EIGHT]]]
// CHECK: llvm.store %[[CSLOT]], %[[E1]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.mlir.constant(1026 : i32) : i32
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(98 : i32) : i32
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(66564 : i32) : i32
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @spvb_rt_image(%[[INV]], %[[OPC]], %[[MASK]], %[[DESC]], %[[COUNT]], %[[DESCS]], %[[ARRAY]], %[[RESULT]])
// CHECK: %[[R:.*]] = llvm.load %[[RESULT]] : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.return %[[R]]
module {
  spirv.func @image_read(%img: !Img, %c: vector<2xi32>) -> vector<4xf32> "None" {
    %0 = spvb.image 98 (%img, %c) {image_operands = 0 : i32} : (!Img, vector<2xi32>) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// OpImageWrite (99) has no result: a null result pointer, descriptor NONE.
!Img = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
// CHECK-LABEL: llvm.func internal @image_write
// CHECK: %[[ARRAY:.*]] = llvm.alloca %{{.*}} x !llvm.array<3 x ptr>
// CHECK: %[[SIXTEEN:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: llvm.getelementptr %[[ARRAY]][%[[SIXTEEN]]]
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(99 : i32) : i32
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(262144 : i32) : i32
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call @spvb_rt_image(%{{.*}}, %[[OPC]], %[[MASK]], %[[DESC]], %[[COUNT]], %{{.*}}, %[[ARRAY]], %[[NULL]])
// CHECK-NEXT: llvm.return
module {
  spirv.func @image_write(%img: !Img, %c: vector<2xi32>, %v: vector<4xf32>) "None" {
    spvb.image 99 (%img, %c, %v) {image_operands = 0 : i32} : (!Img, vector<2xi32>, vector<4xf32>) -> ()
    spirv.Return
  }
}

// -----

// A sampled image passes as two operands (image, sampler). OpImageSample-
// ExplicitLod (88) with the Lod (0x2) and ConstOffset (0x8) image operands:
// operands are image, sampler, coordinate, lod and offset, so the count is 5.
!Tex = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
// CHECK-LABEL: llvm.func internal @sample_offset
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr, %[[SI:[a-z0-9]+]]: !llvm.struct<(ptr, ptr)>, %[[UV:[a-z0-9]+]]: vector<2xf32>, %[[LOD:[a-z0-9]+]]: f32, %[[OFF:[a-z0-9]+]]: vector<2xi32>)
// CHECK: %[[ARRAY:.*]] = llvm.alloca %{{.*}} x !llvm.array<5 x ptr>
// CHECK: %[[I:.*]] = llvm.extractvalue %[[SI]][0] : !llvm.struct<(ptr, ptr)>
// CHECK: %[[S:.*]] = llvm.extractvalue %[[SI]][1] : !llvm.struct<(ptr, ptr)>
// CHECK: llvm.store %[[I]], %[[ISLOT:.*]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.store %[[ISLOT]], %[[ARRAY]] {alignment = 8 : i64}
// CHECK: llvm.store %[[S]], %[[SSLOT:.*]] : !llvm.ptr, !llvm.ptr
// CHECK: llvm.mlir.constant(8 : i64)
// CHECK: llvm.store %[[SSLOT]], %{{.*}} {alignment = 8 : i64}
// CHECK: llvm.store %[[UV]], %{{.*}} : vector<2xf32>, !llvm.ptr
// CHECK: llvm.mlir.constant(16 : i64)
// CHECK: llvm.store %[[LOD]], %{{.*}} : f32, !llvm.ptr
// CHECK: llvm.mlir.constant(24 : i64)
// CHECK: llvm.store %[[OFF]], %{{.*}} : vector<2xi32>, !llvm.ptr
// CHECK: llvm.mlir.constant(32 : i64)
// CHECK: %[[OPC:.*]] = llvm.mlir.constant(88 : i32) : i32
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(10 : i32) : i32
// CHECK: %[[DESC:.*]] = llvm.mlir.constant(66564 : i32) : i32
// CHECK: %[[COUNT:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: llvm.call @spvb_rt_image(%[[INV]], %[[OPC]], %[[MASK]], %[[DESC]], %[[COUNT]], %{{.*}}, %[[ARRAY]], %{{.*}})
module {
  spirv.func @sample_offset(%si: !spirv.sampled_image<!Tex>, %uv: vector<2xf32>, %lod: f32, %offset: vector<2xi32>) -> vector<4xf32> "None" {
    %0 = spvb.image 88 (%si, %uv, %lod, %offset) {image_operands = 10 : i32} : (!spirv.sampled_image<!Tex>, vector<2xf32>, f32, vector<2xi32>) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// The commonest sampling, a vec4 at a vec2 coordinate with at most bias,
// lod and gradients, passes its operands by value to spvb_rt_sample2:
// (mask, image, sampler, u, v, bias, lod, du/dx, dv/dx, du/dy, dv/dy,
// result). Here with Lod (0x2); the absent operands are zero.
!Tex = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
// CHECK-LABEL: llvm.func internal @sample
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[SI:[a-z0-9]+]]: !llvm.struct<(ptr, ptr)>, %[[UV:[a-z0-9]+]]: vector<2xf32>, %[[LOD:[a-z0-9]+]]: f32)
// CHECK: %[[RESULT:.*]] = llvm.alloca %{{.*}} x vector<4xf32>
// CHECK: %[[I:.*]] = llvm.extractvalue %[[SI]][0] : !llvm.struct<(ptr, ptr)>
// CHECK: %[[S:.*]] = llvm.extractvalue %[[SI]][1] : !llvm.struct<(ptr, ptr)>
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK: %[[U:.*]] = llvm.extractelement %[[UV]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[V:.*]] = llvm.extractelement %[[UV]][%{{.*}} : i32] : vector<2xf32>
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.call @spvb_rt_sample2(%[[MASK]], %[[I]], %[[S]], %[[U]], %[[V]], %[[ZERO]], %[[LOD]], %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[ZERO]], %[[RESULT]])
// CHECK: llvm.load %[[RESULT]] : !llvm.ptr -> vector<4xf32>
module {
  spirv.func @sample(%si: !spirv.sampled_image<!Tex>, %uv: vector<2xf32>, %lod: f32) -> vector<4xf32> "None" {
    %0 = spvb.image 88 (%si, %uv, %lod) {image_operands = 2 : i32} : (!spirv.sampled_image<!Tex>, vector<2xf32>, f32) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// OpImage (100) takes the image out of a sampled image; OpSampledImage (86)
// pairs them again: neither needs the runtime.
!Tex = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
// No runtime function is declared (declarations go first in the module):
// CHECK: module {
// CHECK-NEXT: llvm.func internal @unpair_pair
// CHECK-SAME: %[[SI:[a-z0-9]+]]: !llvm.struct<(ptr, ptr)>)
// CHECK-NEXT: %[[I:.*]] = llvm.extractvalue %[[SI]][0] : !llvm.struct<(ptr, ptr)>
// CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr)>
// CHECK-NEXT: %[[P0:.*]] = llvm.insertvalue %[[I]], %[[P]][0]
// CHECK-NEXT: %[[P1:.*]] = llvm.insertvalue %[[I]], %[[P0]][1]
// CHECK-NEXT: llvm.return %[[P1]]
module {
  spirv.func @unpair_pair(%si: !spirv.sampled_image<!Tex>) -> !spirv.sampled_image<!Tex> "None" {
    %img = spvb.image 100 (%si) {image_operands = 0 : i32} : (!spirv.sampled_image<!Tex>) -> !Tex
    %0 = spvb.image 86 (%img, %img) {image_operands = 0 : i32} : (!Tex, !Tex) -> !spirv.sampled_image<!Tex>
    spirv.ReturnValue %0 : !spirv.sampled_image<!Tex>
  }
}

// -----

// Images live in the binding table itself: the variable's address is its
// entry (bindings + 16 * slot) and loading it reads the entry's base, the
// runtime's image descriptor. A combined image sampler pairs that
// descriptor with its `sampler` field (offsetof(spvb_image, sampler) = 40).
// (0,0) is slot 0, (0,1) slot 1.
!Img = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NoSampler, Rgba32f>
!Tex = !spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>
// CHECK-LABEL: llvm.func internal @load_descriptors
// CHECK: %[[T:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[T2:.*]] = llvm.load %{{.*}} invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[S1:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[E1:.*]] = llvm.getelementptr %[[T2]][%[[S1]]]
// CHECK: %[[IMG:.*]] = llvm.load %[[T]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[DESC:.*]] = llvm.load %[[E1]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[FORTY:.*]] = llvm.mlir.constant(40 : i64) : i64
// CHECK: %[[FIELD:.*]] = llvm.getelementptr %[[DESC]][%[[FORTY]]]
// CHECK: %[[SMP:.*]] = llvm.load %[[FIELD]] {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr)>
// CHECK: %[[P0:.*]] = llvm.insertvalue %[[DESC]], %[[P]][0]
// CHECK: %[[P1:.*]] = llvm.insertvalue %[[SMP]], %[[P0]][1]
// CHECK: llvm.store %[[IMG]], %{{.*}} : !llvm.ptr, !llvm.ptr
module {
  spirv.GlobalVariable @image bind(0, 0) : !spirv.ptr<!Img, UniformConstant>
  spirv.GlobalVariable @texture bind(0, 1) : !spirv.ptr<!spirv.sampled_image<!Tex>, UniformConstant>
  spirv.func @load_descriptors(%c: vector<2xi32>) -> vector<4xf32> "None" {
    %pi = spirv.mlir.addressof @image : !spirv.ptr<!Img, UniformConstant>
    %pt = spirv.mlir.addressof @texture : !spirv.ptr<!spirv.sampled_image<!Tex>, UniformConstant>
    %img = spirv.Load "UniformConstant" %pi : !Img
    %tex = spirv.Load "UniformConstant" %pt : !spirv.sampled_image<!Tex>
    %0 = spvb.image 98 (%img, %c) {image_operands = 0 : i32} : (!Img, vector<2xi32>) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// The upstream subgroup ops are not lowered (the deserializer builds
// spvb.subgroup): the error names the op and its location.
// ERR: runtime-calls.mlir:[[@LINE+2]]:1: error: <input>: {{.*}}runtime-calls.mlir:[[@LINE+4]]:10: failed to legalize operation 'spirv.GroupNonUniformElect'
// expected-error-re @+1 {{<input>: {{.*}}: failed to legalize operation 'spirv.GroupNonUniformElect'}}
module {
  spirv.func @upstream_elect() -> i1 "None" {
    %0 = spirv.GroupNonUniformElect <Subgroup> : i1
    spirv.ReturnValue %0 : i1
  }
}
