#version 450
#extension GL_EXT_buffer_reference : require
// Invocation i walks i links from the push constants' head node and
// multiplies the node's value by scale.f[i]; then it writes i + 0.5 to
// scale.f[i] through the pointer.
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
void main() {
  uint i = gl_LocalInvocationIndex;
  Node n = p.head;
  for (uint k = 0u; k < i; ++k)
    n = n.next;
  o[i] = n.value * p.scale.f[i];
  p.scale.f[i] = float(i) + 0.5;
}
