#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Invocation i reads ins[i % 3] (a runtime-sized array of buffers) and
// writes outs[i / 2] (an array of 2); ins[2]'s length is added.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } ins[];
layout(set = 0, binding = 1) buffer Out { uint v[4]; } outs[2];
void main() {
  uint i = gl_LocalInvocationIndex;
  outs[i / 2u].v[i] =
      ins[nonuniformEXT(i % 3u)].v[i] * 10u + uint(ins[2].v.length());
}
