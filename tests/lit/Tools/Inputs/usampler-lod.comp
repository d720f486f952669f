#version 450
// One texel of an integer combined image sampler.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform usampler2D tex;
layout(set = 0, binding = 1) buffer Out { uint r[]; };
void main() { r[0] = textureLod(tex, vec2(0.5), 0.0).x; }
