// RUN: spvb-opt --spvb-lower-to-llvm %s | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -S -passes='function(instcombine,early-cse,instcombine)' \
// RUN:   | FileCheck %s

// GLSL.std.450 packing on constants, folded by LLVM and compared with bit
// patterns worked out by hand (component 0 in the low bits; i32 results
// print signed).

module {
  // (1, 0, 0.5, 1) * 255 = 255, 0, 127.5 -> 128, 255: 0xFF8000FF.
  // CHECK-LABEL: define internal i32 @pack_unorm4x8(
  // CHECK-NEXT: ret i32 -8388353
  spirv.func @pack_unorm4x8() -> i32 "None" {
    %v = spirv.Constant dense<[1.0, 0.0, 0.5, 1.0]> : vector<4xf32>
    %0 = spvb.glsl 55 (%v) : (vector<4xf32>) -> i32
    spirv.ReturnValue %0 : i32
  }

  // (1, -1, 0.5, 0) * 127 = 127, -127, 63.5 -> 64, 0: 0x0040817F.
  // CHECK-LABEL: define internal i32 @pack_snorm4x8(
  // CHECK-NEXT: ret i32 4227455
  spirv.func @pack_snorm4x8() -> i32 "None" {
    %v = spirv.Constant dense<[1.0, -1.0, 0.5, 0.0]> : vector<4xf32>
    %0 = spirv.GL.PackSnorm4x8 %v : vector<4xf32> -> i32
    spirv.ReturnValue %0 : i32
  }

  // Out of range and NaN clamp: (2, -3, NaN, -0) -> 127, -127, -127, 0:
  // 0x0081817F.
  // CHECK-LABEL: define internal i32 @pack_snorm4x8_clamped(
  // CHECK-NEXT: ret i32 8487295
  spirv.func @pack_snorm4x8_clamped() -> i32 "None" {
    %v = spirv.Constant dense<[2.0, -3.0, 0x7FC00000, -0.0]> : vector<4xf32>
    %0 = spirv.GL.PackSnorm4x8 %v : vector<4xf32> -> i32
    spirv.ReturnValue %0 : i32
  }

  // (-1, 0.5) * 32767 = -32767 (0x8001), 16383.5 -> 16384 (0x4000).
  // CHECK-LABEL: define internal i32 @pack_snorm2x16(
  // CHECK-NEXT: ret i32 1073774593
  spirv.func @pack_snorm2x16() -> i32 "None" {
    %v = spirv.Constant dense<[-1.0, 0.5]> : vector<2xf32>
    %0 = spvb.glsl 56 (%v) : (vector<2xf32>) -> i32
    spirv.ReturnValue %0 : i32
  }

  // (0.25, 1) * 65535 = 16383.75 -> 16384 (0x4000), 65535: 0xFFFF4000.
  // CHECK-LABEL: define internal i32 @pack_unorm2x16(
  // CHECK-NEXT: ret i32 -49152
  spirv.func @pack_unorm2x16() -> i32 "None" {
    %v = spirv.Constant dense<[0.25, 1.0]> : vector<2xf32>
    %0 = spvb.glsl 57 (%v) : (vector<2xf32>) -> i32
    spirv.ReturnValue %0 : i32
  }

  // half(1) = 0x3C00, half(-2) = 0xC000: 0xC0003C00.
  // CHECK-LABEL: define internal i32 @pack_half2x16(
  // CHECK-NEXT: ret i32 -1073726464
  spirv.func @pack_half2x16() -> i32 "None" {
    %v = spirv.Constant dense<[1.0, -2.0]> : vector<2xf32>
    %0 = spirv.GL.PackHalf2x16 %v : vector<2xf32> -> i32
    spirv.ReturnValue %0 : i32
  }

  // 1.0 = 0x3FF00000_00000000: low word first.
  // CHECK-LABEL: define internal double @pack_double2x32(
  // CHECK-NEXT: ret double 1.000000e+00
  spirv.func @pack_double2x32() -> f64 "None" {
    %v = spirv.Constant dense<[0, 1072693248]> : vector<2xi32>
    %0 = spvb.glsl 59 (%v) : (vector<2xi32>) -> f64
    spirv.ReturnValue %0 : f64
  }

  // 0xFF33FF00: bytes 0x00, 0xFF, 0x33, 0xFF; 0x33 / 255 = 0.2.
  // CHECK-LABEL: define internal <4 x float> @unpack_unorm4x8(
  // CHECK-NEXT: ret <4 x float> <float 0.000000e+00, float 1.000000e+00, float 0x3FC99999A0000000, float 1.000000e+00>
  spirv.func @unpack_unorm4x8() -> vector<4xf32> "None" {
    %w = spirv.Constant -13369600 : i32
    %0 = spvb.glsl 64 (%w) : (i32) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }

  // 0x0040817F: 127 / 127, -127 / 127, 64 / 127 = 0x3F010204, 0.
  // CHECK-LABEL: define internal <4 x float> @unpack_snorm4x8(
  // CHECK-NEXT: ret <4 x float> <float 1.000000e+00, float -1.000000e+00, float 0x3FE0204080000000, float 0.000000e+00>
  spirv.func @unpack_snorm4x8() -> vector<4xf32> "None" {
    %w = spirv.Constant 4227455 : i32
    %0 = spirv.GL.UnpackSnorm4x8 %w : i32 -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }

  // 0x80008001: -32767 / 32767 = -1; -32768 / 32767 < -1, clamped to -1.
  // CHECK-LABEL: define internal <2 x float> @unpack_snorm2x16(
  // CHECK-NEXT: ret <2 x float> splat (float -1.000000e+00)
  spirv.func @unpack_snorm2x16() -> vector<2xf32> "None" {
    %w = spirv.Constant -2147450879 : i32
    %0 = spvb.glsl 60 (%w) : (i32) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // 0xFFFF0000: 0 / 65535, 65535 / 65535.
  // CHECK-LABEL: define internal <2 x float> @unpack_unorm2x16(
  // CHECK-NEXT: ret <2 x float> <float 0.000000e+00, float 1.000000e+00>
  spirv.func @unpack_unorm2x16() -> vector<2xf32> "None" {
    %w = spirv.Constant -65536 : i32
    %0 = spvb.glsl 61 (%w) : (i32) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // CHECK-LABEL: define internal <2 x float> @unpack_half2x16(
  // CHECK-NEXT: ret <2 x float> <float 1.000000e+00, float -2.000000e+00>
  spirv.func @unpack_half2x16() -> vector<2xf32> "None" {
    %w = spirv.Constant -1073726464 : i32
    %0 = spirv.GL.UnpackHalf2x16 %w : i32 -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }

  // CHECK-LABEL: define internal <2 x i32> @unpack_double2x32(
  // CHECK-NEXT: ret <2 x i32> <i32 0, i32 1072693248>
  spirv.func @unpack_double2x32() -> vector<2xi32> "None" {
    %d = spirv.Constant 1.0 : f64
    %0 = spvb.glsl 65 (%d) : (f64) -> vector<2xi32>
    spirv.ReturnValue %0 : vector<2xi32>
  }
}
