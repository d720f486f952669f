#version 450
// Subgroup instructions in control flow the whole workgroup takes: a loop
// whose trip count is uniform, with a barrier inside (as ggml's cumsum),
// and a uniform branch; subgroup-regions.test.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(push_constant) uniform Params {
  uint rounds;
  uint flag;
} p;

void main() {
  uint i = gl_LocalInvocationIndex;
  uint total = 0u;
  for (uint r = 0u; r < p.rounds; ++r) {
    total += subgroupInclusiveAdd(i + r);
    barrier();
  }
  o[i] = total;
  if (p.flag != 0u)
    o[16u + i] = subgroupAdd(i);
}
