#version 450
// A multisampled sampled image (texelFetch with a sample) and a layered
// multisampled storage image (image2DMSArray).
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) uniform usampler2DMS tex;
layout(set = 0, binding = 1, r32ui) uniform readonly uimage2DMSArray layered;
layout(set = 0, binding = 2) buffer Out { uint r[8]; };
void main() {
  int x = int(gl_LocalInvocationID.x);
  r[x] = texelFetch(tex, ivec2(x, 0), 1).x;
  r[2 + x] = uint(textureSamples(tex));
  r[4 + x] = imageLoad(layered, ivec3(x, 0, 1), 1).x;
  r[6 + x] = uint(imageSize(layered).z);
}
