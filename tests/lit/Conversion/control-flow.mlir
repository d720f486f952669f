// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// OpSwitch becomes llvm.switch with the same case values, targets and block
// operands. (Two edges into one block with operands never occur: the
// deserializer routes the second through a forwarding block.)
// CHECK-LABEL: llvm.func internal @switch
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[SEL:[a-z0-9]+]]: i32, %[[A:[a-z0-9]+]]: f32, %[[B:[a-z0-9]+]]: f32)
// CHECK: llvm.switch %[[SEL]] : i32, ^[[DEFAULT:bb[0-9]+]](%[[A]] : f32) [
// CHECK-NEXT: 0: ^[[ZERO:bb[0-9]+]](%[[B]] : f32),
// CHECK-NEXT: 7: ^[[SEVEN:bb[0-9]+]],
// CHECK-NEXT: -3: ^[[SEVEN]]
// CHECK-NEXT: ]
// CHECK: ^[[DEFAULT]](%[[X:.*]]: f32):
// CHECK-NEXT: llvm.return %[[X]] : f32
// CHECK: ^[[ZERO]](%[[Y:.*]]: f32):
// CHECK-NEXT: llvm.return %[[Y]] : f32
// CHECK: ^[[SEVEN]]:
// CHECK: llvm.mlir.constant(1.000000e+00 : f32) : f32
spirv.module Logical GLSL450 {
  spirv.func @switch(%sel: i32, %a: f32, %b: f32) -> f32 "None" {
    spirv.Switch %sel : i32, [
      default: ^bb1(%a : f32),
      0: ^bb3(%b : f32),
      7: ^bb2,
      -3: ^bb2
    ]
  ^bb1(%x: f32):
    spirv.ReturnValue %x : f32
  ^bb3(%y: f32):
    spirv.ReturnValue %y : f32
  ^bb2:
    %one = spirv.Constant 1.0 : f32
    spirv.ReturnValue %one : f32
  }
}

// -----

// 64-bit selectors keep their 64-bit case values.
// CHECK-LABEL: llvm.func internal @switch_i64
// CHECK: llvm.switch %{{.*}} : i64, ^{{.*}} [
// CHECK-NEXT: 4294967296: ^
// CHECK-NEXT: ]
spirv.module Logical GLSL450 {
  spirv.func @switch_i64(%sel: i64) -> i32 "None" {
    spirv.Switch %sel : i64, [
      default: ^bb1,
      4294967296: ^bb2
    ]
  ^bb1:
    %c0 = spirv.Constant 0 : i32
    spirv.ReturnValue %c0 : i32
  ^bb2:
    %c1 = spirv.Constant 1 : i32
    spirv.ReturnValue %c1 : i32
  }
}

// -----

// A switch with only a default is a branch, with the default's operands.
// CHECK-LABEL: llvm.func internal @switch_default_only
// CHECK-SAME: %[[SEL:[a-z0-9]+]]: i32, %[[A:[a-z0-9]+]]: i32)
// CHECK-NOT: llvm.switch
// CHECK: llvm.br ^[[BB:bb[0-9]+]](%[[A]] : i32)
// CHECK: ^[[BB]](%[[X:.*]]: i32):
// CHECK-NEXT: llvm.return %[[X]] : i32
spirv.module Logical GLSL450 {
  spirv.func @switch_default_only(%sel: i32, %a: i32) -> i32 "None" {
    spirv.Switch %sel : i32, [
      default: ^bb1(%a : i32)
    ]
  ^bb1(%x: i32):
    spirv.ReturnValue %x : i32
  }
}

// -----

// Conditional branches and loops keep their block arguments.
// CHECK-LABEL: llvm.func internal @loop
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32)
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.br ^[[HEAD:bb[0-9]+]](%[[ZERO]], %[[ZERO]] : i32, i32)
// CHECK: ^[[HEAD]](%[[I:.*]]: i32, %[[SUM:.*]]: i32):
// CHECK: %[[COND:.*]] = llvm.icmp "slt" %[[I]], %[[N]] : i32
// CHECK: llvm.cond_br %[[COND]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]](%[[SUM]] : i32)
// CHECK: ^[[BODY]]:
// CHECK: %[[NEXT:.*]] = llvm.add %[[SUM]], %[[I]] : i32
// CHECK: %[[INC:.*]] = llvm.add %[[I]], %{{.*}} : i32
// CHECK: llvm.br ^[[HEAD]](%[[INC]], %[[NEXT]] : i32, i32)
// CHECK: ^[[EXIT]](%[[R:.*]]: i32):
// CHECK: llvm.return %[[R]] : i32
spirv.module Logical GLSL450 {
  spirv.func @loop(%n: i32) -> i32 "None" {
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    spirv.Branch ^head(%c0, %c0 : i32, i32)
  ^head(%i: i32, %sum: i32):
    %cond = spirv.SLessThan %i, %n : i32
    spirv.BranchConditional %cond, ^body, ^exit(%sum : i32)
  ^body:
    %next = spirv.IAdd %sum, %i : i32
    %inc = spirv.IAdd %i, %c1 : i32
    spirv.Branch ^head(%inc, %next : i32, i32)
  ^exit(%r: i32):
    spirv.ReturnValue %r : i32
  }
}

// -----

// OpKill / OpTerminateInvocation end the invocation: a return (of zero in a
// function with a result), never LLVM's `unreachable`.
// CHECK-LABEL: llvm.func internal @kill_void
// CHECK: llvm.cond_br %{{.*}}, ^[[KILL:bb[0-9]+]], ^[[GO:bb[0-9]+]]
// CHECK: ^[[KILL]]:
// CHECK-NEXT: llvm.return
// CHECK-NOT: llvm.unreachable
// CHECK-LABEL: llvm.func internal @kill_value
// CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<2xf32>
// CHECK-NEXT: llvm.return %[[Z]] : vector<2xf32>
// CHECK-NOT: llvm.unreachable
spirv.module Logical GLSL450 {
  spirv.func @kill_void(%c: i1) "None" {
    spirv.BranchConditional %c, ^kill, ^go
  ^kill:
    spirv.Kill
  ^go:
    spirv.Return
  }
  spirv.func @kill_value(%v: vector<2xf32>) -> vector<2xf32> "None" {
    spirv.Kill
  }
}

// -----

// A reached OpUnreachable returns too (zero for a result), so the optimizer
// may not assume the path away.
// CHECK-LABEL: llvm.func internal @unreachable_void
// CHECK: llvm.cond_br %{{.*}}, ^[[BAD:bb[0-9]+]], ^[[GOOD:bb[0-9]+]]
// CHECK: ^[[BAD]]:
// CHECK-NEXT: llvm.return
// CHECK-NOT: llvm.unreachable
// CHECK-LABEL: llvm.func internal @unreachable_value
// CHECK: llvm.br ^[[BAD:bb[0-9]+]]
// CHECK: ^[[BAD]]:
// CHECK-NEXT: %[[Z:.*]] = llvm.mlir.zero : i64
// CHECK-NEXT: llvm.return %[[Z]] : i64
// CHECK-NOT: llvm.unreachable
spirv.module Logical GLSL450 {
  spirv.func @unreachable_void(%c: i1) "None" {
    spirv.BranchConditional %c, ^bad, ^good
  ^bad:
    spirv.Unreachable
  ^good:
    spirv.Return
  }
  spirv.func @unreachable_value() -> i64 "None" {
    spirv.Branch ^bad
  ^bad:
    spirv.Unreachable
  }
}

// -----

// Blocks no branch reaches are dropped before lowering.
// CHECK-LABEL: llvm.func internal @unreachable_block
// CHECK-NEXT: llvm.return
// CHECK-NEXT: }
spirv.module Logical GLSL450 {
  spirv.func @unreachable_block() "None" {
    spirv.Return
  ^dead:
    %c = spirv.Constant 1 : i32
    spirv.Return
  }
}

// -----

// A pointer carried around a loop (an OpPhi of variable pointers) is a block
// argument outside the entry block: it becomes !llvm.ptr too, and the back
// edge passes the stepped pointer.
// CHECK-LABEL: llvm.func internal @pointer_phi
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[P:[a-z0-9]+]]: !llvm.ptr, %[[N:[a-z0-9]+]]: i32)
// CHECK: llvm.br ^[[LOOP:bb[0-9]+]](%[[P]] : !llvm.ptr)
// CHECK: ^[[LOOP]](%[[Q:[a-z0-9]+]]: !llvm.ptr):
// CHECK: llvm.load %[[Q]] {{.*}} : !llvm.ptr -> i32
// CHECK: %[[NEXT:[0-9]+]] = llvm.getelementptr %[[Q]]
// CHECK: llvm.br ^[[LOOP]](%[[NEXT]] : !llvm.ptr)
spirv.module Logical GLSL450 {
  spirv.func @pointer_phi(%p: !spirv.ptr<i32, StorageBuffer>, %n: i32) -> i32 "None" {
    %one = spirv.Constant 1 : i32
    spirv.Branch ^loop(%p : !spirv.ptr<i32, StorageBuffer>)
  ^loop(%q: !spirv.ptr<i32, StorageBuffer>):
    %v = spirv.Load "StorageBuffer" %q : i32
    %done = spirv.IEqual %v, %n : i32
    spirv.BranchConditional %done, ^exit, ^step
  ^step:
    %next = spirv.PtrAccessChain %q[%one] {spvb.ptr_stride = 4 : i32} : !spirv.ptr<i32, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
    spirv.Branch ^loop(%next : !spirv.ptr<i32, StorageBuffer>)
  ^exit:
    spirv.ReturnValue %v : i32
  }
}

// -----

// OpBranchConditional passes converted block arguments: a pointer chosen on
// one edge and its branch weights survive.
// CHECK-LABEL: llvm.func internal @pointer_cond_br
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[P:[a-z0-9]+]]: !llvm.ptr, %[[Q:[a-z0-9]+]]: !llvm.ptr, %[[C:[a-z0-9]+]]: i1)
// CHECK: llvm.cond_br %[[C]] weights([3, 1]), ^[[JOIN:bb[0-9]+]](%[[P]] : !llvm.ptr), ^[[JOIN]](%[[Q]] : !llvm.ptr)
// CHECK: ^[[JOIN]](%[[R:[a-z0-9]+]]: !llvm.ptr):
// CHECK: llvm.load %[[R]] {{.*}} : !llvm.ptr -> i32
spirv.module Logical GLSL450 {
  spirv.func @pointer_cond_br(%p: !spirv.ptr<i32, StorageBuffer>, %q: !spirv.ptr<i32, StorageBuffer>, %c: i1) -> i32 "None" {
    spirv.BranchConditional %c [3, 1], ^join(%p : !spirv.ptr<i32, StorageBuffer>), ^join(%q : !spirv.ptr<i32, StorageBuffer>)
  ^join(%r: !spirv.ptr<i32, StorageBuffer>):
    %v = spirv.Load "StorageBuffer" %r : i32
    spirv.ReturnValue %v : i32
  }
}
