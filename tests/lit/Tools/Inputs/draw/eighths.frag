#version 450
// Pixel (x, y) gets ((x + 0.5) / 8, (y + 0.5) / 8, 0.25, 1): a distinct
// value in every pixel of an 8-wide row.
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_FragCoord.xy / 8.0, 0.25, 1.0); }
