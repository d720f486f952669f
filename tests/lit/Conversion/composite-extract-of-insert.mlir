// RUN: spvb-opt --spvb-lower-to-llvm %s | FileCheck %s

// Upstream's spirv.CompositeExtract fold walks a chain of inserts past one
// into a part of the extracted element: extracting [0] after inserting at
// [0, 0] returned the element from before the insert (a miscompile
// GraphicsFuzz found: cov-nested-structs-function-set-inner-struct-field-
// return). The lowering converts with patterns first, so the extract reads
// the insert's result, in both directions of the overlap.
spirv.module Logical GLSL450 {
  // CHECK-LABEL: llvm.func internal @inner_of_inserted
  // CHECK: %[[INSERTED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[0, 0]
  // CHECK: %[[INNER:.*]] = llvm.extractvalue %[[INSERTED]][0]
  // CHECK: llvm.extractvalue %[[INNER]][0]
  spirv.func @inner_of_inserted(%old: i32, %new: i32, %v: vector<4xf32>) -> i32 "None" {
    %s0 = spirv.CompositeConstruct %old : (i32) -> !spirv.struct<(i32)>
    %s1 = spirv.CompositeConstruct %s0, %v : (!spirv.struct<(i32)>, vector<4xf32>) -> !spirv.struct<(!spirv.struct<(i32)>, vector<4xf32>)>
    %set = spirv.CompositeInsert %new, %s1[0 : i32, 0 : i32] : i32 into !spirv.struct<(!spirv.struct<(i32)>, vector<4xf32>)>
    %inner = spirv.CompositeExtract %set[0 : i32] : !spirv.struct<(!spirv.struct<(i32)>, vector<4xf32>)>
    %a = spirv.CompositeExtract %inner[0 : i32] : !spirv.struct<(i32)>
    spirv.ReturnValue %a : i32
  }

  // CHECK-LABEL: llvm.func internal @part_of_inserted
  // CHECK: %[[INSERTED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[0]
  // CHECK: llvm.extractvalue %[[INSERTED]][0, 0]
  spirv.func @part_of_inserted(%s1: !spirv.struct<(!spirv.struct<(i32)>, vector<4xf32>)>, %s0: !spirv.struct<(i32)>) -> i32 "None" {
    %set = spirv.CompositeInsert %s0, %s1[0 : i32] : !spirv.struct<(i32)> into !spirv.struct<(!spirv.struct<(i32)>, vector<4xf32>)>
    %a = spirv.CompositeExtract %set[0 : i32, 0 : i32] : !spirv.struct<(!spirv.struct<(i32)>, vector<4xf32>)>
    spirv.ReturnValue %a : i32
  }
}
