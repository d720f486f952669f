#version 450
// With every level 1 a quad patch has the tessellation coordinates (0, 0),
// (1, 0), (0, 1) and (1, 1); (1, 0) of patch 1 writes element 4 of a
// 4-element buffer.
layout(quads, equal_spacing, ccw) in;
layout(set = 0, binding = 0) buffer B { uint d[4]; } b;
void main() {
  bool fault = gl_PrimitiveID == 1 && gl_TessCoord.xy == vec2(1.0, 0.0);
  b.d[fault ? 4 : 0] = 1u;
  vec4 low = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
  vec4 high = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
  gl_Position = mix(low, high, gl_TessCoord.y);
}
