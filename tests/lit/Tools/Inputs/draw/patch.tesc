#version 450
// Four control points per patch, passed on with their ids; the levels
// come from the patch's first id, so two patches tessellate differently.
layout(vertices = 4) out;
layout(location = 0) flat in uint id[];
layout(location = 0) flat out uint outId[];
layout(location = 1) patch out uint first;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  outId[gl_InvocationID] = id[gl_InvocationID];
  barrier();
  if (gl_InvocationID == 0) {
    // Every invocation's output is there after the barrier.
    first = outId[0] + outId[1] + outId[2] + outId[3];
    float level = first > 100u ? 3.0 : 1.0;
    gl_TessLevelOuter = float[4](level, 2.0, level, 1.0);
    gl_TessLevelInner = float[2](level, 2.0);
  }
}
