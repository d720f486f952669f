#version 450
// Samples a mipmapped texture with implicit LOD (derivatives from the 2x2
// quad) and shades it with a light term.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
  vec4 texel = texture(tex, uv);
  color = vec4(texel.rgb * (0.75 + 0.25 * sin(uv.x * 3.0)), 1.0);
}
