#version 450
// Every invocation writes the subgroup size it runs with; the workgroup
// size is specialization constant 0.
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint size[]; };

void main() { size[gl_GlobalInvocationID.x] = gl_SubgroupSize; }
