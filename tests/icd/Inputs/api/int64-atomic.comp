#version 450
// Invocation i adds 2^32 + i to a and 0xFFFFFFFF to b, both uint64_t.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Sums {
  uint64_t a;
  uint64_t b;
};

void main() {
  uint64_t i = gl_GlobalInvocationID.x;
  atomicAdd(a, (uint64_t(1) << 32) + i);
  atomicAdd(b, 0xFFFFFFFFul);
}
