#version 450
// Each quad patch of the tessellated grid into 16 x 16 quads
// (tools/benchmark.py).
layout(vertices = 4) out;
layout(location = 0) in vec2 corner[];
layout(location = 0) out vec2 outCorner[];

void main() {
  outCorner[gl_InvocationID] = corner[gl_InvocationID];
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter = float[4](16.0, 16.0, 16.0, 16.0);
    gl_TessLevelInner = float[2](16.0, 16.0);
  }
}
