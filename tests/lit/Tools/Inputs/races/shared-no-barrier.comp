#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint s[4];
void main() {
  uint i = gl_LocalInvocationIndex;
  s[i] = i + 1;
#ifdef WITH_BARRIER
  barrier();
#endif
  o[gl_GlobalInvocationID.x] = s[3 - i];
}
