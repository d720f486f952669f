// RUN: spvb-opt --spvb-lower-to-llvm %s | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -S -passes='function(instcombine,early-cse,instcombine)' \
// RUN:   | FileCheck %s

// Matrix arithmetic on constants, folded by LLVM and compared with values
// worked out by hand. M = [[1, 2], [3, 4]] has columns (1, 3) and (2, 4).

module {
  // M * 2 = [[2, 4], [6, 8]].
  // CHECK-LABEL: define internal [2 x <2 x float>] @matrix_times_scalar(
  // CHECK-NEXT: ret [2 x <2 x float>] [<2 x float> <float 2.000000e+00, float 6.000000e+00>, <2 x float> <float 4.000000e+00, float 8.000000e+00>]
  spirv.func @matrix_times_scalar() -> !spirv.matrix<2 x vector<2xf32>> "None" {
    %c0 = spirv.Constant dense<[1.0, 3.0]> : vector<2xf32>
    %c1 = spirv.Constant dense<[2.0, 4.0]> : vector<2xf32>
    %m = spirv.CompositeConstruct %c0, %c1 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    %s = spirv.Constant 2.0 : f32
    %0 = spirv.MatrixTimesScalar %m, %s : !spirv.matrix<2 x vector<2xf32>>, f32
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<2xf32>>
  }

  // M * (5, 6) = (1*5 + 2*6, 3*5 + 4*6) = (17, 39);
  // (5, 6) * M = (5*1 + 6*3, 5*2 + 6*4) = (23, 34).
  // CHECK-LABEL: define internal <4 x float> @matrix_and_vector(
  // CHECK-NEXT: ret <4 x float> <float 1.700000e+01, float 3.900000e+01, float 2.300000e+01, float 3.400000e+01>
  spirv.func @matrix_and_vector() -> vector<4xf32> "None" {
    %c0 = spirv.Constant dense<[1.0, 3.0]> : vector<2xf32>
    %c1 = spirv.Constant dense<[2.0, 4.0]> : vector<2xf32>
    %m = spirv.CompositeConstruct %c0, %c1 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    %v = spirv.Constant dense<[5.0, 6.0]> : vector<2xf32>
    %0 = spirv.MatrixTimesVector %m, %v : !spirv.matrix<2 x vector<2xf32>>, vector<2xf32> -> vector<2xf32>
    %1 = spirv.VectorTimesMatrix %v, %m : vector<2xf32>, !spirv.matrix<2 x vector<2xf32>> -> vector<2xf32>
    %r = spirv.CompositeConstruct %0, %1 : (vector<2xf32>, vector<2xf32>) -> vector<4xf32>
    spirv.ReturnValue %r : vector<4xf32>
  }

  // A 2x3 matrix N = [[1, 2, 3], [4, 5, 6]] (columns (1, 4), (2, 5), (3, 6))
  // times (1, 0, -1) = (1 - 3, 4 - 6); (1, -1) * N = (1 - 4, 2 - 5, 3 - 6).
  // CHECK-LABEL: define internal { <2 x float>, <3 x float> } @non_square(
  // CHECK-NEXT: ret { <2 x float>, <3 x float> } { <2 x float> splat (float -2.000000e+00), <3 x float> splat (float -3.000000e+00) }
  spirv.func @non_square() -> !spirv.struct<(vector<2xf32>, vector<3xf32>)> "None" {
    %c0 = spirv.Constant dense<[1.0, 4.0]> : vector<2xf32>
    %c1 = spirv.Constant dense<[2.0, 5.0]> : vector<2xf32>
    %c2 = spirv.Constant dense<[3.0, 6.0]> : vector<2xf32>
    %n = spirv.CompositeConstruct %c0, %c1, %c2 : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> !spirv.matrix<3 x vector<2xf32>>
    %v = spirv.Constant dense<[1.0, 0.0, -1.0]> : vector<3xf32>
    %w = spirv.Constant dense<[1.0, -1.0]> : vector<2xf32>
    %0 = spirv.MatrixTimesVector %n, %v : !spirv.matrix<3 x vector<2xf32>>, vector<3xf32> -> vector<2xf32>
    %1 = spirv.VectorTimesMatrix %w, %n : vector<2xf32>, !spirv.matrix<3 x vector<2xf32>> -> vector<3xf32>
    %r = spirv.CompositeConstruct %0, %1 : (vector<2xf32>, vector<3xf32>) -> !spirv.struct<(vector<2xf32>, vector<3xf32>)>
    spirv.ReturnValue %r : !spirv.struct<(vector<2xf32>, vector<3xf32>)>
  }

  // M * M = [[1*1 + 2*3, 1*2 + 2*4], [3*1 + 4*3, 3*2 + 4*4]] = [[7, 10], [15, 22]].
  // CHECK-LABEL: define internal [2 x <2 x float>] @matrix_times_matrix(
  // CHECK-NEXT: ret [2 x <2 x float>] [<2 x float> <float 7.000000e+00, float 1.500000e+01>, <2 x float> <float 1.000000e+01, float 2.200000e+01>]
  spirv.func @matrix_times_matrix() -> !spirv.matrix<2 x vector<2xf32>> "None" {
    %c0 = spirv.Constant dense<[1.0, 3.0]> : vector<2xf32>
    %c1 = spirv.Constant dense<[2.0, 4.0]> : vector<2xf32>
    %m = spirv.CompositeConstruct %c0, %c1 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    %0 = spirv.MatrixTimesMatrix %m, %m : !spirv.matrix<2 x vector<2xf32>>, !spirv.matrix<2 x vector<2xf32>> -> !spirv.matrix<2 x vector<2xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<2xf32>>
  }

  // transpose(N) = [[1, 4], [2, 5], [3, 6]]: columns (1, 2, 3), (4, 5, 6).
  // CHECK-LABEL: define internal [2 x <3 x float>] @transpose(
  // CHECK-NEXT: ret [2 x <3 x float>] [<3 x float> <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00>, <3 x float> <float 4.000000e+00, float 5.000000e+00, float 6.000000e+00>]
  spirv.func @transpose() -> !spirv.matrix<2 x vector<3xf32>> "None" {
    %c0 = spirv.Constant dense<[1.0, 4.0]> : vector<2xf32>
    %c1 = spirv.Constant dense<[2.0, 5.0]> : vector<2xf32>
    %c2 = spirv.Constant dense<[3.0, 6.0]> : vector<2xf32>
    %n = spirv.CompositeConstruct %c0, %c1, %c2 : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> !spirv.matrix<3 x vector<2xf32>>
    %0 = spirv.Transpose %n : !spirv.matrix<3 x vector<2xf32>> -> !spirv.matrix<2 x vector<3xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<3xf32>>
  }

  // outerProduct((1, 2), (3, 4, 5)) = [[3, 4, 5], [6, 8, 10]]: columns
  // (3, 6), (4, 8), (5, 10).
  // CHECK-LABEL: define internal [3 x <2 x float>] @outer_product(
  // CHECK-NEXT: ret [3 x <2 x float>] [<2 x float> <float 3.000000e+00, float 6.000000e+00>, <2 x float> <float 4.000000e+00, float 8.000000e+00>, <2 x float> <float 5.000000e+00, float 1.000000e+01>]
  spirv.func @outer_product() -> !spirv.matrix<3 x vector<2xf32>> "None" {
    %c = spirv.Constant dense<[1.0, 2.0]> : vector<2xf32>
    %r = spirv.Constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
    %0 = spvb.outer_product %c, %r : vector<2xf32>, vector<3xf32> -> !spirv.matrix<3 x vector<2xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<3 x vector<2xf32>>
  }
}
