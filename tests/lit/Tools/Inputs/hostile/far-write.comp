#version 450
// A stride gone wrong: invocation i writes element i * 4000000 of a 256-byte
// buffer; invocation 1 writes byte 16000000.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint d[]; } b;
void main() { b.d[gl_GlobalInvocationID.x * 4000000u] = 7u; }
