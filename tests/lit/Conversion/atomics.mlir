// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Atomics become LLVM atomics at system scope (no syncscope): host threads
// share every storage class. The ordering comes from the Memory Semantics
// bits (SPIR-V spec 3.25): Acquire 0x2, Release 0x4, AcquireRelease 0x8,
// SequentiallyConsistent 0x10; the storage-class bits (UniformMemory 0x40,
// WorkgroupMemory 0x100) do not order anything; no ordering bit is relaxed,
// i.e. monotonic.

// CHECK-LABEL: llvm.func internal @rmw_orderings
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[P:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: i32)
// CHECK: llvm.atomicrmw add %[[P]], %[[V]] monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw sub %[[P]], %[[V]] acquire : !llvm.ptr, i32
// CHECK: llvm.atomicrmw xchg %[[P]], %[[V]] release : !llvm.ptr, i32
// CHECK: llvm.atomicrmw min %[[P]], %[[V]] acq_rel : !llvm.ptr, i32
// CHECK: llvm.atomicrmw umax %[[P]], %[[V]] seq_cst : !llvm.ptr, i32
// CHECK: llvm.atomicrmw _and %[[P]], %[[V]] release : !llvm.ptr, i32
// Only storage-class bits: monotonic.
// CHECK: llvm.atomicrmw _or %[[P]], %[[V]] monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw _xor %[[P]], %[[V]] acquire : !llvm.ptr, i32
// CHECK: llvm.atomicrmw max %[[P]], %[[V]] monotonic : !llvm.ptr, i32
// CHECK: llvm.atomicrmw umin %[[P]], %[[V]] monotonic : !llvm.ptr, i32
spirv.module Logical GLSL450 {
  spirv.func @rmw_orderings(%p: !spirv.ptr<i32, StorageBuffer>, %v: i32) "None" {
    %0 = spirv.AtomicIAdd <Device> <None> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %1 = spirv.AtomicISub <Device> <Acquire> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %2 = spirv.AtomicExchange <Device> <Release> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %3 = spirv.AtomicSMin <Device> <AcquireRelease> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %4 = spirv.AtomicUMax <Device> <SequentiallyConsistent> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %5 = spirv.AtomicAnd <Device> <Release|UniformMemory> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %6 = spirv.AtomicOr <Device> <UniformMemory> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %7 = spirv.AtomicXor <Workgroup> <Acquire|WorkgroupMemory> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %8 = spirv.AtomicSMax <Device> <None> %p, %v : !spirv.ptr<i32, StorageBuffer>
    %9 = spirv.AtomicUMin <Device> <None> %p, %v : !spirv.ptr<i32, StorageBuffer>
    spirv.Return
  }
}

// -----

// Increment and decrement add or subtract a constant 1 of the value's type;
// the result is the old value. On workgroup memory, which one host thread
// runs, at single-thread scope.
// CHECK-LABEL: llvm.func internal @inc_dec
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[OLD:.*]] = llvm.atomicrmw add %[[P]], %[[ONE]] syncscope("singlethread") acq_rel : !llvm.ptr, i64
// CHECK: %[[ONE2:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: llvm.atomicrmw sub %[[P]], %[[ONE2]] syncscope("singlethread") seq_cst : !llvm.ptr, i64
// CHECK: llvm.return %[[OLD]] : i64
spirv.module Logical GLSL450 {
  spirv.func @inc_dec(%p: !spirv.ptr<i64, Workgroup>) -> i64 "None" {
    %0 = spirv.AtomicIIncrement <Workgroup> <AcquireRelease|WorkgroupMemory> %p : !spirv.ptr<i64, Workgroup>
    %1 = spirv.AtomicIDecrement <Workgroup> <SequentiallyConsistent> %p : !spirv.ptr<i64, Workgroup>
    spirv.ReturnValue %0 : i64
  }
}

// -----

// SPV_EXT_shader_atomic_float_add.
// CHECK-LABEL: llvm.func internal @float_add
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: f32)
// CHECK: llvm.atomicrmw fadd %[[P]], %[[V]] monotonic : !llvm.ptr, f32
spirv.module Logical GLSL450 {
  spirv.func @float_add(%p: !spirv.ptr<f32, StorageBuffer>, %v: f32) -> f32 "None" {
    %0 = spirv.EXT.AtomicFAdd <Device> <None> %p, %v : !spirv.ptr<f32, StorageBuffer>
    spirv.ReturnValue %0 : f32
  }
}

// -----

// SPV_EXT_shader_atomic_float_min_max: minnum/maxnum, whose NaN rule is the
// extension's. AcquireRelease (0x8) semantics -> acq_rel.
// CHECK-LABEL: llvm.func internal @float_min_max
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: f32)
// CHECK: llvm.atomicrmw fmin %[[P]], %[[V]] monotonic : !llvm.ptr, f32
// CHECK: llvm.atomicrmw fmax %[[P]], %[[V]] acq_rel : !llvm.ptr, f32
module {
  spirv.func @float_min_max(%p: !spirv.ptr<f32, StorageBuffer>, %v: f32) -> f32 "None" {
    %0 = spvb.atomic_fminmax %p, %v {is_max = false, scope = 1 : i32, semantics = 0 : i32} : !spirv.ptr<f32, StorageBuffer>, f32 -> f32
    %1 = spvb.atomic_fminmax %p, %v {is_max = true, scope = 1 : i32, semantics = 8 : i32} : !spirv.ptr<f32, StorageBuffer>, f32 -> f32
    spirv.ReturnValue %1 : f32
  }
}

// -----

// OpAtomicCompareExchange stores Value if the old value equals Comparator:
// llvm.cmpxchg ptr, comparator, value; the result is the old value. The
// Equal semantics order the success case, the Unequal ones (which may not
// release) the failure case. Workgroup memory: single-thread scope.
// CHECK-LABEL: llvm.func internal @compare_exchange
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[VAL:[a-z0-9]+]]: i32, %[[CMP:[a-z0-9]+]]: i32)
// CHECK: %[[R:.*]] = llvm.cmpxchg %[[P]], %[[CMP]], %[[VAL]] syncscope("singlethread") acq_rel acquire : !llvm.ptr, i32
// CHECK: %[[OLD:.*]] = llvm.extractvalue %[[R]][0] : !llvm.struct<(i32, i1)>
// CHECK: llvm.cmpxchg %[[P]], %[[CMP]], %[[VAL]] syncscope("singlethread") monotonic monotonic : !llvm.ptr, i32
// CHECK: llvm.cmpxchg %[[P]], %[[CMP]], %[[VAL]] syncscope("singlethread") seq_cst seq_cst : !llvm.ptr, i32
// An AcquireRelease Unequal semantics is an acquire on failure.
// CHECK: llvm.cmpxchg %[[P]], %[[CMP]], %[[VAL]] syncscope("singlethread") acquire acquire : !llvm.ptr, i32
// A release (or relaxed) success makes the failure monotonic.
// CHECK: llvm.cmpxchg %[[P]], %[[CMP]], %[[VAL]] syncscope("singlethread") release monotonic : !llvm.ptr, i32
// CHECK: llvm.return %[[OLD]] : i32
spirv.module Logical GLSL450 {
  spirv.func @compare_exchange(%p: !spirv.ptr<i32, Workgroup>, %value: i32, %comparator: i32) -> i32 "None" {
    %0 = spirv.AtomicCompareExchange <Workgroup> <AcquireRelease> <Acquire> %p, %value, %comparator : !spirv.ptr<i32, Workgroup>
    %1 = spirv.AtomicCompareExchange <Workgroup> <None> <None> %p, %value, %comparator : !spirv.ptr<i32, Workgroup>
    %2 = spirv.AtomicCompareExchange <Workgroup> <SequentiallyConsistent> <SequentiallyConsistent> %p, %value, %comparator : !spirv.ptr<i32, Workgroup>
    %3 = spirv.AtomicCompareExchange <Workgroup> <Acquire> <AcquireRelease> %p, %value, %comparator : !spirv.ptr<i32, Workgroup>
    %4 = spirv.AtomicCompareExchange <Workgroup> <Release> <Acquire> %p, %value, %comparator : !spirv.ptr<i32, Workgroup>
    spirv.ReturnValue %0 : i32
  }
}

// -----

// OpAtomicLoad / OpAtomicStore (spvb ops: scope and semantics as integers)
// are atomic loads and stores aligned to their size. A load cannot release:
// Release is monotonic and AcquireRelease acquire; a store cannot acquire:
// Acquire is monotonic and AcquireRelease release.
// CHECK-LABEL: llvm.func internal @atomic_load_store
// CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[Q:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: i32, %[[W:[a-z0-9]+]]: i64)
// CHECK: llvm.load %[[P]] atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.load %[[P]] atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.load %[[P]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK: llvm.load %[[Q]] atomic seq_cst {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: llvm.store %[[V]], %[[P]] atomic release {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: llvm.store %[[V]], %[[P]] atomic release {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: llvm.store %[[V]], %[[P]] atomic monotonic {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: llvm.store %[[W]], %[[Q]] atomic seq_cst {alignment = 8 : i64} : i64, !llvm.ptr
module {
  spirv.func @atomic_load_store(%p: !spirv.ptr<i32, StorageBuffer>, %q: !spirv.ptr<i64, StorageBuffer>, %v: i32, %w: i64) "None" {
    %0 = spvb.atomic_load %p {scope = 1 : i32, semantics = 66 : i32} : !spirv.ptr<i32, StorageBuffer> -> i32
    %1 = spvb.atomic_load %p {scope = 1 : i32, semantics = 8 : i32} : !spirv.ptr<i32, StorageBuffer> -> i32
    %2 = spvb.atomic_load %p {scope = 1 : i32, semantics = 4 : i32} : !spirv.ptr<i32, StorageBuffer> -> i32
    %3 = spvb.atomic_load %q {scope = 1 : i32, semantics = 16 : i32} : !spirv.ptr<i64, StorageBuffer> -> i64
    spvb.atomic_store %p, %v {scope = 1 : i32, semantics = 68 : i32} : !spirv.ptr<i32, StorageBuffer>, i32
    spvb.atomic_store %p, %v {scope = 1 : i32, semantics = 8 : i32} : !spirv.ptr<i32, StorageBuffer>, i32
    spvb.atomic_store %p, %v {scope = 1 : i32, semantics = 2 : i32} : !spirv.ptr<i32, StorageBuffer>, i32
    spvb.atomic_store %q, %w {scope = 1 : i32, semantics = 16 : i32} : !spirv.ptr<i64, StorageBuffer>, i64
    spirv.Return
  }
}

// -----

// OpMemoryBarrier with an ordering bit is a full fence; with only storage
// class bits it orders nothing and disappears.
// CHECK-LABEL: llvm.func internal @memory_barrier
// CHECK-NEXT: llvm.fence seq_cst
// CHECK-NEXT: llvm.return
spirv.module Logical GLSL450 {
  spirv.func @memory_barrier() "None" {
    spirv.MemoryBarrier <Device>, <AcquireRelease|UniformMemory>
    spirv.MemoryBarrier <Workgroup>, <WorkgroupMemory>
    spirv.Return
  }
}

// -----

// OpControlBarrier calls the runtime with the invocation block, the scopes
// (Workgroup = 2, Subgroup = 3) and the semantics
// (AcquireRelease | WorkgroupMemory = 0x108 = 264).
// CHECK: llvm.func @spvb_rt_control_barrier(!llvm.ptr, i32, i32, i32)
// CHECK-LABEL: llvm.func internal @control_barrier
// CHECK-SAME: (%{{.*}}: !llvm.ptr, %[[INV:[a-z0-9]+]]: !llvm.ptr)
// CHECK: %[[E:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[M:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[S:.*]] = llvm.mlir.constant(264 : i32) : i32
// CHECK: llvm.call @spvb_rt_control_barrier(%[[INV]], %[[E]], %[[M]], %[[S]]) : (!llvm.ptr, i32, i32, i32) -> ()
spirv.module Logical GLSL450 {
  spirv.func @control_barrier() "None" {
    spirv.ControlBarrier <Workgroup>, <Subgroup>, <AcquireRelease|WorkgroupMemory>
    spirv.Return
  }
}
