// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Matrices are arrays of column vectors. Products are sums of products from
// index 0 up: column-wise vector fmul/fadd keep exactly that order for every
// component, and nothing is fused into an fma.

// CHECK-LABEL: llvm.func internal @matrix_times_scalar
// CHECK-SAME: %[[M:[a-z0-9]+]]: !llvm.array<2 x vector<3xf32>>, %[[S:[a-z0-9]+]]: f32
// CHECK: %[[INS:.*]] = llvm.insertelement %[[S]]
// CHECK: %[[SPLAT:.*]] = llvm.shufflevector %[[INS]], %{{.*}} [0, 0, 0]
// CHECK: %[[C0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK: %[[P0:.*]] = llvm.fmul %[[C0]], %[[SPLAT]] : vector<3xf32>
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[P0]], %{{.*}}[0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %[[M]][1]
// CHECK: %[[P1:.*]] = llvm.fmul %[[C1]], %[[SPLAT]] : vector<3xf32>
// CHECK: llvm.insertvalue %[[P1]], %[[R0]][1]
spirv.module Logical GLSL450 {
  spirv.func @matrix_times_scalar(%m: !spirv.matrix<2 x vector<3xf32>>, %s: f32) -> !spirv.matrix<2 x vector<3xf32>> "None" {
    %0 = spirv.MatrixTimesScalar %m, %s : !spirv.matrix<2 x vector<3xf32>>, f32
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<3xf32>>
  }
}

// -----

// M * v = column 0 * v[0] + column 1 * v[1] + ...
// CHECK-LABEL: llvm.func internal @matrix_times_vector
// CHECK-SAME: %[[M:[a-z0-9]+]]: !llvm.array<3 x vector<2xf32>>, %[[V:[a-z0-9]+]]: vector<3xf32>
// CHECK: %[[C0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK: %[[V0:.*]] = llvm.extractelement %[[V]]
// CHECK: %[[S0:.*]] = llvm.shufflevector %{{.*}} [0, 0] : vector<2xf32>
// CHECK: %[[P0:.*]] = llvm.fmul %[[C0]], %[[S0]]
// CHECK: %[[C1:.*]] = llvm.extractvalue %[[M]][1]
// CHECK: %[[P1:.*]] = llvm.fmul %[[C1]], %{{.*}}
// CHECK: %[[A1:.*]] = llvm.fadd %[[P0]], %[[P1]]
// CHECK: %[[C2:.*]] = llvm.extractvalue %[[M]][2]
// CHECK: %[[P2:.*]] = llvm.fmul %[[C2]], %{{.*}}
// CHECK: %[[A2:.*]] = llvm.fadd %[[A1]], %[[P2]]
// CHECK: llvm.return %[[A2]] : vector<2xf32>
spirv.module Logical GLSL450 {
  spirv.func @matrix_times_vector(%m: !spirv.matrix<3 x vector<2xf32>>, %v: vector<3xf32>) -> vector<2xf32> "None" {
    %0 = spirv.MatrixTimesVector %m, %v : !spirv.matrix<3 x vector<2xf32>>, vector<3xf32> -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// v * M: component c is dot(v, column c), summed from component 0.
// CHECK-LABEL: llvm.func internal @vector_times_matrix
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<2xf32>, %[[M:[a-z0-9]+]]: !llvm.array<3 x vector<2xf32>>
// CHECK: %[[C0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK: %[[P0:.*]] = llvm.fmul %[[V]], %[[C0]] : vector<2xf32>
// CHECK: %[[E0:.*]] = llvm.extractelement %[[P0]]
// CHECK: %[[E1:.*]] = llvm.extractelement %[[P0]]
// CHECK: %[[D0:.*]] = llvm.fadd %[[E0]], %[[E1]] : f32
// CHECK: %[[R0:.*]] = llvm.insertelement %[[D0]], %{{.*}} : vector<3xf32>
// CHECK: llvm.extractvalue %[[M]][1]
// CHECK: llvm.insertelement %{{.*}}, %[[R0]]
// CHECK: llvm.extractvalue %[[M]][2]
// CHECK: %[[R2:.*]] = llvm.insertelement
// CHECK: llvm.return %[[R2]] : vector<3xf32>
spirv.module Logical GLSL450 {
  spirv.func @vector_times_matrix(%v: vector<2xf32>, %m: !spirv.matrix<3 x vector<2xf32>>) -> vector<3xf32> "None" {
    %0 = spirv.VectorTimesMatrix %v, %m : vector<2xf32>, !spirv.matrix<3 x vector<2xf32>> -> vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }
}

// -----

// A (3x2) * B (2x4): column c of the result is A * (column c of B).
// CHECK-LABEL: llvm.func internal @matrix_times_matrix
// CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.array<2 x vector<3xf32>>, %[[B:[a-z0-9]+]]: !llvm.array<4 x vector<2xf32>>
// CHECK: %[[RESULT:.*]] = llvm.mlir.poison : !llvm.array<4 x vector<3xf32>>
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[B]][0]
// CHECK: %[[A0:.*]] = llvm.extractvalue %[[A]][0]
// CHECK: llvm.extractelement %[[B0]]
// CHECK: %[[P0:.*]] = llvm.fmul %[[A0]], %{{.*}} : vector<3xf32>
// CHECK: %[[A1:.*]] = llvm.extractvalue %[[A]][1]
// CHECK: llvm.extractelement %[[B0]]
// CHECK: %[[P1:.*]] = llvm.fmul %[[A1]], %{{.*}} : vector<3xf32>
// CHECK: %[[COL0:.*]] = llvm.fadd %[[P0]], %[[P1]] : vector<3xf32>
// CHECK: llvm.insertvalue %[[COL0]], %[[RESULT]][0]
// CHECK: llvm.extractvalue %[[B]][3]
// CHECK: %[[LAST:.*]] = llvm.insertvalue %{{.*}}[3]
// CHECK: llvm.return %[[LAST]] : !llvm.array<4 x vector<3xf32>>
spirv.module Logical GLSL450 {
  spirv.func @matrix_times_matrix(%a: !spirv.matrix<2 x vector<3xf32>>, %b: !spirv.matrix<4 x vector<2xf32>>) -> !spirv.matrix<4 x vector<3xf32>> "None" {
    %0 = spirv.MatrixTimesMatrix %a, %b : !spirv.matrix<2 x vector<3xf32>>, !spirv.matrix<4 x vector<2xf32>> -> !spirv.matrix<4 x vector<3xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<4 x vector<3xf32>>
  }
}

// -----

// Component r of result column c is component c of column r.
// CHECK-LABEL: llvm.func internal @transpose
// CHECK-SAME: %[[M:[a-z0-9]+]]: !llvm.array<2 x vector<3xf16>>
// CHECK: %[[C0:.*]] = llvm.extractvalue %[[M]][0]
// CHECK: %[[C1:.*]] = llvm.extractvalue %[[M]][1]
// CHECK: llvm.mlir.poison : !llvm.array<3 x vector<2xf16>>
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK: %[[M00:.*]] = llvm.extractelement %[[C0]][%[[ZERO]] : i32]
// CHECK: %[[T0:.*]] = llvm.insertelement %[[M00]]
// CHECK: %[[M10:.*]] = llvm.extractelement %[[C1]][%{{.*}} : i32]
// CHECK: %[[T1:.*]] = llvm.insertelement %[[M10]], %[[T0]]
// CHECK: llvm.insertvalue %[[T1]], %{{.*}}[0]
// CHECK-COUNT-4: llvm.extractelement
// CHECK: %[[LAST:.*]] = llvm.insertvalue %{{.*}}[2]
// CHECK: llvm.return %[[LAST]] : !llvm.array<3 x vector<2xf16>>
spirv.module Logical GLSL450 {
  spirv.func @transpose(%m: !spirv.matrix<2 x vector<3xf16>>) -> !spirv.matrix<3 x vector<2xf16>> "None" {
    %0 = spirv.Transpose %m : !spirv.matrix<2 x vector<3xf16>> -> !spirv.matrix<3 x vector<2xf16>>
    spirv.ReturnValue %0 : !spirv.matrix<3 x vector<2xf16>>
  }
}

// -----

// OuterProduct(column, row): column j of the result is column * row[j].
// CHECK-LABEL: llvm.func internal @outer_product
// CHECK-SAME: %[[C:[a-z0-9]+]]: vector<2xf32>, %[[R:[a-z0-9]+]]: vector<3xf32>
// CHECK: %[[R0:.*]] = llvm.extractelement %[[R]]
// CHECK: llvm.insertelement %[[R0]]
// CHECK: %[[S0:.*]] = llvm.shufflevector %{{.*}} [0, 0] : vector<2xf32>
// CHECK: %[[P0:.*]] = llvm.fmul %[[C]], %[[S0]] : vector<2xf32>
// CHECK: llvm.insertvalue %[[P0]], %{{.*}}[0] : !llvm.array<3 x vector<2xf32>>
// CHECK: llvm.fmul %[[C]]
// CHECK: llvm.fmul %[[C]]
// CHECK: llvm.insertvalue %{{.*}}[2] : !llvm.array<3 x vector<2xf32>>
module {
  spirv.func @outer_product(%c: vector<2xf32>, %r: vector<3xf32>) -> !spirv.matrix<3 x vector<2xf32>> "None" {
    %0 = spvb.outer_product %c, %r : vector<2xf32>, vector<3xf32> -> !spirv.matrix<3 x vector<2xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<3 x vector<2xf32>>
  }
}
