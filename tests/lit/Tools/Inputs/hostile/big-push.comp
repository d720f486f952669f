#version 450
// 256 bytes of push constants; every device allows 128, lavapipe too.
layout(local_size_x = 1) in;
layout(push_constant) uniform P { vec4 v[16]; } p;
layout(set = 0, binding = 0) buffer B { vec4 d[]; };
void main() { d[0] = p.v[15]; }
