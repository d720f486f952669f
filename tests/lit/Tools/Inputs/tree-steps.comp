#version 450
// A tree reduction whose steps halve a shift's recurrence (s >>= 1), as
// ggml's rms_norm and soft_max write it, beside one whose step count comes
// from a push constant.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float data[]; };
layout(set = 0, binding = 1) buffer Out { float sums[]; };
layout(push_constant) uniform Params { uint steps; };

shared float partial[64];

void main() {
  uint tid = gl_LocalInvocationID.x;
  partial[tid] = data[gl_GlobalInvocationID.x];
  barrier();
  for (uint s = 32; s > 0; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    barrier();
  }
  float total = partial[0];
  barrier();
  // Doubles the total `steps` times, one barrier each.
  for (uint i = 0; i < steps; ++i) {
    if (tid == 0)
      partial[0] += partial[0];
    barrier();
  }
  if (tid == 0)
    sums[gl_WorkGroupID.x * 2] = total;
  if (tid == 0)
    sums[gl_WorkGroupID.x * 2 + 1] = partial[0];
}
