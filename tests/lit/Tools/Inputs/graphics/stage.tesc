#version 450
// A tessellation control shader: per-vertex inputs (gl_in[], color[], sized
// gl_MaxPatchVertices = 32) and outputs (gl_out[], tcsColor[], 4 of them),
// a per-patch output, the levels; invocations meet at a barrier.
layout(vertices = 4) out;
layout(location = 0) in vec4 color[];
layout(location = 0) out vec4 tcsColor[];
layout(location = 1) patch out float scale;

void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  tcsColor[gl_InvocationID] = color[gl_InvocationID];
  barrier();
  if (gl_InvocationID == 0) {
    scale = float(gl_PatchVerticesIn + gl_PrimitiveID);
    gl_TessLevelOuter = float[4](2.0, 3.0, 4.0, 5.0);
    gl_TessLevelInner = float[2](tcsColor[3].x, 1.0);
  }
}
