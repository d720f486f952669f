; RUN: spvb-llvm-opt -passes=spvb-workgroup-loops %s | FileCheck %s

; The dispatch's fields (here gl_NumWorkGroups.x, byte 0) do not change
; during a launch, so a value loaded from them before a barrier is loaded
; again after it instead of kept per invocation in scratch memory: the
; scratch size (field 9) stays 0 and the second region loads the field.

; CHECK: @spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 2, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]
@spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

declare void @spvb_rt_control_barrier(ptr, i32, i32, i32)

; n = gl_NumWorkGroups.x * 2; barrier(); tmp[0] = n, with `tmp` the
; workgroup's shared memory (byte 40 of the invocation block).
define void @spvb_main_invocation(ptr %dispatch, ptr %invocation) {
  %groups = load i32, ptr %dispatch, align 4
  %n = mul i32 %groups, 2
  call void @spvb_rt_control_barrier(ptr %invocation, i32 2, i32 2, i32 264)
  %shared.addr = getelementptr i8, ptr %invocation, i64 40
  %shared = load ptr, ptr %shared.addr, align 8
  store i32 %n, ptr %shared, align 4
  ret void
}

; CHECK-LABEL: define void @spvb_main_workgroup(
; CHECK: region1:
; CHECK: %[[GROUPS:.*]] = load i32, ptr %0, align 4
; CHECK: mul i32 %[[GROUPS]], 2
