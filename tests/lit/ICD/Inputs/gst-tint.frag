#version 450
// A user shader for GStreamer's vulkanshaderspv: its interface (the frame's
// texture at binding 1, the uniforms at binding 0) is the element's.
layout(location = 0) in vec2 inTexCoord;
layout(set = 0, binding = 0) uniform ShaderFilter {
  float time;
  float width;
  float height;
};
layout(set = 0, binding = 1) uniform sampler2D inTexture;
layout(location = 0) out vec4 outColor;

void main() {
  vec4 c = texture(inTexture, inTexCoord);
  outColor = vec4(1.0 - c.rgb, 1.0) * vec4(inTexCoord.x, 1.0, width / 64.0, 1.0);
}
