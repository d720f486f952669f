#version 450
// Per-workgroup sum through shared memory: one partial sum per workgroup.
layout(local_size_x = 256, local_size_x_id = 0) in;
layout(constant_id = 0) const uint kGroupSize = 256;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) buffer Out { float partial[]; };

shared float scratch[kGroupSize];

void main() {
  uint local = gl_LocalInvocationID.x;
  scratch[local] = data[gl_GlobalInvocationID.x];
  barrier();
  for (uint stride = kGroupSize / 2; stride > 0; stride /= 2) {
    if (local < stride)
      scratch[local] += scratch[local + stride];
    barrier();
  }
  if (local == 0)
    partial[gl_WorkGroupID.x] = scratch[0];
}
