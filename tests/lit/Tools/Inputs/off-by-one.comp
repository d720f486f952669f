#version 450
// The classic bug: 8 invocations write y[i + 1] into an 8-element buffer.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i + 1u] = i;
}
