#version 450
// 0 / 0 at pixel (2, 1) only.
layout(location = 0) out vec4 colour;
void main() {
  float z = uvec2(gl_FragCoord.xy) == uvec2(2, 1) ? 0.0 : 1.0;
  colour = vec4(z / z);
}
