#version 450
// y[i] = x[i] + 1 for 8 invocations while x holds only 4 floats: with
// robustBufferAccess2 the reads past the end give 0.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = x[i] + 1.0;
}
