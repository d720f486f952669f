#version 450
// interpolateAtOffset and interpolateAtSample of a perspective input.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(interpolateAtOffset(uv, vec2(0.25, -0.125)), interpolateAtSample(uv, 3).x, 1.0); }
