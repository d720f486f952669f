; RUN: spvb-llvm-opt -passes=spvb-single-thread-atomics %s | FileCheck %s

; Single-thread atomics (workgroup memory's) become plain accesses: the old
; value loaded, the operation, the new value stored; a compare-and-swap
; stores only when the old value equals the comparator. Other scopes keep
; their atomics.

; CHECK-LABEL: define i32 @add(
; CHECK-NEXT: %[[OLD:.*]] = load i32, ptr %p, align 4
; CHECK-NEXT: %[[NEW:.*]] = add i32 %[[OLD]], %v
; CHECK-NEXT: store i32 %[[NEW]], ptr %p, align 4
; CHECK-NEXT: ret i32 %[[OLD]]
define i32 @add(ptr %p, i32 %v) {
  %old = atomicrmw add ptr %p, i32 %v syncscope("singlethread") acq_rel, align 4
  ret i32 %old
}

; CHECK-LABEL: define i32 @umax(
; CHECK: %[[OLD:.*]] = load i32, ptr %p, align 4
; CHECK: %[[GREATER:.*]] = icmp ugt i32 %[[OLD]], %v
; CHECK: %[[NEW:.*]] = select i1 %[[GREATER]], i32 %[[OLD]], i32 %v
; CHECK: store i32 %[[NEW]], ptr %p, align 4
define i32 @umax(ptr %p, i32 %v) {
  %old = atomicrmw umax ptr %p, i32 %v syncscope("singlethread") monotonic, align 4
  ret i32 %old
}

; CHECK-LABEL: define i32 @swap(
; CHECK: %[[OLD:.*]] = load i32, ptr %p, align 4
; CHECK: %[[SAME:.*]] = icmp eq i32 %[[OLD]], %cmp
; CHECK: %[[NEW:.*]] = select i1 %[[SAME]], i32 %v, i32 %[[OLD]]
; CHECK: store i32 %[[NEW]], ptr %p, align 4
define i32 @swap(ptr %p, i32 %cmp, i32 %v) {
  %pair = cmpxchg ptr %p, i32 %cmp, i32 %v syncscope("singlethread") seq_cst seq_cst, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  ret i32 %old
}

; CHECK-LABEL: define i32 @device(
; CHECK-NEXT: atomicrmw add ptr %p, i32 %v monotonic
; CHECK-NEXT: cmpxchg ptr %p, i32 0, i32 %v syncscope("agent") monotonic monotonic
define i32 @device(ptr %p, i32 %v) {
  %old = atomicrmw add ptr %p, i32 %v monotonic, align 4
  %pair = cmpxchg ptr %p, i32 0, i32 %v syncscope("agent") monotonic monotonic, align 4
  ret i32 %old
}
