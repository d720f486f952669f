#version 450
// GraphicsApiCheck: the vertex's position as given.
layout(location = 0) in vec2 position;

void main() { gl_Position = vec4(position, 0.0, 1.0); }
