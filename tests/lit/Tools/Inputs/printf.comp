#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer B { float f[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  debugPrintfEXT("i=%u v=%v3f neg=%d hex=%x pct=%% %5.2f", i, vec3(f[i], 0.5, -2.0), -int(i) - 1, 255u, f[i] * 2.0);
}
