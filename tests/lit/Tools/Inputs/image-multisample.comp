#version 450
// Multisampled storage images (shaderStorageImageMultisample): every sample
// of dst is written from src's samples, read back with imageLoad, and
// samples past the count are read (zero) and written (dropped).
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2DMS src;
layout(set = 0, binding = 1, r32ui) uniform uimage2DMS dst;
layout(set = 0, binding = 2) buffer Out { uint r[12]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  int i = p.y * 2 + p.x;
  int n = imageSamples(dst);
  for (int s = 0; s < n; ++s)
    imageStore(dst, p, s,
               uvec4(imageLoad(src, p, s % imageSamples(src)).x * 10u +
                     uint(s)));
  imageStore(dst, p, n, uvec4(999u));
  imageStore(dst, p, -1, uvec4(999u));
  r[i] = imageLoad(dst, p, n - 1).x;
  r[4 + i] = imageLoad(dst, p, n).x + imageLoad(src, p, -1).x;
  if (i == 0) {
    r[8] = uint(imageSamples(src));
    r[9] = uint(n);
    r[10] = uint(imageSize(dst).x);
    r[11] = uint(imageSize(dst).y);
  }
}
