// RUN: spvb-opt --spvb-lower-to-llvm %s | FileCheck %s --check-prefix=PLAIN
// RUN: spvb-opt '--spvb-lower-to-llvm=robust-access' %s | FileCheck %s --check-prefix=ROBUST
// RUN: spvb-opt '--spvb-lower-to-llvm=bounds-reports' %s | FileCheck %s --check-prefix=BOUNDS
// RUN: spvb-opt '--spvb-lower-to-llvm=race-reports' %s | FileCheck %s --check-prefix=RACES

// tmp[i] = data[i] (a runtime array of the storage buffer into a
// Workgroup array), lowered with each of the lowering's checks.

// Plain: the load goes to the computed address, unchecked.
// PLAIN-NOT: spvb_robust
// PLAIN-NOT: spvb_rt_fault
// PLAIN-NOT: spvb_rt_record_access

// robustBufferAccess2: an out-of-bounds read takes its value from 16 bytes
// of zeros instead, chosen by a select on the bounds check.
// ROBUST: llvm.mlir.global internal constant @spvb_robust_zero_16("\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
// ROBUST: %[[ZERO:.*]] = llvm.mlir.addressof @spvb_robust_zero_16 : !llvm.ptr
// ROBUST: %[[ADDR:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[ZERO]] : i1, !llvm.ptr
// ROBUST: llvm.load %[[ADDR]]
// ROBUST-NOT: spvb_rt_fault

// Bounds reports: robust access, and an out-of-bounds access calls
// spvb_rt_fault first.
// BOUNDS: llvm.func @spvb_rt_fault(!llvm.ptr, !llvm.ptr, i32, i64, i64, !llvm.ptr)
// BOUNDS: llvm.call @spvb_rt_fault(%arg0, %arg1,
// BOUNDS: llvm.mlir.addressof @spvb_robust_zero_16

// Race reports: both accesses to memory other invocations see, the
// buffer's load and the Workgroup store, are recorded.
// RACES: llvm.func @spvb_rt_record_access(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// RACES-COUNT-2: llvm.call @spvb_rt_record_access(
// RACES-NOT: llvm.call @spvb_rt_record_access(
spirv.GlobalVariable @gl_LocalInvocationIndex built_in("LocalInvocationIndex") : !spirv.ptr<i32, Input>
spirv.GlobalVariable @tmp : !spirv.ptr<!spirv.array<4 x i32>, Workgroup>
spirv.GlobalVariable @B bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0]), Block>, StorageBuffer>
spirv.func @main() "None" {
  %index_addr = spirv.mlir.addressof @gl_LocalInvocationIndex : !spirv.ptr<i32, Input>
  %B_addr = spirv.mlir.addressof @B : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0]), Block>, StorageBuffer>
  %tmp_addr = spirv.mlir.addressof @tmp : !spirv.ptr<!spirv.array<4 x i32>, Workgroup>
  %c0 = spirv.Constant 0 : i32
  %i = spirv.Load "Input" %index_addr : i32
  %in = spirv.AccessChain %B_addr[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0]), Block>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
  %value = spirv.Load "StorageBuffer" %in : i32
  %out = spirv.AccessChain %tmp_addr[%i] : !spirv.ptr<!spirv.array<4 x i32>, Workgroup>, i32 -> !spirv.ptr<i32, Workgroup>
  spirv.Store "Workgroup" %out, %value : i32
  spirv.Return
}
spirv.EntryPoint "GLCompute" @main, @gl_LocalInvocationIndex, @tmp, @B
spirv.ExecutionMode @main "LocalSize", 4, 1, 1
