#version 450
// Writes its interpolated input: spv-run's full-screen vertex shader gives
// Location 0 the values (u, v) with (0, 0) at the top-left corner.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(uv, 0.25, 1.0); }
