#version 450
// 16 MiB of Function variables per invocation: more than any host stack.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { float d[]; };
void main() {
  float big[4000000];
  for (int i = 0; i < 4000000; ++i)
    big[i] = float(i) * d[0];
  d[gl_LocalInvocationIndex] = big[int(d[1])];
}
