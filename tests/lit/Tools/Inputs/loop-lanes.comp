#version 450
// Addresses that loops carry. `at` and `a` step one element per lane (a
// line); `w` is one per row of the workgroup, shared by a chunk's lanes,
// through two nested loops of uniform trip counts; the lanes at a chunk's
// ends skip the loop of `a` and `c` (one per row) after its first run;
// each lane leaves the loop of `j` after its own count of iterations (more
// in the middle lanes); `r` starts shared by a chunk's lanes, then steps
// by each lane's own amount; `b` is one of two lines, chosen lane by lane
// (the ends take the first).
layout(local_size_x = 16, local_size_y = 2) in;
layout(set = 0, binding = 0) readonly buffer In { float x[]; };
layout(set = 0, binding = 1) readonly buffer Weights { float weights[]; };
layout(set = 0, binding = 2) writeonly buffer Out { float y[]; };
layout(push_constant) uniform Sizes { uint n, steps, inner; } p;

void main() {
  uint i = gl_GlobalInvocationID.x;
  uint row = gl_GlobalInvocationID.y;
  if (i >= p.n)
    return;
  bool end = i % 16 == 0 || i % 16 == 15;
  float sum = 0.0, skipped = 0.0;
  uint at = i;
  uint w = row * p.steps * p.inner;
  for (uint s = 0; s < p.steps; ++s) {
    for (uint k = 0; k < p.inner; ++k) {
      sum += x[at + k] * weights[w];
      ++w;
    }
    if (s == 0 || !end) {
      uint a = at, c = row * 8;
      for (uint k = 0; k < p.inner; ++k) {
        skipped += x[a] * weights[c];
        a += 2;
        ++c;
      }
    }
    at += p.n;
  }
  uint r = row;
  float spread = 0.0;
  for (uint k = 0; k < p.inner; ++k) {
    spread += weights[r];
    r += i;
  }
  uint b;
  if (x[i + 1] > 5.0 || end) {
    b = i;
    for (uint k = 0; k < p.inner; ++k)
      spread += x[b + k];
  } else {
    b = i + p.n;
  }
  spread += 1000.0 * x[b];
  uint j = i;
  while (x[j] < 0.0)
    j += p.n;
  uint at4 = 4 * (row * p.n + i);
  y[at4] = sum;
  y[at4 + 1] = skipped;
  y[at4 + 2] = x[j + 1];
  y[at4 + 3] = spread;
}
