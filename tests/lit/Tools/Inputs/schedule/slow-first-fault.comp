#version 450
// Every invocation writes past the 16 uints bound to binding 0 (at index
// 16 + its global id); workgroup 0 first spins, so on several threads
// later workgroups fault long before it does.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
layout(set = 0, binding = 1) buffer Sink { uint w[]; };
layout(push_constant) uniform Push { uint spins; };

void main() {
  if (gl_WorkGroupID.x == 0u) {
    uint x = gl_LocalInvocationID.x;
    for (uint i = 0u; i < spins; ++i)
      x = x * 1664525u + 1013904223u;
    w[gl_LocalInvocationID.x] = x;
  }
  v[16u + gl_GlobalInvocationID.x] = 1u;
}
