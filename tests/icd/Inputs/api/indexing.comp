#version 450
#extension GL_EXT_nonuniform_qualifier : require
// bufs[e].v[x] += e + 1 for x < count, e the element the push constants name
// for the workgroup's row: a runtime-sized array of storage buffers, only
// some of them written (partially bound, variable count).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; } bufs[];
layout(push_constant) uniform Push {
  uvec4 elements;
  uint count;
};

void main() {
  uint x = gl_GlobalInvocationID.x;
  uint e = elements[gl_WorkGroupID.y];
  if (x < count)
    bufs[nonuniformEXT(e)].v[x] += e + 1;
}
