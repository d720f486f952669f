#version 450
#extension GL_EXT_scalar_block_layout : require
// One value from each of the std140, std430 and scalar blocks of the
// conversion layout tests (tests/lit/Conversion/layout.mlir).
layout(local_size_x = 1) in;
struct S { vec2 x; float y; };
layout(std140, binding = 0) uniform U { float a; vec3 b; float c; float d[3]; mat3 m; vec2 e; S s[2]; layout(row_major) mat2x3 rm; } u;
layout(std430, binding = 1) buffer B { float a; vec3 b; float c; float d[3]; mat3 m; vec2 e; S s[2]; layout(row_major) mat2x3 rm; float r[]; } b;
layout(scalar, binding = 2) buffer C { float a; vec3 b; float c; float d[3]; mat3 m; vec2 e; S s[2]; double f; } c;
layout(std430, binding = 3) buffer Out { float v[]; } o;
void main() {
  o.v[0] = u.rm[1][2];
  o.v[1] = b.m[1][2];
  o.v[2] = c.s[1].y;
  o.v[3] = u.d[2];
  o.v[4] = b.r[5];
}
