#version 450
// textureLod of a mipmapped combined image sampler: three fixed samples
// (invocations 0-2) and a spread of coordinates and LODs (the rest).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { float r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec2 uv = vec2(float(i) * 0.37 - 1.3, float(i) * 0.23 - 0.7);
  float lod = float(i % 7u) * 0.4 - 0.3;
  if (i == 0u) {
    uv = vec2(0.25, 0.25);
    lod = 1.5;
  } else if (i == 1u) {
    uv = vec2(1.25, 0.25);
    lod = 1.5;
  } else if (i == 2u) {
    uv = vec2(0.0, 0.25);
    lod = 1.0;
  }
  r[i] = textureLod(tex, uv, lod).r;
}
