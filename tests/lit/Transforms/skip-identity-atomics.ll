; RUN: spvb-llvm-opt -passes=spvb-skip-identity-atomics %s | FileCheck %s

; A relaxed atomic whose old value is unused runs only when its operand
; changes memory: not for an add of 0, an and of all ones, a signed maximum
; with the least i32. Atomics whose result is read, that order other
; accesses, that are volatile or whose operand is a constant stay as they
; are.

; CHECK-LABEL: define void @add(
; CHECK: %[[CHANGES:.*]] = icmp ne i32 %v, 0
; CHECK-NEXT: br i1 %[[CHANGES]], label %[[THEN:.*]], label %[[DONE:.*]]
; CHECK: [[THEN]]:
; CHECK-NEXT: atomicrmw add ptr %p, i32 %v monotonic
; CHECK-NEXT: br label %[[DONE]]
; CHECK: [[DONE]]:
; CHECK-NEXT: ret void
define void @add(ptr %p, i32 %v) {
  %old = atomicrmw add ptr %p, i32 %v monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @and(
; CHECK: icmp ne i64 %v, -1
; CHECK: atomicrmw and ptr %p, i64 %v monotonic
define void @and(ptr %p, i64 %v) {
  %old = atomicrmw and ptr %p, i64 %v monotonic, align 8
  ret void
}

; CHECK-LABEL: define void @smax(
; CHECK: icmp ne i32 %v, -2147483648
; CHECK: atomicrmw max ptr %p, i32 %v monotonic
define void @smax(ptr %p, i32 %v) {
  %old = atomicrmw max ptr %p, i32 %v monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @umin(
; CHECK: icmp ne i32 %v, -1
; CHECK: atomicrmw umin ptr %p, i32 %v monotonic
define void @umin(ptr %p, i32 %v) {
  %old = atomicrmw umin ptr %p, i32 %v monotonic, align 4
  ret void
}

; CHECK-LABEL: define i32 @used(
; CHECK-NOT: icmp
; CHECK: atomicrmw add ptr %p, i32 %v monotonic
define i32 @used(ptr %p, i32 %v) {
  %old = atomicrmw add ptr %p, i32 %v monotonic, align 4
  ret i32 %old
}

; CHECK-LABEL: define void @release(
; CHECK-NOT: icmp
; CHECK: atomicrmw add ptr %p, i32 %v release
define void @release(ptr %p, i32 %v) {
  %old = atomicrmw add ptr %p, i32 %v release, align 4
  ret void
}

; CHECK-LABEL: define void @volatile(
; CHECK-NOT: icmp
; CHECK: atomicrmw volatile add ptr %p, i32 %v monotonic
define void @volatile(ptr %p, i32 %v) {
  %old = atomicrmw volatile add ptr %p, i32 %v monotonic, align 4
  ret void
}

; CHECK-LABEL: define void @constant(
; CHECK-NOT: icmp
; CHECK: atomicrmw add ptr %p, i32 1 monotonic
define void @constant(ptr %p) {
  %old = atomicrmw add ptr %p, i32 1 monotonic, align 4
  ret void
}

; An exchange has no identity: it always stores.
; CHECK-LABEL: define void @xchg(
; CHECK-NOT: icmp
; CHECK: atomicrmw xchg ptr %p, i32 %v monotonic
define void @xchg(ptr %p, i32 %v) {
  %old = atomicrmw xchg ptr %p, i32 %v monotonic, align 4
  ret void
}

; A float add keeps its atomic (adding +0.0 turns -0.0 into +0.0).
; CHECK-LABEL: define void @fadd(
; CHECK-NOT: fcmp
; CHECK: atomicrmw fadd ptr %p, float %v monotonic
define void @fadd(ptr %p, float %v) {
  %old = atomicrmw fadd ptr %p, float %v monotonic, align 4
  ret void
}
