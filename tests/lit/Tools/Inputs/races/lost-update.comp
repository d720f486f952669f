#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
  count += 1;
}
