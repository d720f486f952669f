#version 450
// Per-workgroup sum of 256 floats with subgroupAdd, the subgroups' sums
// added through shared memory: ggml's reductions in miniature
// (tools/benchmark.py). The result does not depend on the subgroup size.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) buffer Out { float partial[]; };

shared float sums[256];

void main() {
  float sum = subgroupAdd(data[gl_GlobalInvocationID.x]);
  if (subgroupElect())
    sums[gl_SubgroupID] = sum;
  barrier();
  if (gl_LocalInvocationID.x == 0) {
    float total = 0.0;
    for (uint i = 0; i < gl_NumSubgroups; ++i)
      total += sums[i];
    partial[gl_WorkGroupID.x] = total;
  }
}
