#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
// Invocation i walks i links from the push constants' head node and
// multiplies the node's value by scale.f[i]; then it writes i + 0.5 to
// scale.f[i] through the pointer. Invocation 0 also stores the address of
// the second node as a uvec2.
layout(local_size_x = 4) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430) buffer Node {
  float value;
  uint pad;
  Node next;
};
layout(buffer_reference, std430) buffer Floats { float f[]; };
layout(push_constant) uniform P {
  Node head;
  Floats scale;
} p;
layout(set = 0, binding = 0) buffer Out { float o[]; };
layout(set = 0, binding = 1) buffer Link { uvec2 second; };
void main() {
  uint i = gl_LocalInvocationIndex;
  Node n = p.head;
  for (uint k = 0u; k < i; ++k)
    n = n.next;
  o[i] = n.value * p.scale.f[i];
  p.scale.f[i] = float(i) + 0.5;
  if (i == 0u)
    second = uvec2(p.head.next);
}
