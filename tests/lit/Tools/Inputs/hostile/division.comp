#version 450
// INT_MIN / -1 and x / 0: undefined results in SPIR-V, traps on x86's idiv.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { int d[]; };
void main() {
  d[2] = d[0] / d[1];
  d[3] = d[0] % d[1];
  d[4] = d[0] / d[5];
  d[6] = d[0] % d[5];
}
