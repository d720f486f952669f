#version 450
// Two strips of two triangles per input point, the first ended by
// EndPrimitive; then a ninth vertex past max_vertices, which is undefined:
// spvbridge drops it (it would add a triangle to the second strip).
layout(points) in;
layout(triangle_strip, max_vertices = 8) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId;
void main() {
  float x = gl_in[0].gl_Position.x;
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < 4; ++k) {
      gl_Position = vec4(x + 0.1 * float(k & 1),
                         -1.0 + float(s) + float(k >> 1), 0.0, 1.0);
      outId = id[0] + 1000u * uint(s);
      EmitVertex();
    }
    if (s == 0)
      EndPrimitive();
  }
  gl_Position = vec4(x + 0.05, 1.0, 0.0, 1.0);
  EmitVertex();
}
