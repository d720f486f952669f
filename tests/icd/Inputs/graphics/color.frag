#version 450
// GraphicsApiCheck: the colour from the push constants.
layout(push_constant) uniform Push { vec4 color; };
layout(location = 0) out vec4 outColor;

void main() { outColor = color; }
