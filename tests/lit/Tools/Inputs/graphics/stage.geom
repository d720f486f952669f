#version 450
layout(triangles) in;
layout(line_strip, max_vertices = 2) out;
layout(location = 0) in vec2 uv[];
layout(location = 0) out vec2 outUv;
void main() {
  for (int i = 0; i < 2; ++i) {
    gl_Position = gl_in[i].gl_Position;
    outUv = uv[i];
    EmitVertex();
  }
}
