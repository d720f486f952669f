#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  uint acc = 0u;
  for (uint i = 0u; i < l % 4u; ++i)
    acc += subgroupAdd(1u);
  r[l * 2u] = acc;
  r[l * 2u + 1u] = subgroupAdd(acc);
}
