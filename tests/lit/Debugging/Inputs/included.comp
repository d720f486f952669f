#version 450
#extension GL_GOOGLE_include_directive : require
// A kernel whose function comes from an #include (Debugging/include.test).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; } data;

#include "collatz.glsl"

void main() {
  uint id = gl_GlobalInvocationID.x;
  data.values[id] = collatz(data.values[id]);
}
