#version 450
// Stores far outside its buffer: a hardware fault on the CPU.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };

void main() { data[1 << 30] = 1.0; }
