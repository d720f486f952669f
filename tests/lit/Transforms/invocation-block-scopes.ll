; RUN: spvb-llvm-opt -passes=spvb-invocation-block-scopes %s | FileCheck %s --check-prefix=SCOPES
; RUN: spvb-llvm-opt -passes=spvb-invocation-block-scopes,gvn %s | FileCheck %s --check-prefix=GVN

; The invocation block's accesses get its scope, the shader's memory (a
; pointer loaded from a block, an alloca, the dispatch block) its noalias.
; Then a store to Private storage or to a buffer no longer overwrites the
; block's field holding Private storage's address: GVN loads it once and
; reads the Private variable at the address it stored it to. An entry that
; takes its block's address as an integer keeps every access as it was.

@spvb_main_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]
@spvb_escapes_info = constant [17 x i32] [i32 12, i32 4, i32 1, i32 1, i32 16, i32 0, i32 1, i32 1, i32 0, i32 0, i32 5, i32 0, i32 0, i32 0, i32 1, i32 0, i32 0]

; SCOPES-LABEL: define i32 @spvb_main_invocation(
; SCOPES: %private = load ptr, ptr %private.field, align 8, !alias.scope ![[BLOCK:[0-9]+]]
; SCOPES: store i32 %x, ptr %variable, align 4, !noalias ![[BLOCK]]
; SCOPES: %buffer = load ptr, ptr %dispatch, align 8, !noalias ![[BLOCK]]
; SCOPES: store i32 7, ptr %buffer, align 4, !noalias ![[BLOCK]]
; SCOPES: %private.again = load ptr, ptr %private.field, align 8, !alias.scope ![[BLOCK]]
; SCOPES: %local = load i32, ptr %local.field, align 4, !alias.scope ![[BLOCK]]
; SCOPES: store i32 %local, ptr %slot, align 4, !noalias ![[BLOCK]]

; GVN-LABEL: define i32 @spvb_main_invocation(
; GVN: %private = load ptr
; GVN-NOT: load ptr, ptr %private.field
; GVN: %y = load i32, ptr %variable,
; GVN: ret i32 %y
define i32 @spvb_main_invocation(ptr %dispatch, ptr %block) {
  %slot = alloca i32
  %private.field = getelementptr i8, ptr %block, i64 48
  %private = load ptr, ptr %private.field, align 8
  %local.field = getelementptr i8, ptr %block, i64 12
  %x.field = getelementptr i8, ptr %block, i64 4
  %x = load i32, ptr %x.field, align 4
  %variable = getelementptr i8, ptr %private, i64 8
  store i32 %x, ptr %variable, align 4
  %buffer = load ptr, ptr %dispatch, align 8
  store i32 7, ptr %buffer, align 4
  %private.again = load ptr, ptr %private.field, align 8
  %variable.again = getelementptr i8, ptr %private.again, i64 8
  %y = load i32, ptr %variable.again, align 4
  %local = load i32, ptr %local.field, align 4
  store i32 %local, ptr %slot, align 4
  ret i32 %y
}

; SCOPES-LABEL: define i32 @spvb_escapes_invocation(
; SCOPES-NOT: !alias.scope
; SCOPES-NOT: !noalias
; SCOPES: ret i32

; GVN-LABEL: define i32 @spvb_escapes_invocation(
; GVN: %private.again = load ptr, ptr %private.field
; GVN: ret i32 %y
define i32 @spvb_escapes_invocation(ptr %dispatch, ptr %block) {
  %address = ptrtoint ptr %block to i64
  %buffer = load ptr, ptr %dispatch, align 8
  store i64 %address, ptr %buffer, align 8
  %private.field = getelementptr i8, ptr %block, i64 48
  %private = load ptr, ptr %private.field, align 8
  %variable = getelementptr i8, ptr %private, i64 8
  store i32 1, ptr %variable, align 4
  %private.again = load ptr, ptr %private.field, align 8
  %variable.again = getelementptr i8, ptr %private.again, i64 8
  %y = load i32, ptr %variable.again, align 4
  ret i32 %y
}

; SCOPES: ![[BLOCK]] = !{![[SCOPE:[0-9]+]]}
; SCOPES: ![[SCOPE]] = distinct !{![[SCOPE]], ![[DOMAIN:[0-9]+]], !"spvb.block"}
; SCOPES: ![[DOMAIN]] = distinct !{![[DOMAIN]], !"spvb.invocation"}
