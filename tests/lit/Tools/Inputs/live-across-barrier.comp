#version 450
// One value from a storage buffer lives across the barrier; the local index
// and the buffer and shared-memory addresses are recomputed after it.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint s[8];
void main() {
  uint li = gl_LocalInvocationIndex;
  uint x = v[li] * 3u;
  s[li] = x;
  barrier();
  v[li] = x + s[7u - li];
}
