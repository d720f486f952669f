#version 450
// One subgroup instruction of each class the SIMD lanes run, some in a
// divergent branch (subgroup-lanes.test); nothing whose result the
// specification leaves undefined, so that lavapipe must agree. No
// clustered reductions: lavapipe (Mesa 22.3) gives them the whole
// subgroup's total; ExecutionTest checks ours against a reference.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  uint base = (gl_WorkGroupID.x * 64u + l) * 20u;
  uint v = l * 3u + 1u;
  uint down = subgroupShuffleDown(v, 1u);
  r[base + 0] = subgroupAdd(v);
  r[base + 1] = subgroupInclusiveAdd(v);
  r[base + 2] = subgroupExclusiveMul(v | 1u);
  r[base + 3] = subgroupMax(v) ^ subgroupMin(v ^ 5u);
  r[base + 4] = subgroupExclusiveAdd(v) ^ subgroupInclusiveMax(v);
  r[base + 5] = uint(subgroupMin(float(v) * 0.5) * 2.0);
  uvec4 b = subgroupBallot((l & 1u) == 0u);
  r[base + 6] = b.x;
  r[base + 7] = subgroupBallotBitCount(b);
  r[base + 8] = subgroupBallotExclusiveBitCount(b);
  r[base + 9] = subgroupBallotFindMSB(b) + 100u * subgroupBallotFindLSB(b);
  r[base + 10] = subgroupElect() ? 1u : 0u;
  r[base + 11] = subgroupBroadcast(v, 1u);
  r[base + 12] = subgroupShuffleXor(v, 1u);
  r[base + 13] = gl_SubgroupInvocationID + 1u < gl_SubgroupSize ? down : 0u;
  r[base + 14] = subgroupQuadSwapDiagonal(v) + subgroupQuadBroadcast(v, 2u);
  r[base + 15] = subgroupAll(v > 0u) ? 1u : 0u;
  r[base + 16] = subgroupAllEqual(v) ? 1u : 0u;
  r[base + 17] = subgroupInverseBallot(b) ? 1u : 0u;
  r[base + 18] = subgroupShuffle(v, (l * 5u) % gl_SubgroupSize);
  // Only the invocations that take the branch are active in it.
  if (l % 3u == 0u)
    r[base + 19] = subgroupAdd(1u) + 10u * subgroupBroadcastFirst(l) +
                   1000u * (subgroupElect() ? 1u : 0u);
}
