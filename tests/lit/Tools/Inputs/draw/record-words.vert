#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Inputs of every width a fragment record holds, the same at every vertex.
layout(location = 0) in vec2 position;
struct P { float16_t x; float16_t y; };
layout(location = 0) flat out double d;
layout(location = 1) flat out float a[3];
layout(location = 4) flat out f16vec3 h;
layout(location = 5) flat out int sel;
layout(location = 6) flat out P p[2];
void main() {
  gl_Position = vec4(position, 0.0, 1.0);
  d = double(1) / double(3);
  a = float[3](0.25, 0.5, 0.75);
  h = f16vec3(0.125, 0.375, 0.625);
  sel = 2;
  p[0] = P(float16_t(1.5), float16_t(2.5));
  p[1] = P(float16_t(3.5), float16_t(4.5));
}
