// RUN: spvb-opt --spvb-guard-helper-invocations %s | FileCheck %s

// Helper invocations must not write memory other invocations see
// (Vulkan's "Helper Invocations"): the fragment entry point gets a
// HelperInvocation input, and a store to a storage buffer runs only when it
// is false. Stores to the invocation's own outputs are not guarded.
// CHECK: spirv.GlobalVariable @spvb_helper_invocation built_in("HelperInvocation") : !spirv.ptr<i1, Input>
spirv.GlobalVariable @B bind(0, 0) : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, StorageBuffer>
spirv.GlobalVariable @color {location = 0 : i32} : !spirv.ptr<vector<4xf32>, Output>

// CHECK-LABEL: spirv.func @main
// CHECK: %[[HELPER:.*]] = spirv.Load "Input" %{{.*}} : i1
// CHECK-NEXT: spirv.BranchConditional %[[HELPER]], ^[[AFTER:bb[0-9]+]], ^[[STORE:bb[0-9]+]]
// CHECK: ^[[STORE]]:
// CHECK-NEXT: spirv.Store "StorageBuffer"
// CHECK-NEXT: spirv.Branch ^[[AFTER]]
// CHECK: ^[[AFTER]]:
// CHECK-NEXT: spirv.Store "Output"
// CHECK: spirv.EntryPoint "Fragment" @main, @B, @color, @spvb_helper_invocation
spirv.func @main() "None" {
  %B_addr = spirv.mlir.addressof @B : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, StorageBuffer>
  %color_addr = spirv.mlir.addressof @color : !spirv.ptr<vector<4xf32>, Output>
  %c0 = spirv.Constant 0 : i32
  %c1 = spirv.Constant 1 : i32
  %one = spirv.Constant dense<1.0> : vector<4xf32>
  %0 = spirv.AccessChain %B_addr[%c0] : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
  spirv.Store "StorageBuffer" %0, %c1 : i32
  spirv.Store "Output" %color_addr, %one : vector<4xf32>
  spirv.Return
}
spirv.EntryPoint "Fragment" @main, @B, @color
spirv.ExecutionMode @main "OriginUpperLeft"
