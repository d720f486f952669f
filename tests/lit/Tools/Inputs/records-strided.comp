#version 450
// Each invocation reads every second vec4 record: the lanes' loads of a
// component are 32 bytes apart, and the records between are not read.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 records[]; };
layout(set = 0, binding = 1) buffer Out { float sums[]; };
layout(push_constant) uniform Count { uint n; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) {
    vec4 r = records[2u * i];
    sums[i] = r.x + 2.0 * r.y + 3.0 * r.z + 4.0 * r.w;
  }
}
