#version 450
// Loops until data[0] is zero, which nothing ever makes it: the loop never
// ends for the input the test gives (1).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };

void main() {
  uint i = 0;
  while (data[0] != 0)
    data[1] = ++i;
}
