// RUN: not spvb-opt --spvb-lower-to-llvm --split-input-file %s 2>&1 | FileCheck %s

// spvb.glsl takes any instruction number, so malformed ones are reported
// with their location instead of crashing the lowering.

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 76 (InterpolateAt*) is only valid in fragment shaders
module {
  spirv.func @interpolate(%a: f32) -> f32 "None" {
    %0 = spvb.glsl 76 (%a) : (f32) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: unknown GLSL.std.450 instruction 99
module {
  spirv.func @unknown(%a: f32) -> f32 "None" {
    %0 = spvb.glsl 99 (%a) : (f32) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 49 expects 3 operands and one result
module {
  spirv.func @count(%a: f32) -> f32 "None" {
    %0 = spvb.glsl 49 (%a, %a) : (f32, f32) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 1: unexpected operand type 'i32'
module {
  spirv.func @kind(%a: i32) -> i32 "None" {
    %0 = spvb.glsl 1 (%a) : (i32) -> i32
    spirv.ReturnValue %0 : i32
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 68: unsupported operand or result types
module {
  spirv.func @cross(%a: vector<2xf32>) -> vector<2xf32> "None" {
    %0 = spvb.glsl 68 (%a, %a) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
    spirv.ReturnValue %0 : vector<2xf32>
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 33: unsupported operand or result types
module {
  spirv.func @determinant(%m: !spirv.matrix<3 x vector<2xf32>>) -> f32 "None" {
    %0 = spvb.glsl 33 (%m) : (!spirv.matrix<3 x vector<2xf32>>) -> f32
    spirv.ReturnValue %0 : f32
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 4: result type 'f64' does not match the operands
module {
  spirv.func @result(%a: f32) -> f64 "None" {
    %0 = spvb.glsl 4 (%a) : (f32) -> f64
    spirv.ReturnValue %0 : f64
  }
}

// -----

// CHECK: error: <input>: {{.*}}glsl-errors.mlir:[[@LINE+3]]:10: GLSL.std.450 instruction 55: unsupported operand or result types
module {
  spirv.func @pack(%a: vector<3xf32>) -> i32 "None" {
    %0 = spvb.glsl 55 (%a) : (vector<3xf32>) -> i32
    spirv.ReturnValue %0 : i32
  }
}
