#version 450
// Four invocations over two 4-element buffers: reads past the end, a write
// past the end and an atomic past the end.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out { uint b[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint old = atomicAdd(a[i + 6u], 1u);
  b[i] = a[i + 2u] + 100u + old;
  b[i + 4u] = 999u;
}
