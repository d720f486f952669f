#version 450
// GraphicsApiCheck: the vertex's position as given, at the push constants'
// depth.
layout(location = 0) in vec2 position;
layout(push_constant) uniform Push { layout(offset = 16) float depth; };

void main() { gl_Position = vec4(position, depth, 1.0); }
