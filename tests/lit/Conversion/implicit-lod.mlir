// RUN: spvb-opt --spvb-implicit-lod %s | FileCheck %s

// In a fragment shader OpImageSampleImplicitLod (opcode 87) chooses its
// level from the coordinate's derivatives in the quad: the sample gets Grad
// operands (image operands bit 2) computed as quad operations, the coarse
// derivatives OpDPdxCoarse (213) and OpDPdyCoarse (214) of its coordinate.
// CHECK-LABEL: spirv.func @main
// CHECK: %[[UV:.*]] = spirv.Load "Input"
// CHECK-NEXT: %[[DX:.*]] = spvb.subgroup 213(%[[UV]]) {{.*}} : (vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[DY:.*]] = spvb.subgroup 214(%[[UV]]) {{.*}} : (vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: spvb.image 87(%{{.*}}, %[[UV]], %[[DX]], %[[DY]]) {image_operands = 4 : i32}
spirv.GlobalVariable @tex bind(0, 1) : !spirv.ptr<!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, UniformConstant>
spirv.GlobalVariable @uv {location = 0 : i32} : !spirv.ptr<vector<2xf32>, Input>
spirv.GlobalVariable @color {location = 0 : i32} : !spirv.ptr<vector<4xf32>, Output>
spirv.func @main() "None" {
  %tex_addr = spirv.mlir.addressof @tex : !spirv.ptr<!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, UniformConstant>
  %uv_addr = spirv.mlir.addressof @uv : !spirv.ptr<vector<2xf32>, Input>
  %color_addr = spirv.mlir.addressof @color : !spirv.ptr<vector<4xf32>, Output>
  %0 = spirv.Load "UniformConstant" %tex_addr : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
  %1 = spirv.Load "Input" %uv_addr : vector<2xf32>
  %2 = spvb.image 87(%0, %1) {image_operands = 0 : i32} : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, vector<2xf32>) -> vector<4xf32>
  spirv.Store "Output" %color_addr, %2 : vector<4xf32>
  spirv.Return
}

// An explicit-LOD sample (88) keeps its operands.
// CHECK-LABEL: spirv.func @explicit
// CHECK-NOT: spvb.subgroup
// CHECK: spvb.image 88(%{{.*}}, %{{.*}}, %{{.*}}) {image_operands = 2 : i32}
spirv.func @explicit(%uv: vector<2xf32>, %lod: f32) -> vector<4xf32> "None" {
  %tex_addr = spirv.mlir.addressof @tex : !spirv.ptr<!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, UniformConstant>
  %0 = spirv.Load "UniformConstant" %tex_addr : !spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>
  %1 = spvb.image 88(%0, %uv, %lod) {image_operands = 2 : i32} : (!spirv.sampled_image<!spirv.image<f32, Dim2D, NoDepth, NonArrayed, SingleSampled, NeedSampler, Unknown>>, vector<2xf32>, f32) -> vector<4xf32>
  spirv.ReturnValue %1 : vector<4xf32>
}
