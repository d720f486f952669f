#version 450
// Vertex 3 writes element 3 of a 3-element buffer.
layout(set = 0, binding = 0) buffer B { uint d[3]; } b;
layout(location = 0) in vec2 position;
void main() {
  b.d[gl_VertexIndex] = 1u;
  gl_Position = vec4(position, 0.0, 1.0);
}
