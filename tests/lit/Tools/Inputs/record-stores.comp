#version 450
// Each invocation writes one vec4 record (16 bytes): the scalarizer splits
// the store into four component stores, 16 bytes apart across the lanes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { vec4 records[]; };
layout(push_constant) uniform Count { uint n; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n)
    records[i] = vec4(i, 2 * i, 3 * i, 4 * i + 1);
}
