#version 450
// Each workgroup takes the maximum of one row's columns, each invocation
// every gl_WorkGroupSize.x-th column from its own, as ggml's soft_max
// does; the local size is specialization constant 0.
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer M { float m[]; };
layout(push_constant) uniform P { uint cols; } p;
void main() {
  uint row = gl_WorkGroupID.x;
  uint t = gl_LocalInvocationID.x;
  float best = -1e30;
  for (uint c = t; c < p.cols; c += gl_WorkGroupSize.x)
    best = max(best, x[row * p.cols + c]);
  m[row * gl_WorkGroupSize.x + t] = best;
}
