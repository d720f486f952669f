#version 450
// Which way each fragment's triangle faces, and where it is in the
// patch: --compare checks the tessellator's winding and coverage.
layout(location = 0) in vec2 where;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(gl_FrontFacing ? 1.0 : 0.25, where, 1.0);
}
