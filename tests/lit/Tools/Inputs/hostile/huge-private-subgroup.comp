#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
// The same on fibers (subgroup operations run there): 1.6 MB per invocation.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { float d[]; };
void main() {
  float big[400000];
  for (int i = 0; i < 400000; ++i)
    big[i] = float(i) * d[0];
  d[gl_LocalInvocationIndex] = subgroupAdd(big[int(d[1])]);
}
