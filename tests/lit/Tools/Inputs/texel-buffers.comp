#version 450
// A uniform and a storage texel buffer, and a layered, mipmapped storage image.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) uniform samplerBuffer src;
layout(set = 0, binding = 1, r32f) uniform writeonly imageBuffer dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2DArray arr;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  imageStore(dst, i, vec4(texelFetch(src, i).x * 2.0));
  ivec3 p = ivec3(i & 1, 0, i >> 1);
  imageStore(arr, p, imageLoad(arr, p) + uvec4(10));
}
