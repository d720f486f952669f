#version 450
// v[i] = v[i] * SCALE + 1, SCALE from an included header.
#include "cache-scale.h"
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = v[i] * SCALE + 1u;
}
