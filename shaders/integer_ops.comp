#version 450
// Integer arithmetic and bit operations whose results SPIR-V defines exactly:
// differential-tested against lavapipe.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uvec4 o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint a = v[i];
  int s = int(a);
  uint d = (a & 0xFFu) + 1u;  // never zero
  o[i] = uvec4(a / d + (a % d) * 3u,
               uint((s >> 3) / int(d)) ^ bitfieldReverse(a),
               bitCount(a) + uint(findMSB(a)) * 64u + uint(findLSB(a | 1u)),
               bitfieldExtract(a, 5, 11) | (bitfieldInsert(a, 7u, 4, 3) << 1));
}
