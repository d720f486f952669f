#version 450
// Five storage buffers: one more than Vulkan guarantees per stage.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B0 { uint a; };
layout(set = 0, binding = 1) buffer B1 { uint b; };
layout(set = 0, binding = 2) buffer B2 { uint c; };
layout(set = 0, binding = 3) buffer B3 { uint e; };
layout(set = 0, binding = 4) buffer B4 { uint f; };
void main() { f = a + b + c + e; }
