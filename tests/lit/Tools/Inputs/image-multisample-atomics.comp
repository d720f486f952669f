#version 450
// Image atomics on samples of a multisampled image (OpImageTexelPointer
// with a Sample operand); sample 7 is past the count.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS img;
void main() {
  int i = int(gl_LocalInvocationID.x);
  imageAtomicAdd(img, ivec2(i % 2, 0), i / 2 + 2 * (i % 2), uint(1 + i));
  imageAtomicAdd(img, ivec2(0, 0), 7, 100u);
}
