#version 450
// The workgroup width is specialization constant 0 (default 1): glslang
// declares gl_WorkGroupSize as a specialization composite.
layout(local_size_x_id = 0, local_size_y = 2) in;
layout(std430, binding = 0) buffer B { uint v[]; } b;
void main() { b.v[gl_LocalInvocationIndex] = gl_WorkGroupSize.x; }
