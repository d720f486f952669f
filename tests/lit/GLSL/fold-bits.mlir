// RUN: spvb-opt --spvb-lower-to-llvm %s | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -S -passes='function(instcombine,early-cse,instcombine)' \
// RUN:   | FileCheck %s

// Integer GLSL.std.450 instructions on constants, folded by LLVM and
// compared with values worked out by hand.

module {
  // findMSB of a signed value: the highest bit unlike the sign bit;
  // -1 for 0 and -1. 5 = 0b101 -> 2; ~(-5) = 4 -> 2; INT_MIN -> 30.
  // CHECK-LABEL: define internal <4 x i32> @find_smsb(
  // CHECK-NEXT: ret <4 x i32> <i32 -1, i32 -1, i32 2, i32 2>
  spirv.func @find_smsb() -> vector<4xi32> "None" {
    %x = spirv.Constant dense<[-1, 0, 5, -5]> : vector<4xi32>
    %0 = spirv.GL.FindSMsb %x : vector<4xi32>
    spirv.ReturnValue %0 : vector<4xi32>
  }

  // CHECK-LABEL: define internal <2 x i32> @find_smsb_extremes(
  // CHECK-NEXT: ret <2 x i32> splat (i32 30)
  spirv.func @find_smsb_extremes() -> vector<2xi32> "None" {
    %x = spirv.Constant dense<[-2147483648, 2147483647]> : vector<2xi32>
    %0 = spirv.GL.FindSMsb %x : vector<2xi32>
    spirv.ReturnValue %0 : vector<2xi32>
  }

  // CHECK-LABEL: define internal <3 x i32> @find_umsb(
  // CHECK-NEXT: ret <3 x i32> <i32 -1, i32 31, i32 0>
  spirv.func @find_umsb() -> vector<3xi32> "None" {
    %x = spirv.Constant dense<[0, -2147483648, 1]> : vector<3xi32>
    %0 = spirv.GL.FindUMsb %x : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // CHECK-LABEL: define internal <3 x i32> @find_ilsb(
  // CHECK-NEXT: ret <3 x i32> <i32 -1, i32 2, i32 31>
  spirv.func @find_ilsb() -> vector<3xi32> "None" {
    %x = spirv.Constant dense<[0, 12, -2147483648]> : vector<3xi32>
    %0 = spirv.GL.FindILsb %x : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // abs(INT_MIN) wraps to INT_MIN.
  // CHECK-LABEL: define internal <2 x i32> @sabs(
  // CHECK-NEXT: ret <2 x i32> <i32 -2147483648, i32 7>
  spirv.func @sabs() -> vector<2xi32> "None" {
    %x = spirv.Constant dense<[-2147483648, -7]> : vector<2xi32>
    %0 = spirv.GL.SAbs %x : vector<2xi32>
    spirv.ReturnValue %0 : vector<2xi32>
  }

  // CHECK-LABEL: define internal <3 x i32> @ssign(
  // CHECK-NEXT: ret <3 x i32> <i32 -1, i32 0, i32 1>
  spirv.func @ssign() -> vector<3xi32> "None" {
    %x = spirv.Constant dense<[-7, 0, 9]> : vector<3xi32>
    %0 = spirv.GL.SSign %x : vector<3xi32>
    spirv.ReturnValue %0 : vector<3xi32>
  }

  // uclamp(5, 1, 3) = 3; uclamp(0xFFFFFFFF, 0, 10) = 10 (unsigned);
  // sclamp(-5, -2, 3) = -2; sclamp(0, 3, 1) (min > max) = min(max(0, 3), 1).
  // CHECK-LABEL: define internal <4 x i32> @clamps(
  // CHECK-NEXT: ret <4 x i32> <i32 3, i32 10, i32 -2, i32 1>
  spirv.func @clamps() -> vector<4xi32> "None" {
    %ux = spirv.Constant dense<[5, -1]> : vector<2xi32>
    %ulo = spirv.Constant dense<[1, 0]> : vector<2xi32>
    %uhi = spirv.Constant dense<[3, 10]> : vector<2xi32>
    %sx = spirv.Constant dense<[-5, 0]> : vector<2xi32>
    %slo = spirv.Constant dense<[-2, 3]> : vector<2xi32>
    %shi = spirv.Constant dense<[3, 1]> : vector<2xi32>
    %0 = spirv.GL.UClamp %ux, %ulo, %uhi : vector<2xi32>
    %1 = spirv.GL.SClamp %sx, %slo, %shi : vector<2xi32>
    %v = spirv.CompositeConstruct %0, %1 : (vector<2xi32>, vector<2xi32>) -> vector<4xi32>
    spirv.ReturnValue %v : vector<4xi32>
  }

  // umin(0xFFFFFFFF, 1) = 1, umax(0xFFFFFFFF, 1) = 0xFFFFFFFF,
  // imix(10, 20, 1) = 10 * 0 + 20 * 1.
  // CHECK-LABEL: define internal <3 x i32> @unsigned_and_mix(
  // CHECK-NEXT: ret <3 x i32> <i32 1, i32 -1, i32 20>
  spirv.func @unsigned_and_mix() -> vector<3xi32> "None" {
    %big = spirv.Constant -1 : i32
    %one = spirv.Constant 1 : i32
    %ten = spirv.Constant 10 : i32
    %twenty = spirv.Constant 20 : i32
    %0 = spirv.GL.UMin %big, %one : i32
    %1 = spirv.GL.UMax %big, %one : i32
    %2 = spvb.glsl 47 (%ten, %twenty, %one) : (i32, i32, i32) -> i32
    %v = spirv.CompositeConstruct %0, %1, %2 : (i32, i32, i32) -> vector<3xi32>
    spirv.ReturnValue %v : vector<3xi32>
  }
}
