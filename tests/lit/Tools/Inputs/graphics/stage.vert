#version 450
layout(location = 0) in vec4 position;
layout(location = 1) in dvec3 wide;
layout(location = 0) out vec2 uv;
layout(location = 1) flat out int index;
void main() {
  gl_Position = position + vec4(wide, 0.0);
  uv = position.xy;
  index = gl_VertexIndex;
}
