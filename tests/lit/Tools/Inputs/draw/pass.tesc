#version 450
// Three or four control points through; fractional levels.
layout(vertices = 4) out;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  gl_TessLevelOuter = float[4](2.5, 3.0, 1.7, 4.2);
  gl_TessLevelInner = float[2](3.3, 2.6);
}
