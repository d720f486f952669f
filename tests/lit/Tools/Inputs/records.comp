#version 450
// Each invocation reads one vec4 record (16 bytes): the lanes' loads of a
// component are 16 bytes apart.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 records[]; };
layout(set = 0, binding = 1) buffer Out { float sums[]; };
layout(push_constant) uniform Count { uint n; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) {
    vec4 r = records[i];
    sums[i] = r.x + 2.0 * r.y + 3.0 * r.z + 4.0 * r.w;
  }
}
