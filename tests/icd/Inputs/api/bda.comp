#version 450
// Doubles count floats at the address in the push constants
// (GL_EXT_buffer_reference): no descriptor set at all.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats {
  float f[];
};
layout(push_constant) uniform Push {
  Floats data; // offset 0, 8 bytes
  uint count;  // offset 8
};

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < count)
    data.f[i] *= 2.0;
}
