#version 450
// C = A * B for N x N row-major floats (N a multiple of 16, in the push
// constants), in 16 x 16 tiles staged through shared memory: the
// benchmark's tiled matrix multiply (tools/benchmark.py).
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint n; } params;

shared float tileA[16][16];
shared float tileB[16][16];

void main() {
  uint n = params.n;
  uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
  uint ty = gl_LocalInvocationID.y, tx = gl_LocalInvocationID.x;
  float sum = 0.0;
  for (uint k0 = 0; k0 < n; k0 += 16) {
    tileA[ty][tx] = a[row * n + k0 + tx];
    tileB[ty][tx] = b[(k0 + ty) * n + col];
    barrier();
    for (uint k = 0; k < 16; ++k)
      sum += tileA[ty][k] * tileB[k][tx];
    barrier();
  }
  c[row * n + col] = sum;
}
