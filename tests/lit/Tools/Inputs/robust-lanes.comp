#version 450
// Robust access with invocations in SIMD lanes: groups of lanes wholly
// inside a buffer, straddling its end and past it, through one buffer and
// through an array of buffers chosen per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(set = 0, binding = 2) buffer Z { uint v[]; } zs[2];
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = x[i] + 1.0;
  zs[i % 2].v[i / 2] += i;
}
