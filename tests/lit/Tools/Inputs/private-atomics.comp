#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// Bins and Wide are changed only by unused relaxed atomics; Used's old
// values are read, Read is loaded too.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[16]; };
layout(set = 0, binding = 2) buffer Used { uint count; uint last; };
layout(set = 0, binding = 3) buffer Wide { uint64_t wide[2]; };
layout(set = 0, binding = 4) buffer Read { uint total; uint copy; };
void main() {
  uint x = v[gl_GlobalInvocationID.x];
  atomicAdd(bins[x % 16u], 1u);
  atomicAdd(bins[gl_LocalInvocationIndex % 16u], -(x & 1u));
  atomicMax(last, atomicAdd(count, 1u));
  atomicMax(wide[x % 2u], uint64_t(x) << 20);
  atomicAdd(total, x);
  if (x == 0u)
    copy = total;
}
