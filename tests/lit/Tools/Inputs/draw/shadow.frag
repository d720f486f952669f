#version 450
layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() {
  float plain = texture(shadow, vec3(uv, 0.5));
  // The projective form divides the reference by q too: (2u, 1, 1) / 2.
  float projected = textureProj(shadow, vec4(2.0 * uv, 1.0, 2.0));
  vec4 gathered = textureGather(shadow, uv, 0.5);
  color = vec4(plain, projected, gathered.x + gathered.y, gathered.z + gathered.w);
}
