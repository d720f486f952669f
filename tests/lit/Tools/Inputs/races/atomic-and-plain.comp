#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer Counter { uint count; uint seen[]; };
void main() {
  atomicAdd(count, 1);
  seen[gl_LocalInvocationIndex] = count;
}
