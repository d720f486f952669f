#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer F { float f[4]; };
layout(set = 0, binding = 1) buffer I { int i[4]; };
layout(set = 0, binding = 2) buffer R { uint r[4]; };
void main() {
  uint id = gl_LocalInvocationID.x;
  uint u = uint(i[id]);
#if defined(FTOU)
  r[id] = uint(f[id]);
#elif defined(FTOS)
  r[id] = uint(int(f[id]));
#elif defined(SMOD)
  r[id] = uint(i[id] % i[3 - id]);
#elif defined(UDIV)
  r[id] = u / uint(i[3 - id]);
#elif defined(SHIFT)
  r[id] = u << uint(i[3 - id]);
#elif defined(EXTRACT)
  r[id] = bitfieldExtract(u, i[id], i[3 - id]);
#elif defined(POW)
  r[id] = floatBitsToUint(pow(f[id], f[3 - id]));
#elif defined(SQRT)
  r[id] = floatBitsToUint(sqrt(f[id]));
#elif defined(CLAMP)
  r[id] = floatBitsToUint(clamp(0.5, f[id], f[3 - id]));
#elif defined(INDEX)
  vec4 v = vec4(f[0], f[1], f[2], f[3]);
  r[id] = floatBitsToUint((v + 1.0)[u]);
#elif defined(ARRAY)
  float a[3] = float[3](f[0], f[1], f[2]);
  r[id] = floatBitsToUint(a[u]);
#endif
}
