// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// GLSL.std.450 geometric and matrix functions. Dot products are summed from
// component 0 with scalar adds: the same order as an ordered reduction, but
// LLVM can constant-fold it.

// CHECK-LABEL: llvm.func internal @length
// CHECK-SAME: %[[S:[a-z0-9]+]]: f32, %[[V:[a-z0-9]+]]: vector<3xf32>
// CHECK: llvm.intr.fabs(%[[S]]) : (f32) -> f32
// CHECK: %[[SQ:.*]] = llvm.fmul %[[V]], %[[V]] : vector<3xf32>
// CHECK: %[[E0:.*]] = llvm.extractelement %[[SQ]][%{{.*}} : i32]
// CHECK: %[[E1:.*]] = llvm.extractelement %[[SQ]][%{{.*}} : i32]
// CHECK: %[[S01:.*]] = llvm.fadd %[[E0]], %[[E1]] : f32
// CHECK: %[[E2:.*]] = llvm.extractelement %[[SQ]][%{{.*}} : i32]
// CHECK: %[[S012:.*]] = llvm.fadd %[[S01]], %[[E2]] : f32
// CHECK: llvm.intr.sqrt(%[[S012]]) : (f32) -> f32
spirv.module Logical GLSL450 {
  spirv.func @length(%s: f32, %v: vector<3xf32>) "None" {
    %0 = spirv.GL.Length %s : f32 -> f32
    %1 = spirv.GL.Length %v : vector<3xf32> -> f32
    spirv.Return
  }
}

// -----

// CHECK-LABEL: llvm.func internal @distance
// CHECK-SAME: %[[A:[a-z0-9]+]]: vector<2xf32>, %[[B:[a-z0-9]+]]: vector<2xf32>
// CHECK: %[[D:.*]] = llvm.fsub %[[A]], %[[B]] : vector<2xf32>
// CHECK: llvm.fmul %[[D]], %[[D]]
// CHECK: llvm.intr.sqrt
spirv.module Logical GLSL450 {
  spirv.func @distance(%a: vector<2xf32>, %b: vector<2xf32>) -> f32 "None" {
    %0 = spirv.GL.Distance %a, %b : vector<2xf32>, vector<2xf32> -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// cross(x, y) = x.yzx * y.zxy - x.zxy * y.yzx.
// CHECK-LABEL: llvm.func internal @cross
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<3xf32>, %[[Y:[a-z0-9]+]]: vector<3xf32>
// CHECK: %[[X1:.*]] = llvm.shufflevector %[[X]], %[[X]] [1, 2, 0]
// CHECK: %[[Y1:.*]] = llvm.shufflevector %[[Y]], %[[Y]] [2, 0, 1]
// CHECK: %[[X2:.*]] = llvm.shufflevector %[[X]], %[[X]] [2, 0, 1]
// CHECK: %[[Y2:.*]] = llvm.shufflevector %[[Y]], %[[Y]] [1, 2, 0]
// CHECK: %[[L:.*]] = llvm.fmul %[[X1]], %[[Y1]]
// CHECK: %[[R:.*]] = llvm.fmul %[[X2]], %[[Y2]]
// CHECK: llvm.fsub %[[L]], %[[R]] : vector<3xf32>
spirv.module Logical GLSL450 {
  spirv.func @cross(%x: vector<3xf32>, %y: vector<3xf32>) -> vector<3xf32> "None" {
    %0 = spirv.GL.Cross %x, %y : vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }
}

// -----

// CHECK-LABEL: llvm.func internal @normalize
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<4xf16>
// CHECK: %[[LEN:.*]] = llvm.intr.sqrt(%{{.*}}) : (f16) -> f16
// CHECK: %[[INS:.*]] = llvm.insertelement %[[LEN]]
// CHECK: %[[SPLAT:.*]] = llvm.shufflevector %[[INS]], %{{.*}} [0, 0, 0, 0]
// CHECK: llvm.fdiv %[[X]], %[[SPLAT]] : vector<4xf16>
spirv.module Logical GLSL450 {
  spirv.func @normalize(%x: vector<4xf16>) -> vector<4xf16> "None" {
    %0 = spirv.GL.Normalize %x : vector<4xf16>
    spirv.ReturnValue %0 : vector<4xf16>
  }
}

// -----

// FaceForward(N, I, Nref) = dot(Nref, I) < 0 ? N : -N.
// CHECK-LABEL: llvm.func internal @faceforward
// CHECK-SAME: %[[N:[a-z0-9]+]]: vector<2xf32>, %[[I:[a-z0-9]+]]: vector<2xf32>, %[[NREF:[a-z0-9]+]]: vector<2xf32>
// CHECK: llvm.fmul %[[NREF]], %[[I]]
// CHECK: %[[DOT:.*]] = llvm.fadd
// CHECK: %[[LT:.*]] = llvm.fcmp "olt" %[[DOT]], %{{.*}} : f32
// CHECK: %[[NEG:.*]] = llvm.fneg %[[N]]
// CHECK: llvm.select %[[LT]], %[[N]], %[[NEG]] : i1, vector<2xf32>
module {
  spirv.func @faceforward(%n: vector<2xf32>, %i: vector<2xf32>, %nref: vector<2xf32>) -> vector<2xf32> "None" {
    %0 = spvb.glsl 70 (%n, %i, %nref) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// Reflect(I, N) = I - 2 * dot(N, I) * N.
// CHECK-LABEL: llvm.func internal @reflect
// CHECK-SAME: %[[I:[a-z0-9]+]]: vector<2xf32>, %[[N:[a-z0-9]+]]: vector<2xf32>
// CHECK: llvm.fmul %[[N]], %[[I]]
// CHECK: %[[DOT:.*]] = llvm.fadd
// CHECK: %[[TWO:.*]] = llvm.mlir.constant(2.000000e+00 : f32)
// CHECK: %[[T:.*]] = llvm.fmul %[[DOT]], %[[TWO]] : f32
// CHECK: llvm.insertelement %[[T]]
// CHECK: %[[SPLAT:.*]] = llvm.shufflevector
// CHECK: %[[P:.*]] = llvm.fmul %[[SPLAT]], %[[N]]
// CHECK: llvm.fsub %[[I]], %[[P]] : vector<2xf32>
spirv.module Logical GLSL450 {
  spirv.func @reflect(%i: vector<2xf32>, %n: vector<2xf32>) -> vector<2xf32> "None" {
    %0 = spirv.GL.Reflect %i, %n : vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// Refract: k = 1 - eta * eta * (1 - d * d), d = dot(N, I);
// k < 0 ? 0 : eta * I - (eta * d + sqrt(k)) * N. A 16-bit eta is extended
// to the component type.
// CHECK-LABEL: llvm.func internal @refract
// CHECK-SAME: %[[I:[a-z0-9]+]]: vector<3xf32>, %[[N:[a-z0-9]+]]: vector<3xf32>, %[[ETA16:[a-z0-9]+]]: f16
// CHECK: %[[ETA:.*]] = llvm.fpext %[[ETA16]] : f16 to f32
// CHECK: llvm.fmul %[[N]], %[[I]]
// CHECK: llvm.fadd
// CHECK: %[[D:.*]] = llvm.fadd
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32)
// CHECK: %[[D2:.*]] = llvm.fmul %[[D]], %[[D]]
// CHECK: %[[C:.*]] = llvm.fsub %[[ONE]], %[[D2]]
// CHECK: %[[E2:.*]] = llvm.fmul %[[ETA]], %[[ETA]]
// CHECK: %[[P:.*]] = llvm.fmul %[[E2]], %[[C]]
// CHECK: %[[K:.*]] = llvm.fsub %[[ONE]], %[[P]]
// CHECK: %[[ROOT:.*]] = llvm.intr.sqrt(%[[K]])
// CHECK: %[[ED:.*]] = llvm.fmul %[[ETA]], %[[D]]
// CHECK: %[[SUM:.*]] = llvm.fadd %[[ED]], %[[ROOT]]
// CHECK: %[[SI:.*]] = llvm.fmul %{{.*}}, %[[I]] : vector<3xf32>
// CHECK: %[[SN:.*]] = llvm.fmul %{{.*}}, %[[N]] : vector<3xf32>
// CHECK: %[[R:.*]] = llvm.fsub %[[SI]], %[[SN]]
// CHECK: %[[TIR:.*]] = llvm.fcmp "olt" %[[K]], %{{.*}} : f32
// CHECK: %[[ZEROS:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<3xf32>)
// CHECK: llvm.select %[[TIR]], %[[ZEROS]], %[[R]] : i1, vector<3xf32>
module {
  spirv.func @refract(%i: vector<3xf32>, %n: vector<3xf32>, %eta: f16) -> vector<3xf32> "None" {
    %0 = spvb.glsl 72 (%i, %n, %eta) : (vector<3xf32>, vector<3xf32>, f16) -> vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }
}

// -----

// Determinant by cofactor expansion along column 0; m[c][r] is component r
// of column c. 2x2: m00 * m11 - m01 * m10.
// CHECK-LABEL: llvm.func internal @determinant2
// CHECK: %[[C0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<2xf32>>
// CHECK: %[[M00:.*]] = llvm.extractelement %[[C0]]
// CHECK: %[[M01:.*]] = llvm.extractelement %[[C0]]
// CHECK: %[[C1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<2xf32>>
// CHECK: %[[M10:.*]] = llvm.extractelement %[[C1]]
// CHECK: %[[M11:.*]] = llvm.extractelement %[[C1]]
// CHECK: %[[A:.*]] = llvm.fmul %[[M00]], %[[M11]]
// CHECK: %[[B:.*]] = llvm.fmul %[[M01]], %[[M10]]
// CHECK: %[[DET:.*]] = llvm.fsub %[[A]], %[[B]]
// CHECK: llvm.return %[[DET]]
module {
  spirv.func @determinant2(%m: !spirv.matrix<2 x vector<2xf32>>) -> f32 "None" {
    %0 = spvb.glsl 33 (%m) : (!spirv.matrix<2 x vector<2xf32>>) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// 3x3: m00 * (m11 m22 - m12 m21) - m01 * (m10 m22 - m12 m20)
//      + m02 * (m10 m21 - m11 m20).
// CHECK-LABEL: llvm.func internal @determinant3
// CHECK-COUNT-9: llvm.extractelement
// CHECK-COUNT-3: llvm.fsub
// CHECK: llvm.fadd
// CHECK-NOT: llvm.f
// CHECK: llvm.return
module {
  spirv.func @determinant3(%m: !spirv.matrix<3 x vector<3xf64>>) -> f64 "None" {
    %0 = spvb.glsl 33 (%m) : (!spirv.matrix<3 x vector<3xf64>>) -> f64
    spirv.ReturnValue %0 : f64
  }
}

// -----

// Inverse of a 2x2: the transposed cofactors divided by the determinant,
// which is expanded along column 0 with the same cofactors.
// CHECK-LABEL: llvm.func internal @inverse2
// CHECK: %[[M00:.*]] = llvm.extractelement
// CHECK: %[[M01:.*]] = llvm.extractelement
// CHECK: %[[M10:.*]] = llvm.extractelement
// CHECK: %[[M11:.*]] = llvm.extractelement
// CHECK: %[[NM10:.*]] = llvm.fneg %[[M10]]
// CHECK: %[[NM01:.*]] = llvm.fneg %[[M01]]
// CHECK: %[[A:.*]] = llvm.fmul %[[M00]], %[[M11]]
// CHECK: %[[B:.*]] = llvm.fmul %[[M01]], %[[NM10]]
// CHECK: %[[DET:.*]] = llvm.fadd %[[A]], %[[B]]
// CHECK: llvm.fdiv %[[M11]], %[[DET]]
// CHECK: llvm.fdiv %[[NM01]], %[[DET]]
// CHECK: llvm.insertvalue %{{.*}}[0]
// CHECK: llvm.fdiv %[[NM10]], %[[DET]]
// CHECK: llvm.fdiv %[[M00]], %[[DET]]
// CHECK: llvm.insertvalue %{{.*}}[1]
module {
  spirv.func @inverse2(%m: !spirv.matrix<2 x vector<2xf32>>) -> !spirv.matrix<2 x vector<2xf32>> "None" {
    %0 = spvb.glsl 34 (%m) : (!spirv.matrix<2 x vector<2xf32>>) -> !spirv.matrix<2 x vector<2xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<2xf32>>
  }
}

// -----

// CHECK-LABEL: llvm.func internal @inverse4
// CHECK-COUNT-16: llvm.fdiv
// CHECK-NOT: llvm.fdiv
// CHECK: llvm.return %{{.*}} : !llvm.array<4 x vector<4xf32>>
module {
  spirv.func @inverse4(%m: !spirv.matrix<4 x vector<4xf32>>) -> !spirv.matrix<4 x vector<4xf32>> "None" {
    %0 = spvb.glsl 34 (%m) : (!spirv.matrix<4 x vector<4xf32>>) -> !spirv.matrix<4 x vector<4xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<4 x vector<4xf32>>
  }
}
