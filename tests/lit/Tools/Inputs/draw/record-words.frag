#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Reads inputs that straddle the words of a blocked fragment record: a
// double (two words), an array indexed at run time, 16-bit components
// inside a word, and an array of 2-byte-aligned structs indexed at run
// time.
struct P { float16_t x; float16_t y; };
layout(location = 0) flat in double d;
layout(location = 1) flat in float a[3];
layout(location = 4) flat in f16vec3 h;
layout(location = 5) flat in int sel;
layout(location = 6) flat in P p[2];
layout(location = 0) out vec4 color;
void main() {
  color = vec4(float(d), a[sel] + float(p[sel - 1].y), float(h.y),
               float(h.z) + float(p[sel - 2].x));
}
