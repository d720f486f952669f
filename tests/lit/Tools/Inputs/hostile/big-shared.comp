#version 450
// 1 MiB of shared memory: no Vulkan device allows more than 64 KiB.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint d[]; };
shared uint tile[262144];
void main() {
  uint i = gl_LocalInvocationIndex;
  tile[i * 4096u] = i;
  barrier();
  d[i] = tile[(63u - i) * 4096u];
}
