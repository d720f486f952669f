#version 450
// exp and exp2 where their float results round to 0, are subnormal, normal
// or overflow (exp-range.test).
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  v[16 + i] = exp(v[i]);
  v[24 + i] = exp2(v[8 + i]);
}
