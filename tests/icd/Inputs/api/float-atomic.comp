#version 450
// Every invocation adds 0.5 to one float (GL_EXT_shader_atomic_float).
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Sum { float sum; };

void main() { atomicAdd(sum, 0.5); }
