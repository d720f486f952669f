#version 450
// Each workgroup takes the next slot of a counter and writes its id there:
// no race, but which id lands in which slot depends on the order workgroups
// run in.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint counter; uint slots[4]; };
void main() {
  uint slot = atomicAdd(counter, 1u);
  slots[slot] = gl_WorkGroupID.x;
}
