; RUN: spvb-llvm-opt -passes='spvb-invocation-vectorizer<lanes=4>' %s | FileCheck %s
; RUN: spvb-llvm-opt -passes='spvb-invocation-vectorizer<lanes=4>' --spvb-stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

; A kernel of 8 invocations whose workgroup entry is the plain loop
; (spvb_kernel_info field 8: SPVB_WORKGROUP_ENTRY_LOOP = 1) gets a new one
; running 4 invocations at a time, one per lane: field 8 becomes
; SPVB_WORKGROUP_ENTRY_LANES (3) and field 14, simd_lanes, 4. The body
; reads data[gl_GlobalInvocationID.x] and doubles it where it is positive.

; CHECK: @spvb_main_info = constant [17 x i32] [i32 12, i32 8, i32 1, i32 1, i32 0, i32 0, i32 1, i32 0, i32 3, i32 0, i32 5, i32 0, i32 0, i32 0, i32 4, i32 0, i32 0]
@spvb_main_info = constant [17 x i32] [i32 12, i32 8, i32 1, i32 1, i32 0, i32 0, i32 1, i32 0, i32 1, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

; One invocation: nothing to run side by side, left as it is.
; CHECK: @spvb_one_info = constant [17 x i32] [i32 12, i32 1, i32 1, i32 1, i32 0, i32 0, i32 1, i32 0, i32 1, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]
@spvb_one_info = constant [17 x i32] [i32 12, i32 1, i32 1, i32 1, i32 0, i32 0, i32 1, i32 0, i32 1, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

define void @spvb_main_invocation(ptr %dispatch, ptr %invocation) {
entry:
  ; global_id.x at byte 24 of the invocation block; binding 0's base
  ; through the dispatch's binding table at byte 32.
  %id.addr = getelementptr i8, ptr %invocation, i64 24
  %id = load i32, ptr %id.addr, align 4
  %table.addr = getelementptr i8, ptr %dispatch, i64 32
  %table = load ptr, ptr %table.addr, align 8, !invariant.load !0
  %data = load ptr, ptr %table, align 8, !invariant.load !0
  %index = sext i32 %id to i64
  %offset = mul i64 %index, 4
  %element = getelementptr i8, ptr %data, i64 %offset
  %value = load float, ptr %element, align 4
  %positive = fcmp ogt float %value, 0.0
  br i1 %positive, label %double, label %done

double:
  %twice = fmul float %value, 2.0
  store float %twice, ptr %element, align 4
  br label %done

done:
  ret void
}

define void @spvb_main_workgroup(ptr %dispatch, ptr %invocation) {
  call void @spvb_main_invocation(ptr %dispatch, ptr %invocation)
  ret void
}

define void @spvb_one_invocation(ptr %dispatch, ptr %invocation) {
  ret void
}
define void @spvb_one_workgroup(ptr %dispatch, ptr %invocation) {
  call void @spvb_one_invocation(ptr %dispatch, ptr %invocation)
  ret void
}

; CHECK-LABEL: define void @spvb_one_workgroup(
; CHECK-NEXT: call void @spvb_one_invocation
; The lane-mask markers are gone with the bodies that called them.
; CHECK-NOT: @spvb.lanes.

; The new entry replaces the loop (and comes last): the lanes' local
; indices, a vector load where the lanes' addresses are consecutive, the
; comparison and the product as vectors of 4.
; CHECK-LABEL: define void @spvb_main_workgroup(
; CHECK-NOT: call void @spvb_main_invocation
; CHECK: %local.index = add <4 x i32> %{{.*}}, <i32 0, i32 1, i32 2, i32 3>
; CHECK-DAG: fcmp ogt <4 x float>
; CHECK-DAG: fmul <4 x float> %{{.*}}, splat (float 2.000000e+00)
; CHECK-DAG: load <4 x float>, ptr

; Both accesses of data[id] are proven consecutive for the workgroup.
; STATS-DAG: 2 NumAccesses
; STATS-DAG: 2 NumWorkgroupLines
; STATS-DAG: 1 NumLaneKernels

!0 = !{}
