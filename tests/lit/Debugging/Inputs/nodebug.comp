#version 450
// Compiled without -g in disassembly*.test: gdb steps through its
// disassembly.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Values { uint v[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  v[i] = v[i] + i * 10u;
}
