#version 450
// A rectangle two pixels wide per input point, whose id says the point's
// gl_PointSize: an input of gl_in[] the runtime must fill since it is read.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId;
void main() {
  float x = gl_in[0].gl_Position.x;
  for (int k = 0; k < 4; ++k) {
    gl_Position = vec4(x + 0.5 * float(k & 1), -1.0 + 2.0 * float(k >> 1),
                       0.0, 1.0);
    outId = uint(gl_in[0].gl_PointSize) * 100u + id[0];
    EmitVertex();
  }
}
