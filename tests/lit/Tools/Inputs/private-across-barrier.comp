#version 450
// A Function array live across a barrier, indexed by a loop counter (as
// ggml's soft_max caches its row) and by the invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float o[]; };
shared float s[64];
void main() {
  uint i = gl_LocalInvocationIndex;
  float cache[8];
  for (uint k = 0; k < 8; ++k)
    cache[k] = float(gl_WorkGroupID.x * 1000 + i * 8 + k);
  s[i] = cache[i % 8];
  barrier();
  float sum = 0.0;
  for (uint k = 0; k < 8; ++k)
    sum += cache[(k + i) % 8] * float(k + 1);
  o[gl_GlobalInvocationID.x] = sum + s[(i + 1) % 64];
}
