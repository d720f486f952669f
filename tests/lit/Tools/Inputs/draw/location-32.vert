#version 450
// An attribute at Location 32: past lavapipe's maxVertexInputAttributes.
layout(location = 32) in vec2 far;
void main() { gl_Position = vec4(far, 0.0, 1.0); }
