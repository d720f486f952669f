#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void helper() { if (uv.x < 0.5) discard; }
void main() { helper(); color = vec4(uv, dFdx(uv.x), 1.0); }
