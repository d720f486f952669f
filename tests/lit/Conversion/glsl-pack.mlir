// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// GLSL.std.450 packing. Component 0 goes to the least significant bits,
// assembled with shifts rather than a bitcast so the host's byte order does
// not matter.

// Snorm: roundeven(clamp(v, -1, 1) * 127); the saturating conversion turns
// a NaN that gets through maxnum/minnum into 0 instead of poison.
// CHECK-LABEL: llvm.func internal @pack_snorm4x8
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<4xf32>
// CHECK-DAG: %[[LO:.*]] = llvm.mlir.constant(dense<-1.000000e+00> : vector<4xf32>)
// CHECK-DAG: %[[HI:.*]] = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>)
// CHECK: %[[UP:.*]] = llvm.intr.maxnum(%[[V]], %[[LO]])
// CHECK: %[[C:.*]] = llvm.intr.minnum(%[[UP]], %[[HI]])
// CHECK: %[[SCALE:.*]] = llvm.mlir.constant(dense<1.270000e+02> : vector<4xf32>)
// CHECK: %[[S:.*]] = llvm.fmul %[[C]], %[[SCALE]]
// CHECK: %[[R:.*]] = llvm.intr.roundeven(%[[S]])
// CHECK: %[[B:.*]] = llvm.call_intrinsic "llvm.fptosi.sat"(%[[R]]) : (vector<4xf32>) -> vector<4xi8>
// CHECK: %[[B0:.*]] = llvm.extractelement %[[B]]
// CHECK: %[[W0:.*]] = llvm.zext %[[B0]] : i8 to i32
// CHECK: %[[B1:.*]] = llvm.extractelement %[[B]]
// CHECK: %[[W1:.*]] = llvm.zext %[[B1]] : i8 to i32
// CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32)
// CHECK: %[[S1:.*]] = llvm.shl %[[W1]], %[[EIGHT]]
// CHECK: %[[P01:.*]] = llvm.or %[[W0]], %[[S1]]
// CHECK: llvm.mlir.constant(16 : i32)
// CHECK: llvm.mlir.constant(24 : i32)
// CHECK: %[[P:.*]] = llvm.or
// CHECK: llvm.return %[[P]] : i32
spirv.module Logical GLSL450 {
  spirv.func @pack_snorm4x8(%v: vector<4xf32>) -> i32 "None" {
    %0 = spirv.GL.PackSnorm4x8 %v : vector<4xf32> -> i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// CHECK-LABEL: llvm.func internal @pack_norm
// CHECK: llvm.mlir.constant(dense<0.000000e+00> : vector<4xf32>)
// CHECK: llvm.mlir.constant(dense<2.550000e+02> : vector<4xf32>)
// CHECK: llvm.call_intrinsic "llvm.fptoui.sat"(%{{.*}}) : (vector<4xf32>) -> vector<4xi8>
// CHECK: llvm.mlir.constant(dense<3.276700e+04> : vector<2xf32>)
// CHECK: llvm.call_intrinsic "llvm.fptosi.sat"(%{{.*}}) : (vector<2xf32>) -> vector<2xi16>
// CHECK: llvm.mlir.constant(dense<6.553500e+04> : vector<2xf32>)
// CHECK: llvm.call_intrinsic "llvm.fptoui.sat"(%{{.*}}) : (vector<2xf32>) -> vector<2xi16>
// CHECK: llvm.zext %{{.*}} : i16 to i32
module {
  spirv.func @pack_norm(%v4: vector<4xf32>, %v2: vector<2xf32>) "None" {
    %0 = spvb.glsl 55 (%v4) : (vector<4xf32>) -> i32
    %1 = spvb.glsl 56 (%v2) : (vector<2xf32>) -> i32
    %2 = spvb.glsl 57 (%v2) : (vector<2xf32>) -> i32
    spirv.Return
  }
}

// -----

// CHECK-LABEL: llvm.func internal @pack_half
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<2xf32>
// CHECK: %[[H:.*]] = llvm.fptrunc %[[V]] : vector<2xf32> to vector<2xf16>
// CHECK: %[[B:.*]] = llvm.bitcast %[[H]] : vector<2xf16> to vector<2xi16>
// CHECK: llvm.extractelement %[[B]]
// CHECK: llvm.zext %{{.*}} : i16 to i32
// CHECK: llvm.shl
// CHECK: llvm.or
spirv.module Logical GLSL450 {
  spirv.func @pack_half(%v: vector<2xf32>) -> i32 "None" {
    %0 = spirv.GL.PackHalf2x16 %v : vector<2xf32> -> i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// CHECK-LABEL: llvm.func internal @pack_double
// CHECK: llvm.zext %{{.*}} : i32 to i64
// CHECK: llvm.zext %{{.*}} : i32 to i64
// CHECK: llvm.mlir.constant(32 : i64)
// CHECK: %[[BITS:.*]] = llvm.or
// CHECK: llvm.bitcast %[[BITS]] : i64 to f64
module {
  spirv.func @pack_double(%v: vector<2xi32>) -> f64 "None" {
    %0 = spvb.glsl 59 (%v) : (vector<2xi32>) -> f64
    spirv.ReturnValue %0 : f64
  }
}

// -----

// Unpack snorm: clamp(component / 127, -1, 1).
// CHECK-LABEL: llvm.func internal @unpack_snorm4x8
// CHECK-SAME: %[[W:[a-z0-9]+]]: i32
// CHECK: %[[T0:.*]] = llvm.trunc %[[W]] : i32 to i8
// CHECK: %[[V0:.*]] = llvm.insertelement %[[T0]]
// CHECK: %[[S1:.*]] = llvm.lshr %[[W]], %{{.*}} : i32
// CHECK: llvm.trunc %[[S1]] : i32 to i8
// CHECK: %[[PARTS:.*]] = llvm.insertelement
// CHECK: llvm.insertelement
// CHECK: %[[PARTS:.*]] = llvm.insertelement
// CHECK: %[[F:.*]] = llvm.sitofp %[[PARTS]] : vector<4xi8> to vector<4xf32>
// CHECK: %[[D:.*]] = llvm.mlir.constant(dense<1.270000e+02> : vector<4xf32>)
// CHECK: %[[Q:.*]] = llvm.fdiv %[[F]], %[[D]]
// CHECK: %[[UP:.*]] = llvm.intr.maxnum(%[[Q]], %{{.*}})
// CHECK: llvm.intr.minnum(%[[UP]], %{{.*}})
spirv.module Logical GLSL450 {
  spirv.func @unpack_snorm4x8(%w: i32) -> vector<4xf32> "None" {
    %0 = spirv.GL.UnpackSnorm4x8 %w : i32 -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// Unpack unorm: component / 255 (or / 65535), no clamp needed.
// CHECK-LABEL: llvm.func internal @unpack_norm
// CHECK: %[[F:.*]] = llvm.uitofp %{{.*}} : vector<4xi8> to vector<4xf32>
// CHECK: %[[D:.*]] = llvm.mlir.constant(dense<2.550000e+02> : vector<4xf32>)
// CHECK: llvm.fdiv %[[F]], %[[D]]
// CHECK-NOT: maxnum
// CHECK: llvm.sitofp %{{.*}} : vector<2xi16> to vector<2xf32>
// CHECK: llvm.mlir.constant(dense<3.276700e+04> : vector<2xf32>)
// CHECK: llvm.intr.maxnum
// CHECK: llvm.intr.minnum
// CHECK: llvm.uitofp %{{.*}} : vector<2xi16> to vector<2xf32>
// CHECK: llvm.mlir.constant(dense<6.553500e+04> : vector<2xf32>)
// CHECK-NOT: maxnum
// CHECK: llvm.return
module {
  spirv.func @unpack_norm(%w: i32) "None" {
    %0 = spvb.glsl 64 (%w) : (i32) -> vector<4xf32>
    %1 = spvb.glsl 60 (%w) : (i32) -> vector<2xf32>
    %2 = spvb.glsl 61 (%w) : (i32) -> vector<2xf32>
    spirv.Return
  }
}

// -----

// CHECK-LABEL: llvm.func internal @unpack_half
// CHECK: llvm.insertelement %{{.*}} : vector<2xi16>
// CHECK: %[[PARTS:.*]] = llvm.insertelement %{{.*}} : vector<2xi16>
// CHECK: %[[H:.*]] = llvm.bitcast %[[PARTS]] : vector<2xi16> to vector<2xf16>
// CHECK: llvm.fpext %[[H]] : vector<2xf16> to vector<2xf32>
spirv.module Logical GLSL450 {
  spirv.func @unpack_half(%w: i32) -> vector<2xf32> "None" {
    %0 = spirv.GL.UnpackHalf2x16 %w : i32 -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// CHECK-LABEL: llvm.func internal @unpack_double
// CHECK-SAME: %[[D:[a-z0-9]+]]: f64
// CHECK: %[[BITS:.*]] = llvm.bitcast %[[D]] : f64 to i64
// CHECK: %[[LOW:.*]] = llvm.trunc %[[BITS]] : i64 to i32
// CHECK: llvm.insertelement %[[LOW]]
// CHECK: %[[THIRTYTWO:.*]] = llvm.mlir.constant(32 : i64)
// CHECK: %[[S:.*]] = llvm.lshr %[[BITS]], %[[THIRTYTWO]]
// CHECK: %[[HIGH:.*]] = llvm.trunc %[[S]] : i64 to i32
// CHECK: llvm.insertelement %[[HIGH]]
module {
  spirv.func @unpack_double(%d: f64) -> vector<2xi32> "None" {
    %0 = spvb.glsl 65 (%d) : (f64) -> vector<2xi32>
    spirv.ReturnValue %0 : vector<2xi32>
  }
}
