#version 450
// --check-nan (check-nan.test): log(0) is -inf, x / 0 is inf.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { float x[]; };
layout(set = 0, binding = 1) buffer Out { float y[]; };
void main() {
  uint i = gl_LocalInvocationID.x;
  float a = x[i] * 2.0;
  float b = log(a);
  y[i] = b / (a - 4.0);
}
