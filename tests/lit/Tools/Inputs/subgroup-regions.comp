#version 450
// Subgroup instructions every invocation reaches once (region loops) and
// one inside a branch (fibers); subgroup-regions.test.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(constant_id = 0) const bool kDivergent = false;

void main() {
  uint i = gl_LocalInvocationIndex;
  if (kDivergent) {
    if (i % 2 == 0)
      o[i] = subgroupAdd(i);
    return;
  }
  o[3 * i] = subgroupInclusiveAdd(1u);
  o[3 * i + 1] = subgroupAdd(i);
  o[3 * i + 2] = subgroupBroadcastFirst(i);
}
