// RUN: spvb-opt --spvb-lower-to-llvm %s | FileCheck %s

// Index paths that end inside a vector (a matrix column element).
// Constant-index extract and insert.
// CHECK-LABEL: llvm.func internal @extract_insert
// CHECK-SAME: %[[S:[a-z0-9]+]]: !llvm.struct<(f32, array<2 x vector<2xi32>>)>, %[[X:[a-z0-9]+]]: i32)
// CHECK: %[[V:.*]] = llvm.extractvalue %[[S]][1, 1] : !llvm.struct<(f32, array<2 x vector<2xi32>>)>
// CHECK: llvm.extractelement %[[V]]
// CHECK: %[[W:.*]] = llvm.extractvalue %[[S]][1, 0]
// CHECK: %[[W2:.*]] = llvm.insertelement %[[X]], %[[W]]
// CHECK: llvm.insertvalue %[[W2]], %[[S]][1, 0] : !llvm.struct<(f32, array<2 x vector<2xi32>>)>
spirv.module Logical GLSL450 {
  spirv.func @extract_insert(%s: !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>, %x: i32) -> !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)> "None" {
    %0 = spirv.CompositeExtract %s[1 : i32, 1 : i32, 0 : i32] : !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>
    %1 = spirv.CompositeInsert %x, %s[1 : i32, 0 : i32, 1 : i32] : i32 into !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>
    spirv.ReturnValue %1 : !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>
  }
}

