// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// GLSL.std.450 componentwise math. spvb.glsl carries the instructions the
// spirv dialect has no op for; it lives outside spirv.module, whose verifier
// admits spirv ops only.

// CHECK-LABEL: llvm.func internal @rounding
// CHECK: llvm.intr.round(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.roundeven(%{{.*}}) : (vector<2xf16>) -> vector<2xf16>
// CHECK: llvm.intr.trunc(%{{.*}}) : (f64) -> f64
// CHECK: %[[FLOOR:.*]] = llvm.intr.floor(%[[X:.*]]) : (vector<3xf32>)
// CHECK: llvm.fsub %[[X]], %[[FLOOR]] : vector<3xf32>
module {
  spirv.func @rounding(%a: f32, %b: vector<2xf16>, %c: f64, %d: vector<3xf32>) "None" {
    %0 = spirv.GL.Round %a : f32
    %1 = spirv.GL.RoundEven %b : vector<2xf16>
    %2 = spvb.glsl 3 (%c) : (f64) -> f64
    %3 = spirv.GL.Fract %d : vector<3xf32>
    spirv.Return
  }
}

// -----

// FSign keeps the sign of zeros and passes NaN through; SAbs is defined for
// INT_MIN (no poison flag); SSign clamps to [-1, 1].
// CHECK-LABEL: llvm.func internal @signs
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32)
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32)
// CHECK-DAG: %[[MONE:.*]] = llvm.mlir.constant(-1.000000e+00 : f32)
// CHECK: %[[GT:.*]] = llvm.fcmp "ogt" %[[X:.*]], %[[ZERO]] : f32
// CHECK: %[[LT:.*]] = llvm.fcmp "olt" %[[X]], %[[ZERO]] : f32
// CHECK: %[[POS:.*]] = llvm.select %[[GT]], %[[ONE]], %[[X]]
// CHECK: llvm.select %[[LT]], %[[MONE]], %[[POS]]
// CHECK: "llvm.intr.abs"(%{{.*}}) <{is_int_min_poison = false}> : (vector<2xi32>) -> vector<2xi32>
// CHECK: %[[IMONE:.*]] = llvm.mlir.constant(-1 : i16)
// CHECK: %[[IONE:.*]] = llvm.mlir.constant(1 : i16)
// CHECK: %[[MAX:.*]] = llvm.intr.smax(%{{.*}}, %[[IMONE]])
// CHECK: llvm.intr.smin(%[[MAX]], %[[IONE]])
spirv.module Logical GLSL450 {
  spirv.func @signs(%a: f32, %b: vector<2xi32>, %c: i16) "None" {
    %0 = spirv.GL.FSign %a : f32
    %1 = spirv.GL.SAbs %b : vector<2xi32>
    %2 = spirv.GL.SSign %c : i16
    spirv.Return
  }
}

// -----

// CHECK-LABEL: llvm.func internal @angles
// CHECK: %[[R:.*]] = llvm.mlir.constant(0.0174532924 : f32)
// CHECK: llvm.fmul %{{.*}}, %[[R]] : f32
// CHECK: %[[D:.*]] = llvm.mlir.constant(dense<57.295779513082323> : vector<2xf64>)
// CHECK: llvm.fmul %{{.*}}, %[[D]] : vector<2xf64>
module {
  spirv.func @angles(%a: f32, %b: vector<2xf64>) "None" {
    %0 = spvb.glsl 11 (%a) : (f32) -> f32
    %1 = spvb.glsl 12 (%b) : (vector<2xf64>) -> vector<2xf64>
    spirv.Return
  }
}

// -----

// Trigonometric and hyperbolic functions with an LLVM intrinsic. Tanh
// overrides upstream's (e^2x - 1) / (e^2x + 1), which is NaN for large x.
// CHECK-LABEL: llvm.func internal @trig
// CHECK: llvm.intr.asin(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.acos(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.atan(%{{.*}}) : (vector<4xf32>) -> vector<4xf32>
// CHECK: llvm.intr.sinh(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.cosh(%{{.*}}) : (f32) -> f32
// CHECK-NOT: llvm.intr.exp
// CHECK: llvm.intr.tanh(%{{.*}}) : (f16) -> f16
// Upstream's Tan stays.
// CHECK-LABEL: llvm.func internal @tan
// CHECK: llvm.intr.tan(%{{.*}}) : (f32) -> f32
spirv.module Logical GLSL450 {
  spirv.func @trig(%a: f32, %v: vector<4xf32>, %h: f16) "None" {
    %0 = spirv.GL.Asin %a : f32
    %1 = spirv.GL.Acos %a : f32
    %2 = spirv.GL.Atan %v : vector<4xf32>
    %3 = spirv.GL.Sinh %a : f32
    %4 = spirv.GL.Cosh %a : f32
    %5 = spirv.GL.Tanh %h : f16
    spirv.Return
  }
  spirv.func @tan(%x: f32) "None" {
    %0 = spirv.GL.Tan %x : f32
    spirv.Return
  }
}

// -----

// CHECK-LABEL: llvm.func internal @atan2
// CHECK-SAME: %[[Y:[a-z0-9]+]]: f32, %[[X:[a-z0-9]+]]: f32
// CHECK: llvm.intr.atan2(%[[Y]], %[[X]]) : (f32, f32) -> f32
module {
  spirv.func @atan2(%y: f32, %x: f32) -> f32 "None" {
    %0 = spvb.glsl 25 (%y, %x) : (f32, f32) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// Inverse hyperbolics have no LLVM intrinsic: log(|x| + sqrt(x*x + 1)) with
// the sign of x, and log|x| + ln 2 from 2^13 on in f32 (2^7 in f16), where
// x*x + 1 rounds to x*x or overflows.
// CHECK-LABEL: llvm.func internal @asinh
// CHECK-SAME: %[[X:[a-z0-9]+]]: f32
// CHECK: %[[A:.*]] = llvm.intr.fabs(%[[X]])
// CHECK: %[[SQ:.*]] = llvm.fmul %[[A]], %[[A]]
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32)
// CHECK: %[[RAD:.*]] = llvm.fadd %[[SQ]], %[[ONE]]
// CHECK: %[[ROOT:.*]] = llvm.intr.sqrt(%[[RAD]])
// CHECK: %[[SUM:.*]] = llvm.fadd %[[A]], %[[ROOT]]
// CHECK: %[[DIRECT:.*]] = llvm.intr.log(%[[SUM]])
// CHECK: %[[LOGA:.*]] = llvm.intr.log(%[[A]])
// CHECK: %[[LN2:.*]] = llvm.mlir.constant(0.693147182 : f32)
// CHECK: %[[ASYM:.*]] = llvm.fadd %[[LOGA]], %[[LN2]]
// CHECK: %[[BOUND:.*]] = llvm.mlir.constant(8.192000e+03 : f32)
// CHECK: %[[LARGE:.*]] = llvm.fcmp "oge" %[[A]], %[[BOUND]]
// CHECK: %[[MAG:.*]] = llvm.select %[[LARGE]], %[[ASYM]], %[[DIRECT]]
// CHECK: llvm.intr.copysign(%[[MAG]], %[[X]])
spirv.module Logical GLSL450 {
  spirv.func @asinh(%a: f32) -> f32 "None" {
    %0 = spirv.GL.Asinh %a : f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// CHECK-LABEL: llvm.func internal @acosh
// CHECK: %[[MONE:.*]] = llvm.mlir.constant(dense<-1.000000e+00> : vector<2xf16>)
// CHECK: llvm.fadd %{{.*}}, %[[MONE]]
// CHECK: llvm.mlir.constant(dense<1.280000e+02> : vector<2xf16>)
// CHECK-NOT: copysign
// CHECK: llvm.return
spirv.module Logical GLSL450 {
  spirv.func @acosh(%a: vector<2xf16>) -> vector<2xf16> "None" {
    %0 = spirv.GL.Acosh %a : vector<2xf16>
    spirv.ReturnValue %0 : vector<2xf16>
  }
}

// -----

// atanh(x) = 0.5 * log((1 + x) / (1 - x)).
// CHECK-LABEL: llvm.func internal @atanh
// CHECK-SAME: %[[X:[a-z0-9]+]]: f32
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32)
// CHECK: %[[N:.*]] = llvm.fadd %[[ONE]], %[[X]]
// CHECK: %[[D:.*]] = llvm.fsub %[[ONE]], %[[X]]
// CHECK: %[[Q:.*]] = llvm.fdiv %[[N]], %[[D]]
// CHECK: %[[L:.*]] = llvm.intr.log(%[[Q]])
// CHECK: %[[HALF:.*]] = llvm.mlir.constant(5.000000e-01 : f32)
// CHECK: llvm.fmul %[[L]], %[[HALF]]
spirv.module Logical GLSL450 {
  spirv.func @atanh(%a: f32) -> f32 "None" {
    %0 = spirv.GL.Atanh %a : f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// CHECK-LABEL: llvm.func internal @exponentials
// CHECK: llvm.intr.pow(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.intr.exp2(%{{.*}}) : (vector<3xf32>) -> vector<3xf32>
// CHECK: llvm.intr.log2(%{{.*}}) : (f64) -> f64
// CHECK: llvm.intr.log2(%{{.*}}) : (vector<2xf16>) -> vector<2xf16>
// CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
// CHECK: llvm.intr.fabs(%{{.*}}) : (f32) -> f32
module {
  spirv.func @exponentials(%a: f32, %v: vector<3xf32>, %d: f64, %h: vector<2xf16>) "None" {
    %0 = spirv.GL.Pow %a, %a : f32
    %1 = spirv.GL.Exp2 %v : vector<3xf32>
    // spirv.GL.Log2 admits 16- and 32-bit floats only.
    %2 = spvb.glsl 30 (%d) : (f64) -> f64
    %5 = spirv.GL.Log2 %h : vector<2xf16>
    // Numbers that have a spirv.GL op are accepted as spvb.glsl, too.
    %3 = spvb.glsl 31 (%a) : (f32) -> f32
    %4 = spvb.glsl 4 (%a) : (f32) -> f32
    spirv.Return
  }
}

// -----

// Clamps are min(max(x, low), high): max wins when low > high.
// CHECK-LABEL: llvm.func internal @minmax
// CHECK: llvm.intr.umin(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.intr.umax(%{{.*}}, %{{.*}}) : (vector<2xi32>, vector<2xi32>) -> vector<2xi32>
// CHECK: %[[FLO:.*]] = llvm.intr.maxnum(%[[X:.*]], %[[LO:.*]]) : (f32, f32) -> f32
// CHECK: llvm.intr.minnum(%[[FLO]], %[[HI:.*]]) : (f32, f32) -> f32
// CHECK: %[[ULO:.*]] = llvm.intr.umax(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.intr.umin(%[[ULO]], %{{.*}}) : (i32, i32) -> i32
// CHECK: %[[SLO:.*]] = llvm.intr.smax(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK: llvm.intr.smin(%[[SLO]], %{{.*}}) : (i32, i32) -> i32
spirv.module Logical GLSL450 {
  spirv.func @minmax(%a: f32, %i: i32, %v: vector<2xi32>) "None" {
    %0 = spirv.GL.UMin %i, %i : i32
    %1 = spirv.GL.UMax %v, %v : vector<2xi32>
    %2 = spirv.GL.FClamp %a, %a, %a : f32
    %3 = spirv.GL.UClamp %i, %i, %i : i32
    %4 = spirv.GL.SClamp %i, %i, %i : i32
    spirv.Return
  }
}

// -----

// NMin, NMax, NClamp return the non-NaN operand: IEEE 754-2019
// minimumNumber / maximumNumber.
// CHECK-LABEL: llvm.func internal @nan_aware
// CHECK: llvm.call_intrinsic "llvm.minimumnum"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.maximumnum"(%{{.*}}, %{{.*}}) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK: %[[UP:.*]] = llvm.call_intrinsic "llvm.maximumnum"(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// CHECK: llvm.call_intrinsic "llvm.minimumnum"(%[[UP]], %{{.*}}) : (f32, f32) -> f32
module {
  spirv.func @nan_aware(%a: f32, %v: vector<2xf32>) "None" {
    %0 = spvb.glsl 79 (%a, %a) : (f32, f32) -> f32
    %1 = spvb.glsl 80 (%v, %v) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    %2 = spvb.glsl 81 (%a, %a, %a) : (f32, f32, f32) -> f32
    spirv.Return
  }
}

// -----

// FMix and IMix: x * (1 - a) + y * a, in that order, without fma.
// CHECK-LABEL: llvm.func internal @mix
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<2xf32>, %[[Y:[a-z0-9]+]]: vector<2xf32>, %[[A:[a-z0-9]+]]: vector<2xf32>
// CHECK-SAME: %[[I:[a-z0-9]+]]: i32, %[[J:[a-z0-9]+]]: i32, %[[K:[a-z0-9]+]]: i32
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(dense<1.000000e+00> : vector<2xf32>)
// CHECK: %[[C:.*]] = llvm.fsub %[[ONE]], %[[A]]
// CHECK: %[[L:.*]] = llvm.fmul %[[X]], %[[C]]
// CHECK: %[[R:.*]] = llvm.fmul %[[Y]], %[[A]]
// CHECK: llvm.fadd %[[L]], %[[R]]
// CHECK: %[[IONE:.*]] = llvm.mlir.constant(1 : i32)
// CHECK: %[[IC:.*]] = llvm.sub %[[IONE]], %[[K]]
// CHECK: %[[IL:.*]] = llvm.mul %[[I]], %[[IC]]
// CHECK: %[[IR:.*]] = llvm.mul %[[J]], %[[K]]
// CHECK: llvm.add %[[IL]], %[[IR]]
// CHECK-NOT: fma
module {
  spirv.func @mix(%x: vector<2xf32>, %y: vector<2xf32>, %a: vector<2xf32>,
                  %i: i32, %j: i32, %k: i32) "None" {
    %0 = spirv.GL.FMix %x : vector<2xf32>, %y : vector<2xf32>, %a : vector<2xf32> -> vector<2xf32>
    %1 = spvb.glsl 47 (%i, %j, %k) : (i32, i32, i32) -> i32
    spirv.Return
  }
}

// -----

// Step(edge, x) = x < edge ? 0 : 1.
// CHECK-LABEL: llvm.func internal @step
// CHECK-SAME: %[[EDGE:[a-z0-9]+]]: f32, %[[X:[a-z0-9]+]]: f32
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32)
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32)
// CHECK: %[[BELOW:.*]] = llvm.fcmp "olt" %[[X]], %[[EDGE]]
// CHECK: llvm.select %[[BELOW]], %[[ZERO]], %[[ONE]]
module {
  spirv.func @step(%edge: f32, %x: f32) -> f32 "None" {
    %0 = spvb.glsl 48 (%edge, %x) : (f32, f32) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// SmoothStep: t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t).
// maxnum first, so the 0 / 0 of equal edges becomes 0.
// CHECK-LABEL: llvm.func internal @smoothstep
// CHECK-SAME: %[[E0:[a-z0-9]+]]: vector<2xf32>, %[[E1:[a-z0-9]+]]: vector<2xf32>, %[[X:[a-z0-9]+]]: vector<2xf32>
// CHECK: %[[OFF:.*]] = llvm.fsub %[[X]], %[[E0]]
// CHECK: %[[RANGE:.*]] = llvm.fsub %[[E1]], %[[E0]]
// CHECK: %[[Q:.*]] = llvm.fdiv %[[OFF]], %[[RANGE]]
// CHECK: %[[LO:.*]] = llvm.intr.maxnum(%[[Q]], %{{.*}})
// CHECK: %[[T:.*]] = llvm.intr.minnum(%[[LO]], %{{.*}})
// CHECK: %[[SQ:.*]] = llvm.fmul %[[T]], %[[T]]
// CHECK: %[[TWOT:.*]] = llvm.fmul %{{.*}}, %[[T]]
// CHECK: %[[F:.*]] = llvm.fsub %{{.*}}, %[[TWOT]]
// CHECK: llvm.fmul %[[SQ]], %[[F]]
module {
  spirv.func @smoothstep(%e0: vector<2xf32>, %e1: vector<2xf32>, %x: vector<2xf32>) -> vector<2xf32> "None" {
    %0 = spvb.glsl 49 (%e0, %e1, %x) : (vector<2xf32>, vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// CHECK-LABEL: llvm.func internal @fma
// CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
spirv.module Logical GLSL450 {
  spirv.func @fma(%a: vector<4xf32>) -> vector<4xf32> "None" {
    %0 = spirv.GL.Fma %a, %a, %a : vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// Modf stores the whole part through its pointer (a Function variable, so
// the natural layout: one vector store) and returns the fraction. The
// fraction has the sign of x and is a zero for infinities.
// CHECK-LABEL: llvm.func internal @modf
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<3xf32>
// CHECK: %[[VAR:.*]] = llvm.alloca %{{.*}} x !llvm.array<12 x i8>
// CHECK: %[[WHOLE:.*]] = llvm.intr.trunc(%[[X]])
// CHECK: %[[DIFF:.*]] = llvm.fsub %[[X]], %[[WHOLE]]
// CHECK: %[[ABS:.*]] = llvm.intr.fabs(%[[X]])
// CHECK: %[[INF:.*]] = llvm.mlir.constant(dense<0x7F800000> : vector<3xf32>)
// CHECK: %[[ISINF:.*]] = llvm.fcmp "oeq" %[[ABS]], %[[INF]]
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(dense<0.000000e+00> : vector<3xf32>)
// CHECK: %[[FR:.*]] = llvm.select %[[ISINF]], %[[ZERO]], %[[DIFF]]
// CHECK: %[[FRACTION:.*]] = llvm.intr.copysign(%[[FR]], %[[X]])
// CHECK: llvm.store %[[WHOLE]], %[[VAR]] {alignment = 4 : i64} : vector<3xf32>, !llvm.ptr
// CHECK: llvm.return %[[FRACTION]]
module {
  spirv.func @modf(%x: vector<3xf32>) -> vector<3xf32> "None" {
    %p = spirv.Variable : !spirv.ptr<vector<3xf32>, Function>
    %0 = spvb.glsl 35 (%x, %p) : (vector<3xf32>, !spirv.ptr<vector<3xf32>, Function>) -> vector<3xf32>
    spirv.ReturnValue %0 : vector<3xf32>
  }
}

// -----

// CHECK-LABEL: llvm.func internal @modf_struct
// CHECK: %[[WHOLE:.*]] = llvm.intr.trunc
// CHECK: %[[FRACTION:.*]] = llvm.intr.copysign
// CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(f64, f64)>
// CHECK: %[[S:.*]] = llvm.insertvalue %[[FRACTION]], %[[P]][0]
// CHECK: llvm.insertvalue %[[WHOLE]], %[[S]][1]
module {
  spirv.func @modf_struct(%x: f64) -> !spirv.struct<(f64, f64)> "None" {
    %0 = spvb.glsl 36 (%x) : (f64) -> !spirv.struct<(f64, f64)>
    spirv.ReturnValue %0 : !spirv.struct<(f64, f64)>
  }
}

// -----

// Frexp stores the exponent (0 for inf and NaN, which LLVM leaves
// unspecified) and returns the mantissa.
// CHECK-LABEL: llvm.func internal @frexp
// CHECK-SAME: %[[X:[a-z0-9]+]]: vector<2xf32>
// CHECK: %[[VAR:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x i8>
// CHECK: %[[PAIR:.*]] = llvm.intr.frexp(%[[X]]) : (vector<2xf32>) -> !llvm.struct<(vector<2xf32>, vector<2xi32>)>
// CHECK: %[[MANT:.*]] = llvm.extractvalue %[[PAIR]][0]
// CHECK: %[[EXP:.*]] = llvm.extractvalue %[[PAIR]][1]
// CHECK: %[[ABS:.*]] = llvm.intr.fabs(%[[X]])
// CHECK: %[[NOTFINITE:.*]] = llvm.fcmp "ueq" %[[ABS]], %{{.*}}
// CHECK: %[[E:.*]] = llvm.select %[[NOTFINITE]], %{{.*}}, %[[EXP]]
// CHECK: llvm.store %[[E]], %[[VAR]] {alignment = 4 : i64} : vector<2xi32>, !llvm.ptr
// CHECK: llvm.return %[[MANT]]
module {
  spirv.func @frexp(%x: vector<2xf32>) -> vector<2xf32> "None" {
    %p = spirv.Variable : !spirv.ptr<vector<2xi32>, Function>
    %0 = spvb.glsl 51 (%x, %p) : (vector<2xf32>, !spirv.ptr<vector<2xi32>, Function>) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// CHECK-LABEL: llvm.func internal @frexp_struct
// CHECK: llvm.intr.frexp(%{{.*}}) : (f32) -> !llvm.struct<(f32, i32)>
// CHECK: llvm.fcmp "ueq"
// CHECK: %[[E:.*]] = llvm.select
// CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(f32, i32)>
// CHECK: %[[S:.*]] = llvm.insertvalue %{{.*}}, %[[P]][0]
// CHECK: llvm.insertvalue %[[E]], %[[S]][1]
spirv.module Logical GLSL450 {
  spirv.func @frexp_struct(%x: f32) -> !spirv.struct<(f32, i32)> "None" {
    %0 = spirv.GL.FrexpStruct %x : f32 -> !spirv.struct<(f32, i32)>
    spirv.ReturnValue %0 : !spirv.struct<(f32, i32)>
  }
}

// -----

// Ldexp takes i32 exponents; wider ones are clamped first, narrower ones
// sign-extended. (llvm.intr.ldexp admits scalar exponents only.) Half is
// computed in float and rounded back once (LLVM 22 miscompiles half vectors
// on AVX-512).
// CHECK-LABEL: llvm.func internal @ldexp
// CHECK: llvm.call_intrinsic "llvm.ldexp"(%{{.*}}, %{{.*}}) : (f32, i32) -> f32
// CHECK: %[[MIN:.*]] = llvm.mlir.constant(dense<-2147483648> : vector<2xi64>)
// CHECK: %[[MAX:.*]] = llvm.mlir.constant(dense<2147483647> : vector<2xi64>)
// CHECK: %[[UP:.*]] = llvm.intr.smax(%{{.*}}, %[[MIN]])
// CHECK: %[[E:.*]] = llvm.intr.smin(%[[UP]], %[[MAX]])
// CHECK: %[[T:.*]] = llvm.trunc %[[E]] : vector<2xi64> to vector<2xi32>
// CHECK: llvm.call_intrinsic "llvm.ldexp"(%{{.*}}, %[[T]]) : (vector<2xf64>, vector<2xi32>) -> vector<2xf64>
// CHECK: %[[WIDE:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK: %[[S:.*]] = llvm.sext %{{.*}} : i16 to i32
// CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.ldexp"(%[[WIDE]], %[[S]]) : (f32, i32) -> f32
// CHECK: llvm.fptrunc %[[R]] : f32 to f16
// CHECK: %[[WV:.*]] = llvm.fpext %{{.*}} : vector<2xf16> to vector<2xf32>
// CHECK: %[[RV:.*]] = llvm.call_intrinsic "llvm.ldexp"(%[[WV]], %{{.*}}) : (vector<2xf32>, vector<2xi32>) -> vector<2xf32>
// CHECK: llvm.fptrunc %[[RV]] : vector<2xf32> to vector<2xf16>
spirv.module Logical GLSL450 {
  spirv.func @ldexp(%a: f32, %i: i32, %v: vector<2xf64>, %e: vector<2xi64>, %h: f16, %s: i16, %hv: vector<2xf16>, %iv: vector<2xi32>) "None" {
    %0 = spirv.GL.Ldexp %a : f32, %i : i32 -> f32
    %1 = spirv.GL.Ldexp %v : vector<2xf64>, %e : vector<2xi64> -> vector<2xf64>
    %2 = spirv.GL.Ldexp %h : f16, %s : i16 -> f16
    %3 = spirv.GL.Ldexp %hv : vector<2xf16>, %iv : vector<2xi32> -> vector<2xf16>
    spirv.Return
  }
}
