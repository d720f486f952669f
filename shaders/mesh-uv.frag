#version 450
// The textured mesh's fragment shader without its texture
// (tools/benchmark.py): what a draw costs besides sampling.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() { color = vec4(fract(uv), 0.5, 1.0); }
