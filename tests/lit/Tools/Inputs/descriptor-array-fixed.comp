#version 450
// Fixed-size arrays read with constant indices only, which any Vulkan
// device runs (lavapipe in Mesa 22.3 reports no runtimeDescriptorArray and
// no non-uniform indexing): invocation i computes
//   ins[0].v[i] + 10 ins[1].v[i] + 100 ins[2].v[i]
// into outs[0].v[i] for i < 2, outs[1].v[i] otherwise.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } ins[3];
layout(set = 0, binding = 1) buffer Out { uint v[4]; } outs[2];
void main() {
  uint i = gl_LocalInvocationIndex;
  uint value = ins[0].v[i] + 10u * ins[1].v[i] + 100u * ins[2].v[i];
  if (i < 2u)
    outs[0].v[i] = value;
  else
    outs[1].v[i] = value;
}
