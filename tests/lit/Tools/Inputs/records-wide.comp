#version 450
// Each invocation reads two components of a record of two vec4s (32
// bytes): the lanes' loads of a component are 32 bytes apart.
layout(local_size_x = 64) in;
struct Pair {
  vec4 a;
  vec4 b;
};
layout(set = 0, binding = 0) readonly buffer In { Pair records[]; };
layout(set = 0, binding = 1) buffer Out { float sums[]; };
layout(push_constant) uniform Count { uint n; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n)
    sums[i] = records[i].a.x + 2.0 * records[i].b.w;
}
