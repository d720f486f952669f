#version 450
// Reads Workgroup memory nothing wrote.
layout(local_size_x = 4) in;
shared uint s[4];
layout(set = 0, binding = 0) buffer R { uint r[4]; };
void main() { r[gl_LocalInvocationID.x] = s[gl_LocalInvocationID.x]; }
