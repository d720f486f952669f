#version 450
// Invocation i (64 of them) touches v[i] for i < 32 and v[100000 + i]
// beyond that; the descriptor binds 16 elements of v, so invocations 16 and
// up are out of bounds. mode 0 reads v into r (which is bound whole), mode 1
// writes 0xC0DE0000 + i into v.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint v[]; };
layout(set = 0, binding = 1) buffer Result { uint r[]; };
layout(push_constant) uniform Push { uint mode; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint index = i < 32 ? i : 100000u + i;
  if (mode == 0)
    r[i] = v[index];
  else
    v[index] = 0xC0DE0000u + i;
}
