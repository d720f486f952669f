#version 450
// imgs[1] = 2 * imgs[0] + x at each texel of a 2x2 image.
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0, r32f) uniform image2D imgs[2];
void main() {
  ivec2 p = ivec2(gl_LocalInvocationID.xy);
  float a = imageLoad(imgs[0], p).x;
  imageStore(imgs[1], p, vec4(a * 2.0 + float(p.x)));
}
