#version 450
// Quads over the patch's corners (0, 1, 3, 2 as a strip gives them);
// each vertex carries the patch's id sum plus 1000 x gl_PrimitiveID.
layout(quads, equal_spacing, cw) in;
layout(location = 0) flat in uint outId[];
layout(location = 1) patch in uint first;
layout(location = 0) flat out uint id;
void main() {
  vec4 low = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
  vec4 high = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
  gl_Position = mix(low, high, gl_TessCoord.y);
  id = first + 1000u * uint(gl_PrimitiveID) + outId[3] - outId[3];
}
