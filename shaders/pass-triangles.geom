#version 450
// Each triangle passed on as it is, with its vertices' uv
// (tools/benchmark.py): what a geometry shader adds to a draw.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec2 uv[];
layout(location = 0) out vec2 outUv;

void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    outUv = uv[i];
    EmitVertex();
  }
}
