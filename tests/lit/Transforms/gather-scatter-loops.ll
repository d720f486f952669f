; RUN: spvb-llvm-opt -passes=spvb-gather-scatter-loops %s | FileCheck %s
; RUN: spvb-llvm-opt -passes=spvb-gather-scatter-loops --spvb-stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

; On a core without fast gathers (AMD's Zen 3), a masked gather whose mask
; is not constant becomes: with every lane active, the same gather with an
; all-true mask (straight-line scalar loads); with none, the pass-through;
; else a loop over the set bits of the mask, one scalar load per active
; lane, that the unroller must leave a loop. Each function names its
; features, or the host's (AVX-512's gathers and scatters) would apply.
define <8 x float> @gather(<8 x ptr> %pointers, <8 x i1> %mask) "target-cpu"="znver3" "target-features"="+avx2" {
  %values = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> align 4 %pointers, <8 x i1> %mask, <8 x float> zeroinitializer)
  ret <8 x float> %values
}
; CHECK-LABEL: define <8 x float> @gather(
; CHECK: %lanes.bits = bitcast <8 x i1> %mask to i8
; CHECK: %[[ALL:[0-9]+]] = icmp eq i8 %lanes.bits, -1
; CHECK: %[[NONE:[0-9]+]] = icmp eq i8 %lanes.bits, 0
; CHECK: br i1 %[[ALL]], label %lanes.every, label %lanes.some
; CHECK: lanes.every:
; CHECK-NEXT: %[[WHOLE:[0-9]+]] = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> align 4 %pointers, <8 x i1> splat (i1 true), <8 x float> poison)
; CHECK: lanes.some:
; CHECK-NEXT: br i1 %[[NONE]], label %lanes.gathered, label %lanes.each
; CHECK: lanes.each:
; CHECK-NEXT: %lanes.rest = phi i8 [ %lanes.bits, %lanes.some ], [ %[[NEXT:[0-9]+]], %lanes.each ]
; CHECK-NEXT: %lanes.values = phi <8 x float> [ zeroinitializer, %lanes.some ], [ %[[INSERTED:[0-9]+]], %lanes.each ]
; CHECK-NEXT: %[[LANE:[0-9]+]] = call i8 @llvm.cttz.i8(i8 %lanes.rest, i1 true)
; CHECK-NEXT: %[[POINTER:[0-9]+]] = extractelement <8 x ptr> %pointers, i8 %[[LANE]]
; CHECK-NEXT: %[[VALUE:[0-9]+]] = load float, ptr %[[POINTER]], align 4
; CHECK-NEXT: %[[INSERTED]] = insertelement <8 x float> %lanes.values, float %[[VALUE]], i8 %[[LANE]]
; CHECK-NEXT: %[[LESS:[0-9]+]] = sub i8 %lanes.rest, 1
; CHECK-NEXT: %[[NEXT]] = and i8 %lanes.rest, %[[LESS]]
; CHECK-NEXT: %[[MORE:[0-9]+]] = icmp ne i8 %[[NEXT]], 0
; CHECK-NEXT: br i1 %[[MORE]], label %lanes.each, label %lanes.gathered, !llvm.loop ![[LOOP:[0-9]+]]
; CHECK: lanes.gathered:
; CHECK-NEXT: %values = phi <8 x float> [ %[[WHOLE]], %lanes.every ], [ zeroinitializer, %lanes.some ], [ %[[INSERTED]], %lanes.each ]
; CHECK-NEXT: ret <8 x float> %values

; A scatter: the lanes' values stored one by one.
define void @scatter(<8 x float> %values, <8 x ptr> %pointers, <8 x i1> %mask) "target-cpu"="znver3" "target-features"="+avx2" {
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %values, <8 x ptr> align 4 %pointers, <8 x i1> %mask)
  ret void
}
; CHECK-LABEL: define void @scatter(
; CHECK: lanes.every:
; CHECK-NEXT: call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %values, <8 x ptr> align 4 %pointers, <8 x i1> splat (i1 true))
; CHECK: lanes.each:
; CHECK: %[[LANE:[0-9]+]] = call i8 @llvm.cttz.i8(i8 %lanes.rest, i1 true)
; CHECK-NEXT: %[[POINTER:[0-9]+]] = extractelement <8 x ptr> %pointers, i8 %[[LANE]]
; CHECK-NEXT: %[[VALUE:[0-9]+]] = extractelement <8 x float> %values, i8 %[[LANE]]
; CHECK-NEXT: store float %[[VALUE]], ptr %[[POINTER]], align 4

; Where the core gathers in hardware (Intel's Skylake), the gather stays;
; no AVX2 core scatters, so the scatter still becomes a loop.
define <8 x float> @fast(<8 x float> %values, <8 x ptr> %pointers, <8 x i1> %mask) "target-cpu"="skylake" "target-features"="+avx2" {
  %loaded = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> align 4 %pointers, <8 x i1> %mask, <8 x float> poison)
  call void @llvm.masked.scatter.v8f32.v8p0(<8 x float> %values, <8 x ptr> align 4 %pointers, <8 x i1> %mask)
  ret <8 x float> %loaded
}
; CHECK-LABEL: define <8 x float> @fast(
; CHECK-NEXT: %loaded = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> align 4 %pointers, <8 x i1> %mask, <8 x float> poison)
; CHECK: lanes.each:
; CHECK: store float

; An all-true mask is already straight-line code.
define <8 x float> @every(<8 x ptr> %pointers) "target-cpu"="znver3" "target-features"="+avx2" {
  %values = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> align 4 %pointers, <8 x i1> splat (i1 true), <8 x float> poison)
  ret <8 x float> %values
}
; CHECK-LABEL: define <8 x float> @every(
; CHECK-NEXT: %values = call <8 x float> @llvm.masked.gather.v8f32.v8p0(<8 x ptr> align 4 %pointers, <8 x i1> splat (i1 true), <8 x float> poison)
; CHECK-NEXT: ret <8 x float> %values

; CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[DISABLE:[0-9]+]]}
; CHECK: ![[DISABLE]] = !{!"llvm.loop.unroll.disable"}

; Three rewritten: the gather and scatter on Zen 3, the scatter on Skylake.
; STATS: 3 NumLaneLoops
