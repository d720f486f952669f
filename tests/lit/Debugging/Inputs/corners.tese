#version 450
// The patch's triangle: each corner takes its control point's position
// and id.
layout(triangles, equal_spacing, ccw) in;
layout(location = 0) flat in uint outId[];
layout(location = 0) flat out uint id;
void main() {
  vec3 c = gl_TessCoord;
  gl_Position = c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position +
                c.z * gl_in[2].gl_Position;
  id = uint(c.x) * outId[0] + uint(c.y) * outId[1] + uint(c.z) * outId[2];
}
