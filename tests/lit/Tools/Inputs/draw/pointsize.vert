#version 450
layout(location = 0) in vec2 position;
layout(location = 0) flat out uint id;
void main() {
  gl_Position = vec4(position, 0.0, 1.0);
  gl_PointSize = 3.0 + float(gl_VertexIndex);
  id = uint(gl_VertexIndex) * 10u + 7u;
}
