#version 450
// A fragment shader to step through (Debugging/fragment.test).
layout(location = 0) out vec4 color;
void main() {
  vec2 p = gl_FragCoord.xy / 4.0;
  color = vec4(p, 0.0, 1.0);
  color.b = p.x * p.y;
}
