#version 450
// A subgroup kernel without barriers (debug-invocation-subgroup.test).
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; } data;
void main() {
  uint id = gl_GlobalInvocationID.x;
  uint v = data.values[id];
  uint sum = subgroupAdd(v);
  data.values[id] = sum + id;
}
