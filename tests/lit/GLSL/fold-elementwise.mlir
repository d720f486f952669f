// RUN: spvb-opt --spvb-lower-to-llvm %s | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -S -passes='function(sroa,instcombine,early-cse,instcombine)' \
// RUN:   | FileCheck %s

// GLSL.std.450 on constants, folded by LLVM's own constant folder and
// compared with values worked out by hand. (Function passes only: the
// functions are internal and unused, which -O2 would delete.)
// Non-exact f32 results print as the hex of the double holding them.

module {
  // smoothstep(0, 1, 0.25) = 0.25^2 * (3 - 2 * 0.25) = 0.0625 * 2.5.
  // CHECK-LABEL: define internal float @smoothstep(
  // CHECK-NEXT: ret float 1.562500e-01
  spirv.func @smoothstep() -> f32 "None" {
    %e0 = spirv.Constant 0.0 : f32
    %e1 = spirv.Constant 1.0 : f32
    %x = spirv.Constant 0.25 : f32
    %0 = spvb.glsl 49 (%e0, %e1, %x) : (f32, f32, f32) -> f32
    spirv.ReturnValue %0 : f32
  }

  // Equal edges: (x - e0) / 0 is NaN (x = e0) or inf (x > e0); clamped to 0
  // and 1.
  // CHECK-LABEL: define internal <2 x float> @smoothstep_equal_edges(
  // CHECK-NEXT: ret <2 x float> <float 0.000000e+00, float 1.000000e+00>
  spirv.func @smoothstep_equal_edges() -> vector<2xf32> "None" {
    %e = spirv.Constant dense<1.0> : vector<2xf32>
    %x = spirv.Constant dense<[1.0, 2.0]> : vector<2xf32>
    %0 = spvb.glsl 49 (%e, %e, %x) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // step(0.5, x): 0 below the edge, 1 from the edge on.
  // CHECK-LABEL: define internal <2 x float> @step(
  // CHECK-NEXT: ret <2 x float> <float 0.000000e+00, float 1.000000e+00>
  spirv.func @step() -> vector<2xf32> "None" {
    %edge = spirv.Constant dense<0.5> : vector<2xf32>
    %x = spirv.Constant dense<[0.25, 0.5]> : vector<2xf32>
    %0 = spvb.glsl 48 (%edge, %x) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // mix(2, 4, 0.25) = 2 * 0.75 + 4 * 0.25.
  // CHECK-LABEL: define internal float @fmix(
  // CHECK-NEXT: ret float 2.500000e+00
  spirv.func @fmix() -> f32 "None" {
    %x = spirv.Constant 2.0 : f32
    %y = spirv.Constant 4.0 : f32
    %a = spirv.Constant 0.25 : f32
    %0 = spirv.GL.FMix %x : f32, %y : f32, %a : f32 -> f32
    spirv.ReturnValue %0 : f32
  }

  // clamp(5, 0, 1) = 1; clamp(0.5, 1, 0) (min > max) = min(max(0.5, 1), 0).
  // CHECK-LABEL: define internal <2 x float> @fclamp(
  // CHECK-NEXT: ret <2 x float> <float 1.000000e+00, float 0.000000e+00>
  spirv.func @fclamp() -> vector<2xf32> "None" {
    %x = spirv.Constant dense<[5.0, 0.5]> : vector<2xf32>
    %lo = spirv.Constant dense<[0.0, 1.0]> : vector<2xf32>
    %hi = spirv.Constant dense<[1.0, 0.0]> : vector<2xf32>
    %0 = spirv.GL.FClamp %x, %lo, %hi : vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // CHECK-LABEL: define internal <4 x float> @fsign(
  // CHECK-NEXT: ret <4 x float> <float -1.000000e+00, float 0.000000e+00, float -0.000000e+00, float 1.000000e+00>
  spirv.func @fsign() -> vector<4xf32> "None" {
    %x = spirv.Constant dense<[-3.0, 0.0, -0.0, 2.0]> : vector<4xf32>
    %0 = spirv.GL.FSign %x : vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }

  // fract(-1.25) = -1.25 - floor(-1.25) = -1.25 + 2.
  // CHECK-LABEL: define internal float @fract(
  // CHECK-NEXT: ret float 7.500000e-01
  spirv.func @fract() -> f32 "None" {
    %x = spirv.Constant -1.25 : f32
    %0 = spirv.GL.Fract %x : f32
    spirv.ReturnValue %0 : f32
  }

  // round(2.5) = 3 (away from zero), roundEven(2.5) = 2, trunc(-2.75) = -2.
  // CHECK-LABEL: define internal <3 x float> @rounding(
  // CHECK-NEXT: ret <3 x float> <float 3.000000e+00, float 2.000000e+00, float -2.000000e+00>
  spirv.func @rounding() -> vector<3xf32> "None" {
    %h = spirv.Constant 2.5 : f32
    %t = spirv.Constant -2.75 : f32
    %0 = spirv.GL.Round %h : f32
    %1 = spirv.GL.RoundEven %h : f32
    %2 = spvb.glsl 3 (%t) : (f32) -> f32
    %v = spirv.CompositeConstruct %0, %1, %2 : (f32, f32, f32) -> vector<3xf32>
    spirv.ReturnValue %v : vector<3xf32>
  }

  // radians(180) = 180 * f32(pi / 180), which rounds to f32(pi).
  // CHECK-LABEL: define internal float @radians(
  // CHECK-NEXT: ret float 0x400921FB60000000
  spirv.func @radians() -> f32 "None" {
    %x = spirv.Constant 180.0 : f32
    %0 = spvb.glsl 11 (%x) : (f32) -> f32
    spirv.ReturnValue %0 : f32
  }

  // modf: fraction and whole part, both with the sign of x; inf splits into
  // 0 and inf.
  // CHECK-LABEL: define internal { <2 x float>, <2 x float> } @modf_struct(
  // CHECK-NEXT: ret { <2 x float>, <2 x float> } { <2 x float> <float -5.000000e-01, float 0.000000e+00>, <2 x float> <float -2.000000e+00, float 0x7FF0000000000000> }
  spirv.func @modf_struct() -> !spirv.struct<(vector<2xf32>, vector<2xf32>)> "None" {
    %x = spirv.Constant dense<[-2.5, 0x7F800000]> : vector<2xf32>
    %0 = spvb.glsl 36 (%x) : (vector<2xf32>) -> !spirv.struct<(vector<2xf32>, vector<2xf32>)>
    spirv.ReturnValue %0 : !spirv.struct<(vector<2xf32>, vector<2xf32>)>
  }

  // modf(3.75, whole): 0.75, and 3 through the pointer.
  // CHECK-LABEL: define internal <2 x float> @modf_pointer(
  // CHECK-NEXT: ret <2 x float> <float 7.500000e-01, float 3.000000e+00>
  spirv.func @modf_pointer() -> vector<2xf32> "None" {
    %p = spirv.Variable : !spirv.ptr<f32, Function>
    %x = spirv.Constant 3.75 : f32
    %0 = spvb.glsl 35 (%x, %p) : (f32, !spirv.ptr<f32, Function>) -> f32
    %1 = spirv.Load "Function" %p : f32
    %v = spirv.CompositeConstruct %0, %1 : (f32, f32) -> vector<2xf32>
    spirv.ReturnValue %v : vector<2xf32>
  }

  // frexp(12) = 0.75 * 2^4.
  // CHECK-LABEL: define internal { float, i32 } @frexp_struct(
  // CHECK-NEXT: ret { float, i32 } { float 7.500000e-01, i32 4 }
  spirv.func @frexp_struct() -> !spirv.struct<(f32, i32)> "None" {
    %x = spirv.Constant 12.0 : f32
    %0 = spirv.GL.FrexpStruct %x : f32 -> !spirv.struct<(f32, i32)>
    spirv.ReturnValue %0 : !spirv.struct<(f32, i32)>
  }

  // frexp(-0.375, e) = -0.75, e = -1 through the pointer.
  // CHECK-LABEL: define internal i32 @frexp_pointer(
  // CHECK-NEXT: ret i32 -1
  spirv.func @frexp_pointer() -> i32 "None" {
    %p = spirv.Variable : !spirv.ptr<i32, Function>
    %x = spirv.Constant -0.375 : f32
    %0 = spvb.glsl 51 (%x, %p) : (f32, !spirv.ptr<i32, Function>) -> f32
    %1 = spirv.Load "Function" %p : i32
    spirv.ReturnValue %1 : i32
  }

  // ldexp(0.75, 4) = 12; an i64 exponent beyond i32 still gives inf.
  // CHECK-LABEL: define internal <2 x float> @ldexp(
  // CHECK-NEXT: ret <2 x float> <float 1.200000e+01, float 0x7FF0000000000000>
  spirv.func @ldexp() -> vector<2xf32> "None" {
    %x = spirv.Constant dense<0.75> : vector<2xf32>
    %e = spirv.Constant dense<[4, 4294967300]> : vector<2xi64>
    %0 = spirv.GL.Ldexp %x : vector<2xf32>, %e : vector<2xi64> -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // pow(2, 10), exp2(-2), log2(0.125).
  // CHECK-LABEL: define internal <3 x float> @exponentials(
  // CHECK-NEXT: ret <3 x float> <float 1.024000e+03, float 2.500000e-01, float -3.000000e+00>
  spirv.func @exponentials() -> vector<3xf32> "None" {
    %two = spirv.Constant 2.0 : f32
    %ten = spirv.Constant 10.0 : f32
    %m2 = spirv.Constant -2.0 : f32
    %eighth = spirv.Constant 0.125 : f32
    %0 = spirv.GL.Pow %two, %ten : f32
    %1 = spirv.GL.Exp2 %m2 : f32
    %2 = spirv.GL.Log2 %eighth : f32
    %v = spirv.CompositeConstruct %0, %1, %2 : (f32, f32, f32) -> vector<3xf32>
    spirv.ReturnValue %v : vector<3xf32>
  }

  // asinh(+-0.75) = +-log(0.75 + sqrt(1.5625)) = +-ln 2;
  // acosh(1.25) = log(1.25 + sqrt(0.5625)) = ln 2; f32(ln 2) = 0x3F317218.
  // CHECK-LABEL: define internal <3 x float> @inverse_hyperbolic(
  // CHECK-NEXT: ret <3 x float> <float 0x3FE62E4300000000, float 0xBFE62E4300000000, float 0x3FE62E4300000000>
  spirv.func @inverse_hyperbolic() -> vector<3xf32> "None" {
    %x = spirv.Constant dense<[0.75, -0.75]> : vector<2xf32>
    %c = spirv.Constant 1.25 : f32
    %0 = spirv.GL.Asinh %x : vector<2xf32>
    %1 = spirv.GL.Acosh %c : f32
    %v = spirv.CompositeConstruct %0, %1 : (vector<2xf32>, f32) -> vector<3xf32>
    spirv.ReturnValue %v : vector<3xf32>
  }

  // atanh(0.5) = 0.5 * log(1.5 / 0.5) = f32(ln 3) / 2 = 0x3F0C9F54.
  // CHECK-LABEL: define internal float @atanh(
  // CHECK-NEXT: ret float 0x3FE193EA80000000
  spirv.func @atanh() -> f32 "None" {
    %x = spirv.Constant 0.5 : f32
    %0 = spirv.GL.Atanh %x : f32
    spirv.ReturnValue %0 : f32
  }

  // asinh(1e30): x * x overflows f32, log(x) + ln 2 does not:
  // f32(f32(log(f32(1e30))) + f32(ln 2)) = 69.7707 = 0x428B8A99.
  // CHECK-LABEL: define internal float @asinh_large(
  // CHECK-NEXT: ret float 0x4051715320000000
  spirv.func @asinh_large() -> f32 "None" {
    %x = spirv.Constant 1.0e30 : f32
    %0 = spirv.GL.Asinh %x : f32
    spirv.ReturnValue %0 : f32
  }

  // NMin / NMax / NClamp ignore a NaN operand.
  // CHECK-LABEL: define internal <3 x float> @nan_aware(
  // CHECK-NEXT: ret <3 x float> <float 3.000000e+00, float 3.000000e+00, float 1.000000e+00>
  spirv.func @nan_aware() -> vector<3xf32> "None" {
    %nan = spirv.Constant 0x7FC00000 : f32
    %three = spirv.Constant 3.0 : f32
    %one = spirv.Constant 1.0 : f32
    %two = spirv.Constant 2.0 : f32
    %0 = spvb.glsl 79 (%nan, %three) : (f32, f32) -> f32
    %1 = spvb.glsl 80 (%three, %nan) : (f32, f32) -> f32
    %2 = spvb.glsl 81 (%nan, %one, %two) : (f32, f32, f32) -> f32
    %v = spirv.CompositeConstruct %0, %1, %2 : (f32, f32, f32) -> vector<3xf32>
    spirv.ReturnValue %v : vector<3xf32>
  }
}
