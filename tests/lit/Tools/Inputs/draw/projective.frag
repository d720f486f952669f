#version 450
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  // (u, 0.5) scaled by q = 4: the division gives them back.
  color = textureProj(tex, vec3(uv.x * 4.0, 2.0, 4.0));
}
