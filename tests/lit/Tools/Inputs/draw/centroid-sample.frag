#version 450
// A centroid input in a shader that runs per sample (its sample input).
layout(location = 0) centroid in vec2 uv;
layout(location = 1) sample in float s;
layout(location = 0) out vec4 color;
void main() { color = vec4(uv, s, 1.0); }
