#version 450
#extension GL_EXT_multiview : require
layout(location = 0) out vec4 color;
void main() { color = vec4(float(gl_ViewIndex)); }
