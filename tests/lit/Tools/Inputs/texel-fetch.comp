#version 450
#extension GL_EXT_samplerless_texture_functions : require
// A separate sampled image (no sampler, as HLSL's Texture2D.Load): fetches
// from two levels and a level-count query.
layout(local_size_x = 2, local_size_y = 2) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) buffer Out { float r[5]; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  r[p.y * 2 + p.x] = texelFetch(tex, p, 0).r + texelFetch(tex, ivec2(0), 1).r;
  if (p == ivec2(0))
    r[4] = float(textureQueryLevels(tex));
}
