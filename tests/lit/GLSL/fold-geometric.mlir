// RUN: spvb-opt --spvb-lower-to-llvm %s | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -S -passes='function(instcombine,early-cse,instcombine)' \
// RUN:   | FileCheck %s

// GLSL.std.450 geometry and matrix functions on constants, folded by LLVM
// and compared with values worked out by hand. Matrices are built from
// columns: column c holds row entries (M[0][c], M[1][c], ...).

module {
  // length(3, 4) = 5, length(-2.5) = 2.5, distance((1, 1), (4, 5)) = 5.
  // CHECK-LABEL: define internal <3 x float> @lengths(
  // CHECK-NEXT: ret <3 x float> <float 5.000000e+00, float 2.500000e+00, float 5.000000e+00>
  spirv.func @lengths() -> vector<3xf32> "None" {
    %v = spirv.Constant dense<[3.0, 4.0]> : vector<2xf32>
    %s = spirv.Constant -2.5 : f32
    %p = spirv.Constant dense<[1.0, 1.0]> : vector<2xf32>
    %q = spirv.Constant dense<[4.0, 5.0]> : vector<2xf32>
    %0 = spirv.GL.Length %v : vector<2xf32> -> f32
    %1 = spirv.GL.Length %s : f32 -> f32
    %2 = spirv.GL.Distance %p, %q : vector<2xf32>, vector<2xf32> -> f32
    %r = spirv.CompositeConstruct %0, %1, %2 : (f32, f32, f32) -> vector<3xf32>
    spirv.ReturnValue %r : vector<3xf32>
  }

  // (1, 2, 3) x (4, 5, 6) = (2*6 - 3*5, 3*4 - 1*6, 1*5 - 2*4).
  // CHECK-LABEL: define internal <3 x float> @cross(
  // CHECK-NEXT: ret <3 x float> <float -3.000000e+00, float 6.000000e+00, float -3.000000e+00>
  spirv.func @cross() -> vector<3xf32> "None" {
    %x = spirv.Constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
    %y = spirv.Constant dense<[4.0, 5.0, 6.0]> : vector<3xf32>
    %0 = spirv.GL.Cross %x, %y : vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }

  // (0, 3, 4) / 5 = (0, f32(0.6), f32(0.8)) = (0, 0x3F19999A, 0x3F4CCCCD).
  // CHECK-LABEL: define internal <3 x float> @normalize(
  // CHECK-NEXT: ret <3 x float> <float 0.000000e+00, float 0x3FE3333340000000, float 0x3FE99999A0000000>
  spirv.func @normalize() -> vector<3xf32> "None" {
    %x = spirv.Constant dense<[0.0, 3.0, 4.0]> : vector<3xf32>
    %0 = spirv.GL.Normalize %x : vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }

  // N = (0, 1), Nref = (0, 1): I = (0, -1) faces it (N), I = (0, 1) does
  // not (-N).
  // CHECK-LABEL: define internal <4 x float> @faceforward(
  // CHECK-NEXT: ret <4 x float> <float 0.000000e+00, float 1.000000e+00, float -0.000000e+00, float -1.000000e+00>
  spirv.func @faceforward() -> vector<4xf32> "None" {
    %n = spirv.Constant dense<[0.0, 1.0]> : vector<2xf32>
    %down = spirv.Constant dense<[0.0, -1.0]> : vector<2xf32>
    %0 = spvb.glsl 70 (%n, %down, %n) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    %1 = spvb.glsl 70 (%n, %n, %n) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    %r = spirv.CompositeConstruct %0, %1 : (vector<2xf32>, vector<2xf32>) -> vector<4xf32>
    spirv.ReturnValue %r : vector<4xf32>
  }

  // reflect((1, -1), (0, 1)) = (1, -1) - 2 * (-1) * (0, 1).
  // CHECK-LABEL: define internal <2 x float> @reflect(
  // CHECK-NEXT: ret <2 x float> splat (float 1.000000e+00)
  spirv.func @reflect() -> vector<2xf32> "None" {
    %i = spirv.Constant dense<[1.0, -1.0]> : vector<2xf32>
    %n = spirv.Constant dense<[0.0, 1.0]> : vector<2xf32>
    %0 = spirv.GL.Reflect %i, %n : vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // refract((0, -1), (0, 1), 0.5): d = -1, k = 1 - 0.25 * 0 = 1,
  // 0.5 * (0, -1) - (0.5 * -1 + 1) * (0, 1) = (0, -1).
  // refract((0.8, -0.6), (0, 1), 2): k = 1 - 4 * (1 - 0.36) < 0: (0, 0).
  // CHECK-LABEL: define internal <4 x float> @refract(
  // CHECK-NEXT: ret <4 x float> <float 0.000000e+00, float -1.000000e+00, float 0.000000e+00, float 0.000000e+00>
  spirv.func @refract() -> vector<4xf32> "None" {
    %n = spirv.Constant dense<[0.0, 1.0]> : vector<2xf32>
    %i0 = spirv.Constant dense<[0.0, -1.0]> : vector<2xf32>
    %eta0 = spirv.Constant 0.5 : f32
    %i1 = spirv.Constant dense<[0.8, -0.6]> : vector<2xf32>
    %eta1 = spirv.Constant 2.0 : f32
    %0 = spvb.glsl 72 (%i0, %n, %eta0) : (vector<2xf32>, vector<2xf32>, f32) -> vector<2xf32>
    %1 = spvb.glsl 72 (%i1, %n, %eta1) : (vector<2xf32>, vector<2xf32>, f32) -> vector<2xf32>
    %r = spirv.CompositeConstruct %0, %1 : (vector<2xf32>, vector<2xf32>) -> vector<4xf32>
    spirv.ReturnValue %r : vector<4xf32>
  }

  // det [[1, 2], [3, 4]] = 4 - 6.
  // det [[2, 0, 1], [1, 3, 2], [1, 1, 2]] = 2 (6 - 2) - 0 + 1 (1 - 3) = 6.
  // det [[1, 1, 1, -1], [1, 1, -1, 1], [1, -1, 1, 1], [-1, 1, 1, 1]]: with
  // rows 2..4 minus or plus row 1 it is det [[0, -2, 2], [-2, 0, 2],
  // [2, 2, 0]] = 0 + 2 (0 - 4) + 2 (-4 - 0) = -16.
  // CHECK-LABEL: define internal <3 x float> @determinant(
  // CHECK-NEXT: ret <3 x float> <float -2.000000e+00, float 6.000000e+00, float -1.600000e+01>
  spirv.func @determinant() -> vector<3xf32> "None" {
    %a0 = spirv.Constant dense<[1.0, 3.0]> : vector<2xf32>
    %a1 = spirv.Constant dense<[2.0, 4.0]> : vector<2xf32>
    %a = spirv.CompositeConstruct %a0, %a1 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    %b0 = spirv.Constant dense<[2.0, 1.0, 1.0]> : vector<3xf32>
    %b1 = spirv.Constant dense<[0.0, 3.0, 1.0]> : vector<3xf32>
    %b2 = spirv.Constant dense<[1.0, 2.0, 2.0]> : vector<3xf32>
    %b = spirv.CompositeConstruct %b0, %b1, %b2 : (vector<3xf32>, vector<3xf32>, vector<3xf32>) -> !spirv.matrix<3 x vector<3xf32>>
    %c0 = spirv.Constant dense<[1.0, 1.0, 1.0, -1.0]> : vector<4xf32>
    %c1 = spirv.Constant dense<[1.0, 1.0, -1.0, 1.0]> : vector<4xf32>
    %c2 = spirv.Constant dense<[1.0, -1.0, 1.0, 1.0]> : vector<4xf32>
    %c3 = spirv.Constant dense<[-1.0, 1.0, 1.0, 1.0]> : vector<4xf32>
    %c = spirv.CompositeConstruct %c0, %c1, %c2, %c3 : (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) -> !spirv.matrix<4 x vector<4xf32>>
    %0 = spvb.glsl 33 (%a) : (!spirv.matrix<2 x vector<2xf32>>) -> f32
    %1 = spvb.glsl 33 (%b) : (!spirv.matrix<3 x vector<3xf32>>) -> f32
    %2 = spvb.glsl 33 (%c) : (!spirv.matrix<4 x vector<4xf32>>) -> f32
    %r = spirv.CompositeConstruct %0, %1, %2 : (f32, f32, f32) -> vector<3xf32>
    spirv.ReturnValue %r : vector<3xf32>
  }

  // inverse [[1, 2], [3, 4]] = [[4, -2], [-3, 1]] / -2 = [[-2, 1], [1.5, -0.5]]:
  // columns (-2, 1.5), (1, -0.5).
  // CHECK-LABEL: define internal [2 x <2 x float>] @inverse2(
  // CHECK-NEXT: ret [2 x <2 x float>] [<2 x float> <float -2.000000e+00, float 1.500000e+00>, <2 x float> <float 1.000000e+00, float -5.000000e-01>]
  spirv.func @inverse2() -> !spirv.matrix<2 x vector<2xf32>> "None" {
    %a0 = spirv.Constant dense<[1.0, 3.0]> : vector<2xf32>
    %a1 = spirv.Constant dense<[2.0, 4.0]> : vector<2xf32>
    %a = spirv.CompositeConstruct %a0, %a1 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    %0 = spvb.glsl 34 (%a) : (!spirv.matrix<2 x vector<2xf32>>) -> !spirv.matrix<2 x vector<2xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<2xf32>>
  }

  // M = [[1, 2, 3], [0, 1, 4], [5, 6, 0]], det M = -24 + 40 - 15 = 1,
  // M^-1 = [[-24, 18, 5], [20, -15, -4], [-5, 4, 1]] (M M^-1 = I checked by
  // hand): columns (-24, 20, -5), (18, -15, 4), (5, -4, 1).
  // CHECK-LABEL: define internal [3 x <3 x float>] @inverse3(
  // CHECK-NEXT: ret [3 x <3 x float>] [<3 x float> <float -2.400000e+01, float 2.000000e+01, float -5.000000e+00>, <3 x float> <float 1.800000e+01, float -1.500000e+01, float 4.000000e+00>, <3 x float> <float 5.000000e+00, float -4.000000e+00, float 1.000000e+00>]
  spirv.func @inverse3() -> !spirv.matrix<3 x vector<3xf32>> "None" {
    %c0 = spirv.Constant dense<[1.0, 0.0, 5.0]> : vector<3xf32>
    %c1 = spirv.Constant dense<[2.0, 1.0, 6.0]> : vector<3xf32>
    %c2 = spirv.Constant dense<[3.0, 4.0, 0.0]> : vector<3xf32>
    %m = spirv.CompositeConstruct %c0, %c1, %c2 : (vector<3xf32>, vector<3xf32>, vector<3xf32>) -> !spirv.matrix<3 x vector<3xf32>>
    %0 = spvb.glsl 34 (%m) : (!spirv.matrix<3 x vector<3xf32>>) -> !spirv.matrix<3 x vector<3xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<3 x vector<3xf32>>
  }

  // The 4x4 M above has orthogonal rows of length 2 and is symmetric, so
  // M^-1 = M^T / 4 = M / 4.
  // CHECK-LABEL: define internal [4 x <4 x float>] @inverse4(
  // CHECK-NEXT: ret [4 x <4 x float>] [<4 x float> <float 2.500000e-01, float 2.500000e-01, float 2.500000e-01, float -2.500000e-01>, <4 x float> <float 2.500000e-01, float 2.500000e-01, float -2.500000e-01, float 2.500000e-01>, <4 x float> <float 2.500000e-01, float -2.500000e-01, float 2.500000e-01, float 2.500000e-01>, <4 x float> <float -2.500000e-01, float 2.500000e-01, float 2.500000e-01, float 2.500000e-01>]
  spirv.func @inverse4() -> !spirv.matrix<4 x vector<4xf32>> "None" {
    %c0 = spirv.Constant dense<[1.0, 1.0, 1.0, -1.0]> : vector<4xf32>
    %c1 = spirv.Constant dense<[1.0, 1.0, -1.0, 1.0]> : vector<4xf32>
    %c2 = spirv.Constant dense<[1.0, -1.0, 1.0, 1.0]> : vector<4xf32>
    %c3 = spirv.Constant dense<[-1.0, 1.0, 1.0, 1.0]> : vector<4xf32>
    %m = spirv.CompositeConstruct %c0, %c1, %c2, %c3 : (vector<4xf32>, vector<4xf32>, vector<4xf32>, vector<4xf32>) -> !spirv.matrix<4 x vector<4xf32>>
    %0 = spvb.glsl 34 (%m) : (!spirv.matrix<4 x vector<4xf32>>) -> !spirv.matrix<4 x vector<4xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<4 x vector<4xf32>>
  }
}
