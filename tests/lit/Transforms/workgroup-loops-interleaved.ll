; RUN: spvb-llvm-opt -passes='spvb-workgroup-loops<lanes=4>' %s | FileCheck %s
; RUN: spvb-llvm-opt -passes='spvb-workgroup-loops<lanes=4>' %s | FileCheck %s --check-prefix=FILL
; RUN: spvb-llvm-opt -passes=spvb-workgroup-loops %s | FileCheck %s --check-prefix=SCALAR

; A Function array live across a barrier gets a scratch array. Accessed only
; as 4-byte scalars, its copies go element by element when the regions run
; in lanes: invocation i's element e (byte 4e) at byte 4e * 4 + 4i of the
; array, for the 4 invocations, so that lanes reach one element of
; consecutive invocations as one vector. Its zero fill becomes a store per
; element. Without lanes each invocation's copy stays whole (16 bytes).

@spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

declare void @spvb_rt_control_barrier(ptr, i32, i32, i32)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)

; cache = {0, 1, 2, 0}; barrier(); data[i] = cache[i & 3], `i` the local
; index (byte 36 of the invocation block).
define void @spvb_main_invocation(ptr %dispatch, ptr %invocation) {
entry:
  %cache = alloca [4 x float], align 16
  call void @llvm.memset.p0.i64(ptr align 16 %cache, i8 0, i64 16, i1 false)
  %index.addr = getelementptr i8, ptr %invocation, i64 36
  %i = load i32, ptr %index.addr, align 4
  %table.addr = getelementptr i8, ptr %dispatch, i64 32
  %table = load ptr, ptr %table.addr, align 8
  %data = load ptr, ptr %table, align 8
  br label %fill

fill:
  %k = phi i64 [ 0, %entry ], [ %k.next, %fill ]
  %bytes = shl i64 %k, 2
  %slot = getelementptr inbounds i8, ptr %cache, i64 %bytes
  %kf = uitofp i64 %k to float
  store float %kf, ptr %slot, align 4
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, 3
  br i1 %more, label %fill, label %sync

sync:
  call void @spvb_rt_control_barrier(ptr %invocation, i32 2, i32 2, i32 264)
  %j = and i32 %i, 3
  %element = getelementptr inbounds [4 x float], ptr %cache, i64 0, i32 %j
  %value = load float, ptr %element, align 4
  %offset = zext i32 %i to i64
  %out = getelementptr float, ptr %data, i64 %offset
  store float %value, ptr %out, align 4
  ret void
}

; CHECK-LABEL: define void @spvb_main_workgroup(
; CHECK-NOT: call void @llvm.memset
; Each invocation's copy starts 4 bytes after the one before...
; CHECK: %[[WORDS:[0-9]+]] = shl nuw nsw <4 x i64> %{{[0-9]+}}, splat (i64 2)
; CHECK: %[[COPIES:[0-9]+]] = getelementptr inbounds nuw i8, ptr %{{.*}}, <4 x i64> %[[WORDS]]
; ...and the fill loop's byte 4k is at 4k x 4 (the 4 invocations).
; CHECK: %k = phi i64
; CHECK-NEXT: %[[K16:.*]] = shl nuw nsw i64 %k, 4
; CHECK: %slot{{[0-9]*}} = getelementptr inbounds nuw i8, <4 x ptr> %[[COPIES]], i64 %[[K16]]
; After the barrier, element i & 3 at 16 (i & 3).
; CHECK: %[[WORDS1:[0-9]+]] = shl nuw nsw <4 x i64> %{{[0-9]+}}, splat (i64 2)
; CHECK: %[[COPIES1:[0-9]+]] = getelementptr inbounds nuw i8, ptr %{{.*}}, <4 x i64> %[[WORDS1]]
; CHECK: %j = shl <4 x i32> %local.index{{[0-9]+}}, splat (i32 4)
; CHECK-NEXT: %[[J:.*]] = and <4 x i32> %j, splat (i32 48)
; CHECK-NEXT: %[[JW:.*]] = zext <4 x i32> %[[J]] to <4 x i64>
; CHECK-NEXT: %element{{[0-9]*}} = getelementptr inbounds nuw i8, <4 x ptr> %[[COPIES1]], <4 x i64> %[[JW]]

; The zero fill: a store per element, four invocations at a time.
; FILL-LABEL: define void @spvb_main_workgroup(
; FILL-COUNT-4: store <4 x i32> zeroinitializer

; SCALAR-LABEL: define void @spvb_main_workgroup(
; SCALAR: call void @llvm.memset.p0.i64(ptr align 16 %{{.*}}, i8 0, i64 16, i1 false)
; SCALAR: getelementptr inbounds [4 x float], ptr %{{.*}}, i64 0, i32 %j
