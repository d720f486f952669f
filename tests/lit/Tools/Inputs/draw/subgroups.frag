#version 450
#extension GL_KHR_shader_subgroup_ballot : require
// What a fragment's subgroup holds: its size, how many of its invocations
// cover a pixel, the invocation's index in it, and how many are active.
layout(location = 0) out uvec4 result;
void main() {
  uvec4 covered = subgroupBallot(!gl_HelperInvocation);
  result = uvec4(gl_SubgroupSize, subgroupBallotBitCount(covered),
                 gl_SubgroupInvocationID,
                 subgroupBallotBitCount(subgroupBallot(true)));
}
