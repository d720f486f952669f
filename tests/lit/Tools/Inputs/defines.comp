#version 450
#extension GL_GOOGLE_include_directive : require
// VALUE comes from -DVALUE=..., FLAG from a bare -DFLAG (defined as 1),
// SCALE from common.glsl, found through -I.
#include "common.glsl"
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { uint v[]; } b;
void main() {
#if FLAG == 1
  b.v[0] = VALUE * SCALE;
#else
  b.v[0] = 0u;
#endif
}
