; RUN: spvb-llvm-opt -passes=spvb-subgroup-sites %s | FileCheck %s

; The `site` argument (the fifth) of each spvb_rt_subgroup call is numbered
; in a topological order of the CFG in which a loop's blocks come before
; the blocks its exits lead to, so that an invocation that left the loop
; early waits at the call after it until the others are done looping. The
; call after the loop is first in the function's layout, yet gets the
; higher number.

declare void @spvb_rt_subgroup(ptr, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)

; CHECK-LABEL: define void @spvb_main_invocation
define void @spvb_main_invocation(ptr %d, ptr %i, i1 %stay) {
entry:
  br label %loop

; CHECK: after:
; CHECK-NEXT: call void @spvb_rt_subgroup(ptr %i, i32 350, i32 3, i32 0, i32 2,
after:
  call void @spvb_rt_subgroup(ptr %i, i32 350, i32 3, i32 0, i32 0, i32 0, i32 0, ptr null, ptr null, ptr null)
  ret void

; CHECK: loop:
; CHECK-NEXT: call void @spvb_rt_subgroup(ptr %i, i32 339, i32 3, i32 0, i32 1,
loop:
  call void @spvb_rt_subgroup(ptr %i, i32 339, i32 3, i32 0, i32 0, i32 0, i32 0, ptr null, ptr null, ptr null)
  br i1 %stay, label %loop, label %after
}

; A function without subgroup calls is left alone.
; CHECK-LABEL: define void @other
; CHECK-NEXT: ret void
define void @other() {
  ret void
}
