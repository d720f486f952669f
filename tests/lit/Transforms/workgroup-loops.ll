; RUN: spvb-llvm-opt -passes=spvb-workgroup-loops %s | FileCheck %s
; RUN: spvb-llvm-opt -passes=spvb-workgroup-loops --spvb-stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: spvb-llvm-opt -passes='spvb-workgroup-loops<lanes=4>' %s | FileCheck %s --check-prefix=LANES
; RUN: spvb-llvm-opt -passes='spvb-workgroup-loops<lanes=4>' --spvb-stats %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LANES-STATS

; A kernel of 4 invocations with one barrier (spvb_kernel_info field 7,
; uses_barriers, is 1) gets spvb_main_workgroup: two regions, each a loop
; over the invocations, chosen by a switch. Field 8 becomes
; SPVB_WORKGROUP_ENTRY_REGIONS (2) and field 9 the scratch bytes that hold
; each invocation's values live across the barrier (not zero: `i` and the
; address of data[i] are used after it).

; CHECK: @spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 2, i32 {{[1-9][0-9]*}}, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]
@spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

; Without barriers or subgroup calls: nothing to do.
; CHECK: @spvb_free_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]
@spvb_free_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

declare void @spvb_rt_control_barrier(ptr, i32, i32, i32)

; tmp[i] = data[i]; barrier(); data[i] = tmp[3 - i], with `tmp` the
; workgroup's shared memory (byte 40 of the invocation block) and `i` the
; local index (byte 36).
define void @spvb_main_invocation(ptr %dispatch, ptr %invocation) {
  %index.addr = getelementptr i8, ptr %invocation, i64 36
  %i = load i32, ptr %index.addr, align 4
  %table.addr = getelementptr i8, ptr %dispatch, i64 32
  %table = load ptr, ptr %table.addr, align 8
  %data = load ptr, ptr %table, align 8
  %shared.addr = getelementptr i8, ptr %invocation, i64 40
  %shared = load ptr, ptr %shared.addr, align 8
  %offset = zext i32 %i to i64
  %bytes = mul i64 %offset, 4
  %in = getelementptr i8, ptr %data, i64 %bytes
  %value = load i32, ptr %in, align 4
  %slot = getelementptr i8, ptr %shared, i64 %bytes
  store i32 %value, ptr %slot, align 4
  call void @spvb_rt_control_barrier(ptr %invocation, i32 2, i32 2, i32 264)
  %other = sub i32 3, %i
  %other.offset = zext i32 %other to i64
  %other.bytes = mul i64 %other.offset, 4
  %from = getelementptr i8, ptr %shared, i64 %other.bytes
  %swapped = load i32, ptr %from, align 4
  store i32 %swapped, ptr %in, align 4
  ret void
}

; The new entry comes last.
; CHECK-LABEL: define void @spvb_free_invocation(
; CHECK-LABEL: define void @spvb_main_workgroup(
; CHECK: %region = phi i32 [ 0, %entry ]
; CHECK: switch i32 %region, label %exit [
; CHECK-NEXT: i32 0, label %region0.start
; CHECK-NEXT: i32 1, label %region1.start
; CHECK-NEXT: ]
; No barrier is called any more: the regions' loops are the barrier.
; CHECK-NOT: call void @spvb_rt_control_barrier
; CHECK: region0:
; CHECK: %local.index = phi i32 [ 0, %region0.start ]
; CHECK: region1:
; CHECK-NOT: call void @spvb_rt_control_barrier
define void @spvb_free_invocation(ptr %dispatch, ptr %invocation) {
  ret void
}
; CHECK-NOT: @spvb_free_workgroup

; STATS-DAG: 1 NumRegionKernels
; STATS-DAG: 2 NumRegions
; STATS-NOT: NumLaneRegions

; In 4 lanes, each region is one chunk of the four invocations: the
; loads and stores of data[i] and tmp[i] are vector accesses (tmp[3 - i]
; steps by -4 bytes, a gather), `in` (data + 4i, kept across the barrier)
; is a <4 x ptr> in scratch (4 x 8 bytes), and each region has one exit
; (region 0 the barrier, 1 the return), which the next region's number
; says without exit ids kept. The kernel info records the 4 lanes (field
; 14).
; LANES: @spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 2, i32 32, i32 5, i32 0, i32 0, i32 0, i32 4, i32 0, i32 0]
; LANES-LABEL: define void @spvb_main_workgroup(
; LANES-NOT: call void @spvb_rt_control_barrier
; LANES: %region = phi i32 [ 0, %entry ], [ 1, %region0.exits ], [ -1, %region1.exits ]
; LANES: region0.start:
; LANES-NEXT: br label %region0.lanes
; LANES: chunk:
; LANES: %local.index = add <4 x i32> %{{.*}}, <i32 0, i32 1, i32 2, i32 3>
; LANES: load <4 x i32>
; LANES: store <4 x i32>
; LANES: region1.start:
; LANES-NEXT: br label %region1.lanes
; LANES: call <4 x i32> @llvm.masked.gather.v4i32.v4p0(
; LANES-NOT: call void @spvb_rt_control_barrier
; LANES-NOT: exit.id
; LANES-STATS-DAG: 1 NumRegionKernels
; LANES-STATS-DAG: 2 NumRegions
; LANES-STATS-DAG: 2 NumLaneRegions
