// RUN: spvb-opt --spvb-race-checks %s | FileCheck %s

// spv-run --check-races: every load, store and atomic on memory other
// invocations see gets a spvb.record_access before it, with the access's
// size in bytes, whether it writes and whether it is atomic.

// A storage buffer's vec4 load (16 bytes) and a Workgroup store (4 bytes).
// CHECK-LABEL: spirv.func @copy
// CHECK: %[[IN:.*]] = spirv.AccessChain %{{.*}} -> !spirv.ptr<vector<4xf32>, StorageBuffer>
// CHECK-NEXT: spvb.record_access %[[IN]] {bytes = 16 : i64} : !spirv.ptr<vector<4xf32>, StorageBuffer>
// CHECK-NEXT: spirv.Load "StorageBuffer" %[[IN]]
// CHECK: %[[OUT:.*]] = spirv.AccessChain %{{.*}} -> !spirv.ptr<f32, Workgroup>
// CHECK-NEXT: spvb.record_access %[[OUT]] {bytes = 4 : i64, write} : !spirv.ptr<f32, Workgroup>
// CHECK-NEXT: spirv.Store "Workgroup" %[[OUT]]
spirv.GlobalVariable @B bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0]), Block>, StorageBuffer>
spirv.GlobalVariable @tmp : !spirv.ptr<!spirv.array<4 x f32>, Workgroup>
spirv.func @copy(%i: i32) "None" {
  %c0 = spirv.Constant 0 : i32
  %B = spirv.mlir.addressof @B : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0]), Block>, StorageBuffer>
  %tmp = spirv.mlir.addressof @tmp : !spirv.ptr<!spirv.array<4 x f32>, Workgroup>
  %in = spirv.AccessChain %B[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<vector<4xf32>, stride=16> [0]), Block>, StorageBuffer>, i32, i32 -> !spirv.ptr<vector<4xf32>, StorageBuffer>
  %v = spirv.Load "StorageBuffer" %in : vector<4xf32>
  %x = spirv.CompositeExtract %v[0 : i32] : vector<4xf32>
  %out = spirv.AccessChain %tmp[%i] : !spirv.ptr<!spirv.array<4 x f32>, Workgroup>, i32 -> !spirv.ptr<f32, Workgroup>
  spirv.Store "Workgroup" %out, %x : f32
  spirv.Return
}

// Atomics: a read-modify-write is an atomic write, an atomic load an
// atomic read; a 64-bit counter takes 8 bytes.
// CHECK-LABEL: spirv.func @atomics
// CHECK: spvb.record_access %[[C:.*]] {atomic, bytes = 8 : i64, write} : !spirv.ptr<i64, StorageBuffer>
// CHECK-NEXT: spirv.AtomicIAdd <Device> <AcquireRelease> %[[C]]
// CHECK: spvb.record_access %[[C]] {atomic, bytes = 8 : i64, write} : !spirv.ptr<i64, StorageBuffer>
// CHECK-NEXT: spirv.AtomicCompareExchange
// CHECK: spvb.record_access %[[C]] {atomic, bytes = 8 : i64} : !spirv.ptr<i64, StorageBuffer>
// CHECK-NEXT: spvb.atomic_load
spirv.GlobalVariable @Counter bind(0, 1) : !spirv.ptr<!spirv.struct<(i64 [0]), Block>, StorageBuffer>
spirv.func @atomics(%v: i64) -> i64 "None" {
  %c0 = spirv.Constant 0 : i32
  %base = spirv.mlir.addressof @Counter : !spirv.ptr<!spirv.struct<(i64 [0]), Block>, StorageBuffer>
  %c = spirv.AccessChain %base[%c0] : !spirv.ptr<!spirv.struct<(i64 [0]), Block>, StorageBuffer>, i32 -> !spirv.ptr<i64, StorageBuffer>
  %old = spirv.AtomicIAdd <Device> <AcquireRelease> %c, %v : !spirv.ptr<i64, StorageBuffer>
  %swapped = spirv.AtomicCompareExchange <Device> <AcquireRelease> <Acquire> %c, %v, %old : !spirv.ptr<i64, StorageBuffer>
  %now = spvb.atomic_load %c {scope = 1 : i32, semantics = 66 : i32} : !spirv.ptr<i64, StorageBuffer> -> i64
  spirv.ReturnValue %now : i64
}

// Memory no other invocation sees: Function variables, Private globals,
// push constants and built-ins are not recorded.
// CHECK-LABEL: spirv.func @private
// CHECK-NOT: spvb.record_access
// CHECK: spirv.ReturnValue
spirv.GlobalVariable @P : !spirv.ptr<i32, Private>
spirv.GlobalVariable @pc : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, PushConstant>
spirv.func @private() -> i32 "None" {
  %c0 = spirv.Constant 0 : i32
  %f = spirv.Variable : !spirv.ptr<i32, Function>
  spirv.Store "Function" %f, %c0 : i32
  %p = spirv.mlir.addressof @P : !spirv.ptr<i32, Private>
  %a = spirv.Load "Private" %p : i32
  %pcs = spirv.mlir.addressof @pc : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, PushConstant>
  %pc = spirv.AccessChain %pcs[%c0] : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, PushConstant>, i32 -> !spirv.ptr<i32, PushConstant>
  %b = spirv.Load "PushConstant" %pc : i32
  %s = spirv.IAdd %a, %b : i32
  spirv.ReturnValue %s : i32
}
