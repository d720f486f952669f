#version 450
// dst[i] = src[i] * mul + add for i < count.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Push {
  uint mul;
  uint add;
  uint count;
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count)
    dst[i] = src[i] * mul + add;
}
