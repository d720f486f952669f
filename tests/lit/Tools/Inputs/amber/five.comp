#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() { o[0] = 5; }
