#version 450
// Pixels (1, 0) and (60, 61) write one element, unordered.
layout(set = 0, binding = 0) buffer B { uint d[4]; } b;
layout(location = 0) out vec4 colour;
void main() {
  uvec2 p = uvec2(gl_FragCoord.xy);
  if (p == uvec2(1, 0) || p == uvec2(60, 61))
    b.d[0] = p.x;
  colour = vec4(1.0);
}
