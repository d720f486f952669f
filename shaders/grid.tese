#version 450
// The tessellated grid's vertices under mesh.vert's projection
// (tools/benchmark.py). Clip coordinates are affine in the patch's
// coordinates, so every triangulation of a patch draws the same image.
layout(quads, equal_spacing, ccw) in;
layout(location = 0) in vec2 corner[];
layout(location = 0) out vec2 uv;

void main() {
  vec2 low = mix(corner[0], corner[1], gl_TessCoord.x);
  vec2 high = mix(corner[2], corner[3], gl_TessCoord.x);
  vec2 position = mix(low, high, gl_TessCoord.y);
  float z = 2.0 + 1.5 * position.y;
  gl_Position = vec4(position.x * 1.6, position.y * 1.2 - 0.2, z * 0.2, z);
  gl_Position.xy *= 1.5;
  uv = (position * 0.5 + 0.5) * 4.0;
}
