#version 450
// One invocation of each subgroup (not its first) stores its subgroup's
// sum of inputs plus its local id to the subgroup's slot; the third
// subgroup stores nothing.
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint inputs[]; };
layout(set = 0, binding = 1) buffer Out { uint values[]; };

shared uint slot[4];

void main() {
  uint tid = gl_LocalInvocationID.x;
  if (tid < 4u)
    slot[tid] = 7u;
  barrier();
  uint sum = subgroupAdd(inputs[tid]);
  if (gl_SubgroupInvocationID == 5u && gl_SubgroupID != 2u)
    slot[gl_SubgroupID] = sum + tid;
  barrier();
  if (tid < 4u)
    values[tid] = slot[tid];
}
