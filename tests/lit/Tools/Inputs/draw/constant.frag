#version 450
layout(set = 0, binding = 0) uniform Colour { vec4 value; } colour;
layout(location = 0) out vec4 color;
void main() { color = colour.value; }
