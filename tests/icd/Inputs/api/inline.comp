#version 450
// v[i] = v[i] * scale + addend for i < count; the parameters come in an
// inline uniform block.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform Params {
  uint scale;
  uint addend;
  uint count;
} params;
layout(set = 0, binding = 1) buffer Data { uint v[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < params.count)
    v[i] = v[i] * params.scale + params.addend;
}
