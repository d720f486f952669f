; Two loops around the control barrier: one whose steps halve a constant
; (8, 4, 2, 1: four trips) and one whose trip count is an argument.
declare void @spvb_rt_control_barrier(ptr, i32, i32, i32) convergent

define void @halving(ptr %block, ptr %out, i32 %tid) {
entry:
  br label %loop

loop:
  %s = phi i32 [ 8, %entry ], [ %next, %loop ]
  %slot = getelementptr i32, ptr %out, i32 %s
  store i32 %tid, ptr %slot
  call void @spvb_rt_control_barrier(ptr %block, i32 2, i32 2, i32 264)
  %next = lshr i32 %s, 1
  %done = icmp eq i32 %next, 0
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @counted(ptr %block, ptr %out, i32 %tid, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %slot = getelementptr i32, ptr %out, i32 %i
  store i32 %tid, ptr %slot
  call void @spvb_rt_control_barrier(ptr %block, i32 2, i32 2, i32 264)
  %next = add i32 %i, 1
  %done = icmp uge i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}
