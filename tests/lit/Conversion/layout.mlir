// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// Byte addresses come from the Offset, ArrayStride, MatrixStride and RowMajor
// decorations. The struct types below are the blocks glslang emits for
//
//   struct S { vec2 x; float y; };
//   uniform/buffer Block {
//     float a; vec3 b; float c; float d[3]; mat3 m; vec2 e; S s[2];
//     layout(row_major) mat2x3 rm; ...
//   };
//
// with the offsets derived by hand from the layout rules of the Vulkan spec
// ("Offset and Stride Assignment"):
//
//   member   std140                  std430                  scalar
//   a        0                       0                       0
//   b vec3   16 (aligned to 16)      16                      4 (aligned to 4)
//   c        28 (packs after vec3)   28                      16
//   d[3]     32, stride 16           32, stride 4            20, stride 4
//   m mat3   80, column stride 16    48, column stride 16    32, column stride 12
//   e vec2   128                     96                      68
//   s[2]     144, stride 16          104, stride 16          76, stride 12
//   rm       176, row stride 16      136, row stride 8       -
//   r[]      -                       160, stride 4           -
//   f double -                       -                       104 (aligned to 8)

!S140 = !spirv.struct<(vector<2xf32> [0], f32 [8])>
!Std140 = !spirv.struct<(f32 [0], vector<3xf32> [16], f32 [28], !spirv.array<3 x f32, stride=16> [32], !spirv.matrix<3 x vector<3xf32>> [80, ColMajor, MatrixStride=16], vector<2xf32> [128], !spirv.array<2 x !S140, stride=16> [144], !spirv.matrix<2 x vector<3xf32>> [176, RowMajor, MatrixStride=16]), Block>
!P140 = !spirv.ptr<!Std140, Uniform>

spirv.module Logical GLSL450 {
  // c: 28.
  // CHECK-LABEL: llvm.func internal @std140_float_after_vec3
  // CHECK-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %[[P:.*]]: !llvm.ptr)
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(28 : i64) : i64
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[P]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[ADDR]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  spirv.func @std140_float_after_vec3(%p: !P140) -> f32 "None" {
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c2] : !P140, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // b: a vec3 is loaded as one vector<3xf32> at 16, aligned to its element.
  // CHECK-LABEL: llvm.func internal @std140_vec3
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[ADDR]] invariant {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  spirv.func @std140_vec3(%p: !P140) -> vector<3xf32> "None" {
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c1] : !P140, i32 -> !spirv.ptr<vector<3xf32>, Uniform>
    %1 = spirv.Load "Uniform" %0 : vector<3xf32>
    spirv.ReturnValue %1 : vector<3xf32>
  }

  // d[2]: 32 + 2 * 16 = 64.
  // CHECK-LABEL: llvm.func internal @std140_array_element
  // CHECK: llvm.mlir.constant(64 : i64) : i64
  // CHECK-NOT: llvm.getelementptr
  // CHECK: llvm.getelementptr
  // CHECK-NOT: llvm.getelementptr
  // CHECK: llvm.load
  spirv.func @std140_array_element(%p: !P140) -> f32 "None" {
    %c3 = spirv.Constant 3 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c3, %c2] : !P140, i32, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // d[i]: the index is sign-extended to 64 bits and scaled by the
  // ArrayStride (16); the member offset (32) is added after it.
  // CHECK-LABEL: llvm.func internal @std140_array_dynamic
  // CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[I:[a-z0-9]+]]: i32)
  // CHECK: %[[WIDE:.*]] = llvm.sext %[[I]] : i32 to i64
  // CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[SCALED:.*]] = llvm.mul %[[WIDE]], %[[STRIDE]] : i64
  // CHECK: %[[ELEM:.*]] = llvm.getelementptr %[[P]][%[[SCALED]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[ELEM]][%[[OFF]]]
  // CHECK: llvm.load %[[ADDR]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  spirv.func @std140_array_dynamic(%p: !P140, %i: i32) -> f32 "None" {
    %c3 = spirv.Constant 3 : i32
    %0 = spirv.AccessChain %p[%c3, %i] : !P140, i32, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // m[2][1]: 80 + 2 * 16 (column) + 1 * 4 (row) = 116.
  // CHECK-LABEL: llvm.func internal @std140_matrix_element
  // CHECK: llvm.mlir.constant(116 : i64) : i64
  spirv.func @std140_matrix_element(%p: !P140) -> f32 "None" {
    %c4 = spirv.Constant 4 : i32
    %c2 = spirv.Constant 2 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c4, %c2, %c1] : !P140, i32, i32, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // s[1].y: 144 + 1 * 16 + 8 = 168.
  // CHECK-LABEL: llvm.func internal @std140_struct_array
  // CHECK: llvm.mlir.constant(168 : i64) : i64
  spirv.func @std140_struct_array(%p: !P140) -> f32 "None" {
    %c6 = spirv.Constant 6 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c6, %c1, %c1] : !P140, i32, i32, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // A whole column-major mat3: three vec3 columns 16 bytes apart, from 80.
  // CHECK-LABEL: llvm.func internal @std140_load_matrix
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(80 : i64) : i64
  // CHECK: %[[M:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: %[[C0:.*]] = llvm.load %[[M]] invariant {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  // CHECK: %[[R0:.*]] = llvm.insertvalue %[[C0]], %{{.*}}[0] : !llvm.array<3 x vector<3xf32>>
  // CHECK: %[[S1:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[A1:.*]] = llvm.getelementptr %[[M]][%[[S1]]]
  // CHECK: %[[C1:.*]] = llvm.load %[[A1]] invariant {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  // CHECK: %[[R1:.*]] = llvm.insertvalue %[[C1]], %[[R0]][1]
  // CHECK: %[[S2:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[A2:.*]] = llvm.getelementptr %[[M]][%[[S2]]]
  // CHECK: %[[C2:.*]] = llvm.load %[[A2]] invariant {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  // CHECK: %[[R2:.*]] = llvm.insertvalue %[[C2]], %[[R1]][2]
  // CHECK: llvm.return %[[R2]] : !llvm.array<3 x vector<3xf32>>
  spirv.func @std140_load_matrix(%p: !P140) -> !spirv.matrix<3 x vector<3xf32>> "None" {
    %c4 = spirv.Constant 4 : i32
    %0 = spirv.AccessChain %p[%c4] : !P140, i32 -> !spirv.ptr<!spirv.matrix<3 x vector<3xf32>>, Uniform>
    %1 = spirv.Load "Uniform" %0 : !spirv.matrix<3 x vector<3xf32>>
    spirv.ReturnValue %1 : !spirv.matrix<3 x vector<3xf32>>
  }

  // rm[1][2] of the row-major mat2x3: row 2 starts at 176 + 2 * 16, column 1
  // is 4 bytes into it: 212.
  // CHECK-LABEL: llvm.func internal @std140_row_major_element
  // CHECK: llvm.mlir.constant(212 : i64) : i64
  spirv.func @std140_row_major_element(%p: !P140) -> f32 "None" {
    %c7 = spirv.Constant 7 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c7, %c1, %c2] : !P140, i32, i32, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // rm[1], a column of a row-major matrix: its three elements are gathered
  // from 180, 196 and 212 (one per row, MatrixStride 16 apart).
  // CHECK-LABEL: llvm.func internal @std140_row_major_column
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(180 : i64) : i64
  // CHECK: %[[COL:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: %[[X:.*]] = llvm.load %[[COL]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[V0:.*]] = llvm.insertelement %[[X]], %{{.*}}[%[[I0]] : i32] : vector<3xf32>
  // CHECK: %[[S1:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[A1:.*]] = llvm.getelementptr %[[COL]][%[[S1]]]
  // CHECK: %[[Y:.*]] = llvm.load %[[A1]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[V1:.*]] = llvm.insertelement %[[Y]], %[[V0]][%[[I1]] : i32] : vector<3xf32>
  // CHECK: %[[S2:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[A2:.*]] = llvm.getelementptr %[[COL]][%[[S2]]]
  // CHECK: %[[Z:.*]] = llvm.load %[[A2]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: %[[I2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: %[[V2:.*]] = llvm.insertelement %[[Z]], %[[V1]][%[[I2]] : i32] : vector<3xf32>
  // CHECK: llvm.return %[[V2]] : vector<3xf32>
  spirv.func @std140_row_major_column(%p: !P140) -> vector<3xf32> "None" {
    %c7 = spirv.Constant 7 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c7, %c1] : !P140, i32, i32 -> !spirv.ptr<vector<3xf32>, Uniform>
    %1 = spirv.Load "Uniform" %0 : vector<3xf32>
    spirv.ReturnValue %1 : vector<3xf32>
  }

  // The whole row-major matrix: column c, row r at 176 + 4 * c + 16 * r.
  // CHECK-LABEL: llvm.func internal @std140_row_major_matrix
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(176 : i64) : i64
  // CHECK: %[[M:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // Column 0: rows at +0, +16, +32.
  // CHECK: llvm.load %[[M]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: llvm.mlir.constant(16 : i64)
  // CHECK: llvm.getelementptr %[[M]]
  // CHECK: llvm.mlir.constant(32 : i64)
  // CHECK: llvm.getelementptr %[[M]]
  // CHECK: %[[C0:.*]] = llvm.insertelement
  // CHECK: llvm.insertvalue %[[C0]], %{{.*}}[0] : !llvm.array<2 x vector<3xf32>>
  // Column 1 starts one float in: rows at +4, +20, +36.
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[COL1:.*]] = llvm.getelementptr %[[M]][%[[FOUR]]]
  // CHECK: llvm.load %[[COL1]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: llvm.mlir.constant(16 : i64)
  // CHECK: llvm.getelementptr %[[COL1]]
  // CHECK: llvm.mlir.constant(32 : i64)
  // CHECK: llvm.getelementptr %[[COL1]]
  // CHECK: %[[C1:.*]] = llvm.insertelement
  // CHECK: llvm.insertvalue %[[C1]], %{{.*}}[1] : !llvm.array<2 x vector<3xf32>>
  spirv.func @std140_row_major_matrix(%p: !P140) -> !spirv.matrix<2 x vector<3xf32>> "None" {
    %c7 = spirv.Constant 7 : i32
    %0 = spirv.AccessChain %p[%c7] : !P140, i32 -> !spirv.ptr<!spirv.matrix<2 x vector<3xf32>>, Uniform>
    %1 = spirv.Load "Uniform" %0 : !spirv.matrix<2 x vector<3xf32>>
    spirv.ReturnValue %1 : !spirv.matrix<2 x vector<3xf32>>
  }

  // Storing a row-major matrix scatters the same way: column 1, row 2 goes
  // to 176 + 4 + 32 = 212.
  // CHECK-LABEL: llvm.func internal @std140_row_major_store
  // CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[V:[a-z0-9]+]]: !llvm.array<2 x vector<3xf32>>)
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(176 : i64) : i64
  // CHECK: %[[M:.*]] = llvm.getelementptr %[[P]][%[[OFF]]]
  // CHECK: %[[C0:.*]] = llvm.extractvalue %[[V]][0]
  // CHECK: %[[E00:.*]] = llvm.extractelement %[[C0]]
  // CHECK: llvm.store %[[E00]], %[[M]] {alignment = 4 : i64} : f32, !llvm.ptr
  // CHECK: %[[C1:.*]] = llvm.extractvalue %[[V]][1]
  // CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[COL1:.*]] = llvm.getelementptr %[[M]][%[[FOUR]]]
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: %[[E12:.*]] = llvm.extractelement %[[C1]][%[[TWO]] : i32] : vector<3xf32>
  // CHECK: %[[ROW2:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[A12:.*]] = llvm.getelementptr %[[COL1]][%[[ROW2]]]
  // CHECK: llvm.store %[[E12]], %[[A12]] {alignment = 4 : i64} : f32, !llvm.ptr
  spirv.func @std140_row_major_store(%p: !P140, %v: !spirv.matrix<2 x vector<3xf32>>) "None" {
    %c7 = spirv.Constant 7 : i32
    %0 = spirv.AccessChain %p[%c7] : !P140, i32 -> !spirv.ptr<!spirv.matrix<2 x vector<3xf32>>, Uniform>
    spirv.Store "Uniform" %0, %v : !spirv.matrix<2 x vector<3xf32>>
    spirv.Return
  }

  // Loading an S from s[1]: x at 144 + 16 and y 8 bytes after it.
  // CHECK-LABEL: llvm.func internal @std140_load_struct
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(160 : i64) : i64
  // CHECK: %[[S:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: %[[X:.*]] = llvm.load %[[S]] invariant {alignment = 4 : i64} : !llvm.ptr -> vector<2xf32>
  // CHECK: %[[R0:.*]] = llvm.insertvalue %[[X]], %{{.*}}[0] : !llvm.struct<(vector<2xf32>, f32)>
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[YA:.*]] = llvm.getelementptr %[[S]][%[[EIGHT]]]
  // CHECK: %[[Y:.*]] = llvm.load %[[YA]] invariant {alignment = 4 : i64} : !llvm.ptr -> f32
  // CHECK: llvm.insertvalue %[[Y]], %[[R0]][1] : !llvm.struct<(vector<2xf32>, f32)>
  spirv.func @std140_load_struct(%p: !P140) -> !S140 "None" {
    %c6 = spirv.Constant 6 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c6, %c1] : !P140, i32, i32 -> !spirv.ptr<!S140, Uniform>
    %1 = spirv.Load "Uniform" %0 : !S140
    spirv.ReturnValue %1 : !S140
  }
}

// -----

!S430 = !spirv.struct<(vector<2xf32> [0], f32 [8])>
!Std430 = !spirv.struct<(f32 [0], vector<3xf32> [16], f32 [28], !spirv.array<3 x f32, stride=4> [32], !spirv.matrix<3 x vector<3xf32>> [48, ColMajor, MatrixStride=16], vector<2xf32> [96], !spirv.array<2 x !S430, stride=16> [104], !spirv.matrix<2 x vector<3xf32>> [136, RowMajor, MatrixStride=8], !spirv.rtarray<f32, stride=4> [160]), Block>
!P430 = !spirv.ptr<!Std430, StorageBuffer>

spirv.module Logical GLSL450 {
  // d[2]: 32 + 2 * 4 = 40 (std430 does not round array strides up to 16).
  // CHECK-LABEL: llvm.func internal @std430_array_element
  // CHECK: llvm.mlir.constant(40 : i64) : i64
  spirv.func @std430_array_element(%p: !P430) -> f32 "None" {
    %c3 = spirv.Constant 3 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c3, %c2] : !P430, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // m[1][2]: 48 + 16 + 2 * 4 = 72.
  // CHECK-LABEL: llvm.func internal @std430_matrix_element
  // CHECK: llvm.mlir.constant(72 : i64) : i64
  spirv.func @std430_matrix_element(%p: !P430) -> f32 "None" {
    %c4 = spirv.Constant 4 : i32
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c4, %c1, %c2] : !P430, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // s[1].y: 104 + 16 + 8 = 128.
  // CHECK-LABEL: llvm.func internal @std430_struct_array
  // CHECK: llvm.mlir.constant(128 : i64) : i64
  spirv.func @std430_struct_array(%p: !P430) -> f32 "None" {
    %c6 = spirv.Constant 6 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c6, %c1, %c1] : !P430, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // rm[0][1] (row-major, rows of vec2 8 bytes apart): 136 + 0 + 1 * 8 = 144.
  // CHECK-LABEL: llvm.func internal @std430_row_major_element
  // CHECK: llvm.mlir.constant(144 : i64) : i64
  spirv.func @std430_row_major_element(%p: !P430) -> f32 "None" {
    %c7 = spirv.Constant 7 : i32
    %c0 = spirv.Constant 0 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c7, %c0, %c1] : !P430, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // rm[1][i]: dynamic row of a row-major column: scaled by the MatrixStride
  // (8), not by the element size; the constant part is 136 + 4 = 140.
  // CHECK-LABEL: llvm.func internal @std430_row_major_dynamic_row
  // CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[I:[a-z0-9]+]]: i32)
  // CHECK: %[[WIDE:.*]] = llvm.sext %[[I]] : i32 to i64
  // CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[SCALED:.*]] = llvm.mul %[[WIDE]], %[[STRIDE]] : i64
  // CHECK: %[[ROW:.*]] = llvm.getelementptr %[[P]][%[[SCALED]]]
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(140 : i64) : i64
  // CHECK: llvm.getelementptr %[[ROW]][%[[OFF]]]
  spirv.func @std430_row_major_dynamic_row(%p: !P430, %i: i32) -> f32 "None" {
    %c7 = spirv.Constant 7 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c7, %c1, %i] : !P430, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // r[i], the trailing runtime array: 160 + i * 4; a 64-bit index needs no
  // extension.
  // CHECK-LABEL: llvm.func internal @std430_runtime_array
  // CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[I:[a-z0-9]+]]: i64, %[[V:[a-z0-9]+]]: f32)
  // CHECK-NOT: llvm.sext
  // CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[SCALED:.*]] = llvm.mul %[[I]], %[[STRIDE]] : i64
  // CHECK: %[[ELEM:.*]] = llvm.getelementptr %[[P]][%[[SCALED]]]
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(160 : i64) : i64
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %[[ELEM]][%[[OFF]]]
  // CHECK: llvm.store %[[V]], %[[ADDR]] {alignment = 4 : i64} : f32, !llvm.ptr
  spirv.func @std430_runtime_array(%p: !P430, %i: i64, %v: f32) "None" {
    %c8 = spirv.Constant 8 : i32
    %0 = spirv.AccessChain %p[%c8, %i] : !P430, i32, i64 -> !spirv.ptr<f32, StorageBuffer>
    spirv.Store "StorageBuffer" %0, %v : f32
    spirv.Return
  }
}

// -----

!SS = !spirv.struct<(vector<2xf32> [0], f32 [8])>
!Scalar = !spirv.struct<(f32 [0], vector<3xf32> [4], f32 [16], !spirv.array<3 x f32, stride=4> [20], !spirv.matrix<3 x vector<3xf32>> [32, ColMajor, MatrixStride=12], vector<2xf32> [68], !spirv.array<2 x !SS, stride=12> [76], f64 [104]), Block>
!PS = !spirv.ptr<!Scalar, StorageBuffer>

spirv.module Logical GLSL450 {
  // b[2] of the vec3 at 4: 4 + 2 * 4 = 12.
  // CHECK-LABEL: llvm.func internal @scalar_vec3_component
  // CHECK: llvm.mlir.constant(12 : i64) : i64
  spirv.func @scalar_vec3_component(%p: !PS) -> f32 "None" {
    %c1 = spirv.Constant 1 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c1, %c2] : !PS, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // m[2][2] with 12-byte columns: 32 + 24 + 8 = 64.
  // CHECK-LABEL: llvm.func internal @scalar_matrix_element
  // CHECK: llvm.mlir.constant(64 : i64) : i64
  spirv.func @scalar_matrix_element(%p: !PS) -> f32 "None" {
    %c4 = spirv.Constant 4 : i32
    %c2 = spirv.Constant 2 : i32
    %0 = spirv.AccessChain %p[%c4, %c2, %c2] : !PS, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // s[1].y with a 12-byte struct stride: 76 + 12 + 8 = 96.
  // CHECK-LABEL: llvm.func internal @scalar_struct_array
  // CHECK: llvm.mlir.constant(96 : i64) : i64
  spirv.func @scalar_struct_array(%p: !PS) -> f32 "None" {
    %c6 = spirv.Constant 6 : i32
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c6, %c1, %c1] : !PS, i32, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f32
    spirv.ReturnValue %1 : f32
  }

  // The double at 104, loaded with its 8-byte alignment.
  // CHECK-LABEL: llvm.func internal @scalar_double
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(104 : i64) : i64
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: llvm.load %[[ADDR]] {alignment = 8 : i64} : !llvm.ptr -> f64
  spirv.func @scalar_double(%p: !PS) -> f64 "None" {
    %c7 = spirv.Constant 7 : i32
    %0 = spirv.AccessChain %p[%c7] : !PS, i32 -> !spirv.ptr<f64, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : f64
    spirv.ReturnValue %1 : f64
  }

  // The whole mat3 with 12-byte columns: 32, 44, 56.
  // CHECK-LABEL: llvm.func internal @scalar_load_matrix
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[M:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: llvm.load %[[M]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  // CHECK: %[[S1:.*]] = llvm.mlir.constant(12 : i64) : i64
  // CHECK: %[[A1:.*]] = llvm.getelementptr %[[M]][%[[S1]]]
  // CHECK: llvm.load %[[A1]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  // CHECK: %[[S2:.*]] = llvm.mlir.constant(24 : i64) : i64
  // CHECK: %[[A2:.*]] = llvm.getelementptr %[[M]][%[[S2]]]
  // CHECK: llvm.load %[[A2]] {alignment = 4 : i64} : !llvm.ptr -> vector<3xf32>
  spirv.func @scalar_load_matrix(%p: !PS) -> !spirv.matrix<3 x vector<3xf32>> "None" {
    %c4 = spirv.Constant 4 : i32
    %0 = spirv.AccessChain %p[%c4] : !PS, i32 -> !spirv.ptr<!spirv.matrix<3 x vector<3xf32>>, StorageBuffer>
    %1 = spirv.Load "StorageBuffer" %0 : !spirv.matrix<3 x vector<3xf32>>
    spirv.ReturnValue %1 : !spirv.matrix<3 x vector<3xf32>>
  }

  // Storing the array of S (stride 12) writes each member at its offset:
  // 76, 84, 88, 96 (76 + 12 + 8).
  // CHECK-LABEL: llvm.func internal @scalar_store_struct_array
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(76 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.getelementptr %{{.*}}[%[[OFF]]]
  // CHECK: llvm.store %{{.*}}, %[[A]] {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
  // CHECK: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[Y0:.*]] = llvm.getelementptr %[[A]][%[[EIGHT]]]
  // CHECK: llvm.store %{{.*}}, %[[Y0]] {alignment = 4 : i64} : f32, !llvm.ptr
  // CHECK: %[[TWELVE:.*]] = llvm.mlir.constant(12 : i64) : i64
  // CHECK: %[[S1:.*]] = llvm.getelementptr %[[A]][%[[TWELVE]]]
  // CHECK: llvm.store %{{.*}}, %[[S1]] {alignment = 4 : i64} : vector<2xf32>, !llvm.ptr
  // CHECK: %[[EIGHT2:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[Y1:.*]] = llvm.getelementptr %[[S1]][%[[EIGHT2]]]
  // CHECK: llvm.store %{{.*}}, %[[Y1]] {alignment = 4 : i64} : f32, !llvm.ptr
  spirv.func @scalar_store_struct_array(%p: !PS, %v: !spirv.array<2 x !SS, stride=12>) "None" {
    %c6 = spirv.Constant 6 : i32
    %0 = spirv.AccessChain %p[%c6] : !PS, i32 -> !spirv.ptr<!spirv.array<2 x !SS, stride=12>, StorageBuffer>
    spirv.Store "StorageBuffer" %0, %v : !spirv.array<2 x !SS, stride=12>
    spirv.Return
  }
}

// -----

// Arrays of arrays: each level scales by its own ArrayStride.
// A[i][j] of float A[4][3] in std140 (inner stride 16, outer 48):
// i * 48 + j * 16 + the member offset 16.
spirv.module Logical GLSL450 {
  // CHECK-LABEL: llvm.func internal @nested_arrays
  // CHECK-SAME: %[[P:[a-z0-9]+]]: !llvm.ptr, %[[I:[a-z0-9]+]]: i32, %[[J:[a-z0-9]+]]: i32)
  // CHECK: %[[WI:.*]] = llvm.sext %[[I]] : i32 to i64
  // CHECK: %[[S48:.*]] = llvm.mlir.constant(48 : i64) : i64
  // CHECK: %[[MI:.*]] = llvm.mul %[[WI]], %[[S48]] : i64
  // CHECK: %[[WJ:.*]] = llvm.sext %[[J]] : i32 to i64
  // CHECK: %[[S16:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[MJ:.*]] = llvm.mul %[[WJ]], %[[S16]] : i64
  // CHECK: %[[SUM:.*]] = llvm.add %[[MI]], %[[MJ]] : i64
  // CHECK: %[[DYN:.*]] = llvm.getelementptr %[[P]][%[[SUM]]]
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: llvm.getelementptr %[[DYN]][%[[OFF]]]
  spirv.func @nested_arrays(%p: !spirv.ptr<!spirv.struct<(f32 [0], !spirv.array<4 x !spirv.array<3 x f32, stride=16>, stride=48> [16]), Block>, Uniform>, %i: i32, %j: i32) -> f32 "None" {
    %c1 = spirv.Constant 1 : i32
    %0 = spirv.AccessChain %p[%c1, %i, %j] : !spirv.ptr<!spirv.struct<(f32 [0], !spirv.array<4 x !spirv.array<3 x f32, stride=16>, stride=48> [16]), Block>, Uniform>, i32, i32, i32 -> !spirv.ptr<f32, Uniform>
    %1 = spirv.Load "Uniform" %0 : f32
    spirv.ReturnValue %1 : f32
  }
}
