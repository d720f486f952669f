#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  o[gl_LocalInvocationIndex] = gl_WorkGroupID.x;
}
