#version 450
// Bool vectors in Function, Private and Workgroup memory, written one
// component at a time and read whole (and the other way round).
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Out { uint o[]; };
bvec3 privateFlags;
shared bvec2 sharedFlags[4];
void main() {
  uint i = gl_LocalInvocationIndex;
  bvec4 v;
  v.x = i != 0;
  v.y = i != 1;
  v.z = i != 2;
  v.w = true;
  uvec4 w = uvec4(v);
  privateFlags = bvec3(i == 1, false, i >= 2);
  privateFlags.y = i == 3;
  sharedFlags[i] = bvec2(i == 2, true);
  uvec3 p = uvec3(privateFlags);
  uvec2 s = uvec2(sharedFlags[i]);
  o[i] = (w.x + w.y + w.z + w.w) * 100 + (p.x + p.y * 2 + p.z * 4) * 10 +
         s.x + s.y * 2;
}
