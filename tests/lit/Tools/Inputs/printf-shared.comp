#version 450
#extension GL_EXT_debug_printf : require
// No barrier: the workgroup entry runs the invocations in a loop on its own
// copy of the invocation block, which printf passes to the runtime.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
shared uint s[4];
void main() {
  uint i = gl_LocalInvocationIndex;
  s[i] = 10 * i;
  debugPrintfEXT("s[%u] = %u", i, s[i]);
  o[i] = s[i] + 1;
}
