; RUN: spvb-llvm-opt -passes=spvb-convergent-operations %s | FileCheck %s

; Every defined function, and the runtime's barrier and subgroup functions,
; become convergent: no optimization may then make a barrier depend on a
; value that differs between invocations. Other declarations stay as they
; are.

; CHECK: declare void @spvb_rt_control_barrier(ptr, i32, i32, i32) #[[CONV:[0-9]+]]
declare void @spvb_rt_control_barrier(ptr, i32, i32, i32)
; CHECK: declare void @spvb_rt_subgroup(ptr, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr) #[[CONV]]
declare void @spvb_rt_subgroup(ptr, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr)
; CHECK: declare void @spvb_rt_printf(ptr, ptr, ...){{$}}
declare void @spvb_rt_printf(ptr, ptr, ...)

; CHECK: define void @spvb_main_invocation(ptr %d, ptr %i) #[[CONV]]
define void @spvb_main_invocation(ptr %d, ptr %i) {
  call void @helper(ptr %i)
  ret void
}

; CHECK: define internal void @helper(ptr %i) #[[CONV]]
define internal void @helper(ptr %i) {
  call void @spvb_rt_control_barrier(ptr %i, i32 2, i32 2, i32 264)
  ret void
}

; CHECK: attributes #[[CONV]] = { convergent }
