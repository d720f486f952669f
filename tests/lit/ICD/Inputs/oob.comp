#version 450
// Invocation i writes data[2 * i]: with 4 invocations and 4 elements,
// invocations 2 and 3 write past the end (bytes 16 and 24).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  data[i * 2u] = i;
}
