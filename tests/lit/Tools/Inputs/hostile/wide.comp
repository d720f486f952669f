#version 450
// 1024 invocations: lavapipe's maximum, eight times Vulkan's minimum.
layout(local_size_x = 1024) in;
layout(set = 0, binding = 0) buffer B { uint d[]; };
void main() { d[gl_LocalInvocationIndex] = gl_LocalInvocationIndex; }
