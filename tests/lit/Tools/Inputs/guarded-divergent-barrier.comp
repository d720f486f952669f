#version 450
// Invocations 0 to 15 wait at the barrier inside the branch, the others at
// the one after it: every invocation must reach each barrier.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint s[64];
void main() {
  uint l = gl_LocalInvocationID.x;
  s[l] = l;
  barrier();
  if (l < 16u) {
    s[l] += s[l + 16u];
    barrier();
  }
  barrier();
  v[l] = s[l];
}
