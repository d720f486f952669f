#version 450
// Three control points per patch passed on with their ids; every level 1,
// so each patch is one triangle over its corners.
layout(vertices = 3) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId[];
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  outId[gl_InvocationID] = id[gl_InvocationID];
  barrier();
  uint sum = outId[0] + outId[1] + outId[2];
  float level = sum > 0u ? 1.0 : 0.0;
  gl_TessLevelOuter = float[4](level, level, level, level);
  gl_TessLevelInner = float[2](level, level);
}
