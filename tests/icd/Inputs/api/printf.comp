#version 450
#extension GL_EXT_debug_printf : require
// Invocation i prints "i=<i> twice=<2 i>".
layout(local_size_x = 3) in;

void main() {
  uint i = gl_GlobalInvocationID.x;
  debugPrintfEXT("i=%u twice=%u", i, 2 * i);
}
