#version 450
// The tessellated grid's control points (tools/benchmark.py), passed on.
layout(location = 0) in vec2 position;
layout(location = 0) out vec2 corner;

void main() { corner = position; }
