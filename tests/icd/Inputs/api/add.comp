#version 450
// v[i] += addend for i < count, atomically: dispatches that overlap (the
// pipeline-statistics case runs two without a barrier) still add up.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
layout(push_constant) uniform Push {
  uint addend;
  uint count;
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count)
    atomicAdd(v[i], addend);
}
