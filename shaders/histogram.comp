#version 450
// 256-bin histogram with workgroup-local atomics merged into global atomics.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[256]; };
shared uint local_bins[256];
void main() {
  local_bins[gl_LocalInvocationIndex] = 0u;
  barrier();
  atomicAdd(local_bins[v[gl_GlobalInvocationID.x] >> 24], 1u);
  barrier();
  atomicAdd(bins[gl_LocalInvocationIndex], local_bins[gl_LocalInvocationIndex]);
}
