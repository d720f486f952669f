#version 450
// A tessellation evaluation shader: the patch's vertices, a per-patch
// input, the levels and gl_TessCoord.
layout(quads, fractional_odd_spacing, cw) in;
layout(location = 0) in vec4 tcsColor[];
layout(location = 1) patch in float scale;
layout(location = 0) out vec4 color;

void main() {
  vec4 low = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
  vec4 high = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
  gl_Position = mix(low, high, gl_TessCoord.y);
  color = tcsColor[0] * scale + vec4(gl_TessLevelOuter[1], gl_TessLevelInner[0], 0, float(gl_PrimitiveID));
}
