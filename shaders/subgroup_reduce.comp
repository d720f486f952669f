#version 450
// Subgroup arithmetic, votes and ballots as kernels use them: per-subgroup
// sums and maxima (ggml-style reductions), an inclusive scan, a ballot count
// and a broadcast, and a sum inside a data-dependent branch.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) buffer Sums { vec4 f[]; };
layout(set = 0, binding = 2) buffer Counts { uvec4 u[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  float v = x[i];
  bool positive = v > 0.0;
  f[i] = vec4(subgroupAdd(v), subgroupMax(v), subgroupInclusiveAdd(v),
              positive ? subgroupAdd(v) : -1.0);
  uvec4 ballot = subgroupBallot(positive);
  u[i] = uvec4(subgroupBallotBitCount(ballot),
               subgroupBroadcastFirst(floatBitsToUint(v)),
               subgroupAny(v > 99.0) ? 1u : 0u,
               subgroupExclusiveAdd(positive ? 1u : 0u));
}
