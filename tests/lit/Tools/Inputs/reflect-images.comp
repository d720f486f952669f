#version 450
#extension GL_EXT_samplerless_texture_functions : require
// The image resources spv-run --reflect describes (reflect.test): storage
// images with and without a format, 3D, array, cube, depth, multisampled,
// 1D, texel buffers of both kinds, a combined image sampler and a separate
// sampler.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) uniform writeonly image2D color;
layout(set = 0, binding = 1, r32i) uniform iimage3D volume;
layout(set = 0, binding = 2) uniform writeonly uimage2DArray layers;
layout(set = 0, binding = 3) uniform samplerCube sky;
layout(set = 0, binding = 4) uniform sampler2DArrayShadow shadow;
layout(set = 0, binding = 5) uniform isamplerBuffer lut;
layout(set = 1, binding = 0, rg16f) uniform readonly imageBuffer texels;
layout(set = 1, binding = 1) uniform texture2DMS ms;
layout(set = 1, binding = 2) uniform sampler smp;
layout(set = 1, binding = 3) uniform texture1D line;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 c = textureLod(sky, vec3(p, 1), 0.0) + imageLoad(texels, p.x) +
           texelFetch(ms, p, 0) + texelFetch(line, p.x, 0) +
           textureGrad(shadow, vec4(p, 0, 0.5), vec2(0), vec2(0)) +
           textureLod(sampler1D(line, smp), 0.5, 0.0);
  imageStore(color, p, c);
  imageAtomicAdd(volume, ivec3(p, 0), texelFetch(lut, p.x).x);
  imageStore(layers, ivec3(p, 1), uvec4(c));
}
