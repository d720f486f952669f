#version 450
// Region 0 has two exits: a workgroup whose id is `skip` returns before
// the barrier (every invocation of it: uniform), the others wait at it.
// With `divergent` set, invocation 5 of each workgroup returns alone.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Values { uint v[]; };
layout(push_constant) uniform Params { uint skip; uint divergent; } params;

shared uint tmp[64];

void main() {
  uint i = gl_LocalInvocationID.x;
  if (params.skip == gl_WorkGroupID.x || (params.divergent != 0u && i == 5u))
    return;
  tmp[i] = v[gl_GlobalInvocationID.x];
  barrier();
  v[gl_GlobalInvocationID.x] = tmp[63u - i] * 2u;
}
