#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_FragCoord.xy, 0.0, 1.0); }
