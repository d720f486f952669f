#version 450
// Invocation 2 of patch 1 writes element 4 of a 4-element buffer.
layout(vertices = 4) out;
layout(set = 0, binding = 0) buffer B { uint d[4]; } b;
void main() {
  b.d[gl_PrimitiveID == 1 && gl_InvocationID == 2 ? 4 : 0] = 1u;
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
  gl_TessLevelInner = float[2](1.0, 1.0);
}
