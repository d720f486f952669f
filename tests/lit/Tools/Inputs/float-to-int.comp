#version 450
// i = int(x): SPIR-V leaves the result undefined when x is NaN or out of
// range. spvbridge saturates (NaN gives 0); lavapipe on x86 gives
// 0x80000000 (cvttss2si's "integer indefinite"), so --compare disagrees.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) buffer Out { int i[]; };
void main() {
  uint g = gl_GlobalInvocationID.x;
  i[g] = int(x[g]);
}
