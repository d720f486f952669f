#version 450
layout(local_size_x = 1) in;
layout(constant_id = 3) const uint COUNT = 4u;
layout(constant_id = 5) const float RATIO = 0.5;
layout(std430, binding = 0) buffer B { float v[]; } b;
void main() { b.v[COUNT] = RATIO; }
