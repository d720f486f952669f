#version 450
// An index that went negative: element -2000 is 8000 bytes before the start.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { int d[]; };
void main() { d[d[0]] = 1; }
