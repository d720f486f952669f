#version 450
// Passes each triangle on with its provoking vertex's id plus 100 and
// 1000 x its primitive number.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    outId = id[0] + 1000u * uint(gl_PrimitiveIDIn) + 100u;
    EmitVertex();
  }
}
