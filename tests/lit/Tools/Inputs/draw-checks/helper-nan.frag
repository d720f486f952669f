#version 450
// 0 / 0 in helper invocations only.
layout(location = 0) out vec4 colour;
void main() {
  float z = gl_HelperInvocation ? 0.0 : 1.0;
  colour = vec4(z / z);
}
