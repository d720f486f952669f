#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { float m; float out_value; };
void main() {
  // m is never written: loops forever unless it starts at 20.
  while (m != 20.0) {
    out_value += 1.0;
  }
}
