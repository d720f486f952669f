#version 450
// A reduction over shared memory: barriers, a storage buffer, a uniform
// buffer and a push constant.
layout(local_size_x = 64) in;

layout(std430, set = 0, binding = 0) buffer Data { float values[]; } data;
layout(std140, set = 0, binding = 1) uniform Params { float scale; } params;
layout(push_constant) uniform Push { uint offset; } push;

shared float partial[64];

void main() {
  uint i = gl_LocalInvocationIndex;
  partial[i] = data.values[gl_GlobalInvocationID.x + push.offset] * params.scale;
  for (uint stride = 32; stride > 0; stride /= 2) {
    barrier();
    if (i < stride)
      partial[i] += partial[i + stride];
  }
  barrier();
  if (i == 0)
    data.values[gl_WorkGroupID.x] = partial[0];
}
