#version 450
// Invocation 1 reads element 4000001 of a 256-byte buffer: byte 16000004.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint d[]; } src;
layout(set = 0, binding = 1) buffer Out { uint e[]; } dst;
void main() {
  uint i = gl_GlobalInvocationID.x;
  dst.e[i] = src.d[i * 4000000u + 1u];
}
