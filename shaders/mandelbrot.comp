#version 450
// Iteration counts (at most 256) of z = z^2 + c over [-2, 1] x [-1, 1] on a
// 1024 x 512 grid: a loop whose trip count differs between neighbouring
// invocations (tools/benchmark.py). `precise` keeps every implementation
// from fusing multiplies and adds, so the counts are exact.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint counts[]; };

void main() {
  uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  precise float cx = -2.0 + 3.0 * (float(x) / 1024.0);
  precise float cy = -1.0 + 2.0 * (float(y) / 512.0);
  precise float zx = 0.0, zy = 0.0;
  uint i = 0;
  while (i < 256 && zx * zx + zy * zy <= 4.0) {
    precise float t = zx * zx - zy * zy + cx;
    zy = 2.0 * zx * zy + cy;
    zx = t;
    ++i;
  }
  counts[y * 1024 + x] = i;
}
