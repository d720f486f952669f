#version 450
// Atomics on workgroup memory, which one host thread runs (plain accesses
// after SingleThreadAtomicsPass), beside one on a buffer (a locked one).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out {
  uint total;
  uint bins[3];
  uint highest;
  uint swapped;
  uint tickets[];
};
shared uint count;
shared uint sharedBins[3];
shared uint sharedMax;
shared uint flag;
void main() {
  uint i = gl_LocalInvocationIndex;
  if (i == 0) {
    count = 0u;
    sharedBins[0] = 0u;
    sharedBins[1] = 0u;
    sharedBins[2] = 0u;
    sharedMax = 0u;
    flag = 0u;
  }
  barrier();
  uint ticket = atomicAdd(count, 1u);
  atomicAdd(sharedBins[i % 3u], i);
  atomicMax(sharedMax, (i * 37u) % 64u);
  atomicCompSwap(flag, 0u, i + 1u);
  barrier();
  tickets[gl_GlobalInvocationID.x] = ticket;
  if (i < 3u)
    atomicAdd(bins[i], sharedBins[i]);
  if (i == 0u) {
    atomicAdd(total, count);
    atomicMax(highest, sharedMax);
    atomicAdd(swapped, flag == 0u ? 0u : 1u);
  }
}
