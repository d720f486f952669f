#version 450
// Two invocations per triangle; invocation 1 for primitive 1 writes
// element 4 of a 4-element buffer.
layout(triangles, invocations = 2) in;
layout(triangle_strip, max_vertices = 3) out;
layout(set = 0, binding = 0) buffer B { uint d[4]; } b;
void main() {
  b.d[gl_PrimitiveIDIn == 1 && gl_InvocationID == 1 ? 4 : 0] = 1u;
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    EmitVertex();
  }
}
