#version 450
// Sums each workgroup's 8 inputs in shared memory, halving the active
// invocations after each barrier; only invocation 0 writes the sum.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer In { uint x[]; };
layout(set = 0, binding = 1) buffer Out { uint sums[]; };
layout(set = 0, binding = 2) buffer Total { uint total; };
shared uint s[8];
void main() {
  uint i = gl_LocalInvocationIndex;
  s[i] = x[gl_GlobalInvocationID.x];
  barrier();
  for (uint stride = 4; stride > 0; stride /= 2) {
    if (i < stride)
      s[i] += s[i + stride];
    barrier();
  }
  if (i == 0) {
    sums[gl_WorkGroupID.x] = s[0];
    atomicAdd(total, s[0]);
  }
}
