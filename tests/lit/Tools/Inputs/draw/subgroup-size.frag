#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(location = 0) out uint result;
void main() { result = gl_SubgroupSize; }
