#version 450
// A kernel to step through in a debugger (README, docs/debugging.md):
// locals, a helper function with a loop, a named buffer block, shared
// memory and a barrier.
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; } data;
shared uint tile[8];

uint collatz(uint n) {
  uint steps = 0;
  while (n != 1) {
    n = (n % 2 == 0) ? n / 2 : 3 * n + 1;
    steps++;
  }
  return steps;
}

void main() {
  uint id = gl_GlobalInvocationID.x;
  uint start = data.values[id];
  uint steps = collatz(start);
  tile[gl_LocalInvocationID.x] = steps;
  barrier();
  uint next = tile[(gl_LocalInvocationID.x + 1) % 8];
  data.values[id] = steps + next;
}
