#version 450
// Pixel (3, 2) writes element 4 of a 4-element buffer.
layout(set = 0, binding = 0) buffer B { uint d[4]; } b;
layout(location = 0) out vec4 colour;
void main() {
  uvec2 p = uvec2(gl_FragCoord.xy);
  b.d[p == uvec2(3, 2) ? 4u : p.x] = 1u;
  colour = vec4(1.0);
}
