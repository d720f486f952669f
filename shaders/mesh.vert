#version 450
// A textured mesh's vertex shader: positions in [-1, 1]^2 tilted away from
// the viewer under a perspective projection, so that the texture shrinks
// with depth and implicit-LOD sampling picks several mip levels.
layout(location = 0) in vec2 position;
layout(location = 1) in vec2 texcoord;
layout(location = 0) out vec2 uv;

void main() {
  float z = 2.0 + 1.5 * position.y;
  gl_Position = vec4(position.x * 1.6, position.y * 1.2 - 0.2, z * 0.2, z);
  gl_Position.xy *= 1.5;
  uv = texcoord * 4.0;
}
