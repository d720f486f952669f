#version 450
// int(x) into an r32i storage image and its rgba8 (UNORM) copy: int of NaN or
// of an out-of-range float is undefined, so the backends may differ.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer In { float x[]; };
layout(set = 0, binding = 1, r32i) uniform writeonly iimage2D ints;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D unorm;
void main() {
  int i = int(gl_GlobalInvocationID.x);
  imageStore(ints, ivec2(i, 0), ivec4(int(x[i])));
  imageStore(unorm, ivec2(i, 0), vec4(0.5, 0.25, 1.0, 0.0));
}
