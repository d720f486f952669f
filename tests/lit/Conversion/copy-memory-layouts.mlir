// RUN: spvb-opt --spvb-lower-to-llvm %s | FileCheck %s

// OpCopyMemory from a row-major matrix (MatrixStride 16) in a buffer into a
// Function variable (natural, column-major): the source is gathered with the
// source's layout, the target written with its own. Row-major element (c, r)
// of the source is at r * 16 + c * 4: column 0 = bytes 0 and 16, column 1 =
// bytes 4 and 20; the target's columns are 8 bytes apart.
// CHECK-LABEL: llvm.func internal @copy
// CHECK: %[[VAR:.*]] = llvm.alloca {{.*}} x !llvm.array<16 x i8>
// CHECK: llvm.load %arg2 {{.*}} -> f32
// CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i64)
// CHECK: llvm.getelementptr %arg2[%[[C16]]]
// CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i64)
// CHECK: %[[COL1:.*]] = llvm.getelementptr %arg2[%[[C4]]]
// CHECK: llvm.load %[[COL1]]
// CHECK: %[[C16B:.*]] = llvm.mlir.constant(16 : i64)
// CHECK: llvm.getelementptr %[[COL1]][%[[C16B]]]
// CHECK: llvm.store %{{.*}}, %[[VAR]] {{.*}} : vector<2xf32>
// CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i64)
// CHECK: %[[DST1:.*]] = llvm.getelementptr %[[VAR]][%[[C8]]]
// CHECK: llvm.store %{{.*}}, %[[DST1]] {{.*}} : vector<2xf32>
!B = !spirv.struct<(!spirv.matrix<2 x vector<2xf32>> [0, RowMajor, MatrixStride=16]), Block>
spirv.module Logical GLSL450 {
  spirv.func @copy(%p: !spirv.ptr<!B, StorageBuffer>) "None" {
    %v = spirv.Variable : !spirv.ptr<!spirv.matrix<2 x vector<2xf32>>, Function>
    %c0 = spirv.Constant 0 : i32
    %m = spirv.AccessChain %p[%c0] : !spirv.ptr<!B, StorageBuffer>, i32 -> !spirv.ptr<!spirv.matrix<2 x vector<2xf32>>, StorageBuffer>
    spirv.CopyMemory "Function" %v, "StorageBuffer" %m : !spirv.matrix<2 x vector<2xf32>>
    spirv.Return
  }
}
