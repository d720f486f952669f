#version 450
// A fragment shader to debug one pixel of (Debugging/debug-pixel.test).
layout(location = 0) out vec4 color;
void main() {
  vec2 p = gl_FragCoord.xy / 4.0;
  float dx = dFdx(p.x);
  bool helper = gl_HelperInvocation;
  color = vec4(p, dx, helper ? 0.0 : 1.0);
}
