#version 450
// Counts n loop iterations. lavapipe (Mesa 22.3) ends loops after 65535
// iterations (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS): with n = 100000 the
// CPU counts 100000 and lavapipe 65535 (see docs/differential.md).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint n; uint count; };
void main() {
  uint c = 0;
  for (uint i = 0; i < n; i++)
    c += 1;
  count = c;
}
