// RUN: spvb-opt --spvb-lower-to-llvm --split-input-file %s | FileCheck %s

// A vector is built from its constituents flattened in order: (a, v.x, v.y, b).
// CHECK-LABEL: llvm.func internal @construct_vector
// CHECK-SAME: %[[A:[a-z0-9]+]]: f32, %[[V:[a-z0-9]+]]: vector<2xf32>, %[[B:[a-z0-9]+]]: f32)
// CHECK: %[[P:.*]] = llvm.mlir.poison : vector<4xf32>
// CHECK: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[R0:.*]] = llvm.insertelement %[[A]], %[[P]][%[[I0]] : i32] : vector<4xf32>
// CHECK: %[[J0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[X:.*]] = llvm.extractelement %[[V]][%[[J0]] : i32] : vector<2xf32>
// CHECK: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[R1:.*]] = llvm.insertelement %[[X]], %[[R0]][%[[I1]] : i32] : vector<4xf32>
// CHECK: %[[J1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[Y:.*]] = llvm.extractelement %[[V]][%[[J1]] : i32] : vector<2xf32>
// CHECK: %[[I2:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[R2:.*]] = llvm.insertelement %[[Y]], %[[R1]][%[[I2]] : i32] : vector<4xf32>
// CHECK: %[[I3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[R3:.*]] = llvm.insertelement %[[B]], %[[R2]][%[[I3]] : i32] : vector<4xf32>
// CHECK: llvm.return %[[R3]] : vector<4xf32>
spirv.module Logical GLSL450 {
  spirv.func @construct_vector(%a: f32, %v: vector<2xf32>, %b: f32) -> vector<4xf32> "None" {
    %0 = spirv.CompositeConstruct %a, %v, %b : (f32, vector<2xf32>, f32) -> vector<4xf32>
    spirv.ReturnValue %0 : vector<4xf32>
  }
}

// -----

// Structs, arrays and matrices (arrays of columns) are built member by member.
// CHECK-LABEL: llvm.func internal @construct_struct
// CHECK-SAME: %[[A:[a-z0-9]+]]: i32, %[[B:[a-z0-9]+]]: vector<3xf32>)
// CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(i32, vector<3xf32>)>
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A]], %[[P]][0] : !llvm.struct<(i32, vector<3xf32>)>
// CHECK: %[[R1:.*]] = llvm.insertvalue %[[B]], %[[R0]][1] : !llvm.struct<(i32, vector<3xf32>)>
// CHECK: llvm.return %[[R1]]
// CHECK-LABEL: llvm.func internal @construct_array
// CHECK-SAME: %[[A:[a-z0-9]+]]: i64, %[[B:[a-z0-9]+]]: i64)
// CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x i64>
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[A]], %[[P]][0] : !llvm.array<2 x i64>
// CHECK: llvm.insertvalue %[[B]], %[[R0]][1] : !llvm.array<2 x i64>
// CHECK-LABEL: llvm.func internal @construct_matrix
// CHECK-SAME: %[[C0:[a-z0-9]+]]: vector<2xf32>, %[[C1:[a-z0-9]+]]: vector<2xf32>)
// CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf32>>
// CHECK: %[[R0:.*]] = llvm.insertvalue %[[C0]], %[[P]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK: llvm.insertvalue %[[C1]], %[[R0]][1] : !llvm.array<2 x vector<2xf32>>
spirv.module Logical GLSL450 {
  spirv.func @construct_struct(%a: i32, %b: vector<3xf32>) -> !spirv.struct<(i32, vector<3xf32>)> "None" {
    %0 = spirv.CompositeConstruct %a, %b : (i32, vector<3xf32>) -> !spirv.struct<(i32, vector<3xf32>)>
    spirv.ReturnValue %0 : !spirv.struct<(i32, vector<3xf32>)>
  }
  spirv.func @construct_array(%a: i64, %b: i64) -> !spirv.array<2 x i64> "None" {
    %0 = spirv.CompositeConstruct %a, %b : (i64, i64) -> !spirv.array<2 x i64>
    spirv.ReturnValue %0 : !spirv.array<2 x i64>
  }
  spirv.func @construct_matrix(%c0: vector<2xf32>, %c1: vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>> "None" {
    %0 = spirv.CompositeConstruct %c0, %c1 : (vector<2xf32>, vector<2xf32>) -> !spirv.matrix<2 x vector<2xf32>>
    spirv.ReturnValue %0 : !spirv.matrix<2 x vector<2xf32>>
  }
}

// -----

// OpVectorExtractDynamic with an index past the end reads zero: the index
// is compared (unsigned, so negative indices are out of range too) with the
// component count, replaced by 0 when out of range, and the result selected.
// CHECK-LABEL: llvm.func internal @extract_dynamic
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<4xi32>, %[[I:[a-z0-9]+]]: i8)
// CHECK: %[[N:.*]] = llvm.mlir.constant(4 : i8) : i8
// CHECK: %[[OK:.*]] = llvm.icmp "ult" %[[I]], %[[N]] : i8
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK: %[[SAFE:.*]] = llvm.select %[[OK]], %[[I]], %[[Z]] : i1, i8
// CHECK: %[[E:.*]] = llvm.extractelement %[[V]][%[[SAFE]] : i8] : vector<4xi32>
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : i32
// CHECK: %[[R:.*]] = llvm.select %[[OK]], %[[E]], %[[ZERO]] : i1, i32
// CHECK: llvm.return %[[R]] : i32
spirv.module Logical GLSL450 {
  spirv.func @extract_dynamic(%v: vector<4xi32>, %i: i8) -> i32 "None" {
    %0 = spirv.VectorExtractDynamic %v[%i] : vector<4xi32>, i8
    spirv.ReturnValue %0 : i32
  }
}

// -----

// OpVectorInsertDynamic with an index past the end writes nothing: the
// original vector is the result.
// CHECK-LABEL: llvm.func internal @insert_dynamic
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<3xf32>, %[[X:[a-z0-9]+]]: f32, %[[I:[a-z0-9]+]]: i32)
// CHECK: %[[N:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[OK:.*]] = llvm.icmp "ult" %[[I]], %[[N]] : i32
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[SAFE:.*]] = llvm.select %[[OK]], %[[I]], %[[Z]] : i1, i32
// CHECK: %[[NEW:.*]] = llvm.insertelement %[[X]], %[[V]][%[[SAFE]] : i32] : vector<3xf32>
// CHECK: %[[R:.*]] = llvm.select %[[OK]], %[[NEW]], %[[V]] : i1, vector<3xf32>
// CHECK: llvm.return %[[R]] : vector<3xf32>
spirv.module Logical GLSL450 {
  spirv.func @insert_dynamic(%v: vector<3xf32>, %x: f32, %i: i32) -> vector<3xf32> "None" {
    %0 = spirv.VectorInsertDynamic %x, %v[%i] : vector<3xf32>, i32
    spirv.ReturnValue %0 : vector<3xf32>
  }
}

// -----

// Constant-index extract and insert: aggregates by extractvalue/insertvalue
// with the whole index path, vectors by extractelement/insertelement.
// CHECK-LABEL: llvm.func internal @extract_insert
// CHECK-SAME: %[[S:[a-z0-9]+]]: !llvm.struct<(f32, array<2 x vector<2xi32>>)>, %[[V:[a-z0-9]+]]: vector<2xi32>, %[[X:[a-z0-9]+]]: i32)
// CHECK: %[[E:.*]] = llvm.extractvalue %[[S]][1, 1] : !llvm.struct<(f32, array<2 x vector<2xi32>>)>
// CHECK: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: %[[Y:.*]] = llvm.extractelement %[[V]][%[[I1]] : i32] : vector<2xi32>
// CHECK: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[V2:.*]] = llvm.insertelement %[[Y]], %[[E]][%[[I0]] : i32] : vector<2xi32>
// CHECK: %[[R:.*]] = llvm.insertvalue %[[V2]], %[[S]][1, 0] : !llvm.struct<(f32, array<2 x vector<2xi32>>)>
// CHECK: llvm.return %[[R]]
spirv.module Logical GLSL450 {
  spirv.func @extract_insert(%s: !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>, %v: vector<2xi32>, %x: i32) -> !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)> "None" {
    %0 = spirv.CompositeExtract %s[1 : i32, 1 : i32] : !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>
    %1 = spirv.CompositeExtract %v[1 : i32] : vector<2xi32>
    %2 = spirv.CompositeInsert %1, %0[0 : i32] : i32 into vector<2xi32>
    %3 = spirv.CompositeInsert %2, %s[1 : i32, 0 : i32] : vector<2xi32> into !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>
    spirv.ReturnValue %3 : !spirv.struct<(f32, !spirv.array<2 x vector<2xi32>>)>
  }
}

// -----

// OpSelect of a struct (spvb.composite_select) is one llvm.select of the
// aggregate; OpCopyLogical is the value itself.
// CHECK-LABEL: llvm.func internal @composite_select
// CHECK-SAME: %[[C:[a-z0-9]+]]: i1, %[[A:[a-z0-9]+]]: !llvm.struct<(f32, i32)>, %[[B:[a-z0-9]+]]: !llvm.struct<(f32, i32)>)
// CHECK: %[[R:.*]] = llvm.select %[[C]], %[[A]], %[[B]] : i1, !llvm.struct<(f32, i32)>
// CHECK: llvm.return %[[R]]
// CHECK-LABEL: llvm.func internal @copy_logical
// CHECK-SAME: %[[A:[a-z0-9]+]]: !llvm.array<2 x f32>)
// CHECK-NEXT: llvm.return %[[A]] : !llvm.array<2 x f32>
module {
  spirv.func @composite_select(%c: i1, %a: !spirv.struct<(f32, i32)>, %b: !spirv.struct<(f32, i32)>) -> !spirv.struct<(f32, i32)> "None" {
    %0 = spvb.composite_select %c, %a, %b : !spirv.struct<(f32, i32)>
    spirv.ReturnValue %0 : !spirv.struct<(f32, i32)>
  }
  spirv.func @copy_logical(%a: !spirv.array<2 x f32, stride=16>) -> !spirv.array<2 x f32> "None" {
    %0 = spvb.copy_logical %a : !spirv.array<2 x f32, stride=16> to !spirv.array<2 x f32>
    spirv.ReturnValue %0 : !spirv.array<2 x f32>
  }
}

// -----

// OpAny / OpAll reduce a bool vector with or / and.
// CHECK-LABEL: llvm.func internal @any_all
// CHECK-SAME: %[[V:[a-z0-9]+]]: vector<3xi1>)
// CHECK: %[[ANY:.*]] = "llvm.intr.vector.reduce.or"(%[[V]]) : (vector<3xi1>) -> i1
// CHECK: %[[ALL:.*]] = "llvm.intr.vector.reduce.and"(%[[V]]) : (vector<3xi1>) -> i1
// CHECK: llvm.and %[[ANY]], %[[ALL]] : i1
module {
  spirv.func @any_all(%v: vector<3xi1>) -> i1 "None" {
    %0 = spvb.any %v : vector<3xi1>
    %1 = spvb.all %v : vector<3xi1>
    %2 = spirv.LogicalAnd %0, %1 : i1
    spirv.ReturnValue %2 : i1
  }
}
