#version 450
// A storage image read and written, and a combined image sampler.
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba8ui) uniform readonly uimage2D src;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2D dst;
layout(set = 0, binding = 2) uniform sampler2D tex;
layout(set = 0, binding = 3) buffer Out { float r[4]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  uvec4 c = imageLoad(src, p);
  imageStore(dst, p, uvec4(c.x + c.y * 10u + c.z * 100u + c.w * 1000u));
  r[p.y * 2 + p.x] = textureLod(tex, (vec2(p) + vec2(0.75, 0.5)) / 2.0, 0.0).r;
}
