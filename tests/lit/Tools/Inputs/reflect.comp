#version 450
// The interface spv-run --reflect describes (reflect.test): a spec-constant
// workgroup width, spec constants of four types, std430 and std140 blocks
// with padding and runtime arrays, push constants, shared memory, a barrier
// and an atomic.
layout(local_size_x_id = 3, local_size_y = 2) in;
layout(constant_id = 3) const uint WIDTH = 16;
layout(constant_id = 5) const float SCALE = -1.5;
layout(constant_id = 7) const bool FLAG = true;
layout(constant_id = 9) const int OFFSET = -4;

struct Item {
  vec3 p;
  float w;
};

layout(std430, set = 0, binding = 0) buffer Data {
  uint count;
  Item items[];
} data;
layout(std140, set = 0, binding = 1) uniform Params {
  float s;
  vec2 v;
  mat2 m;
} params;
layout(std430, set = 1, binding = 2) readonly buffer In {
  float x[4];
  ivec2 y[];
};
layout(push_constant) uniform PC {
  uint n;
  int k;
} pc;

shared float tile[32];

void main() {
  uint i = gl_GlobalInvocationID.x;
  tile[gl_LocalInvocationIndex] = x[i % 4] * SCALE;
  barrier();
  if (i < pc.n && FLAG) {
    data.items[i] = Item(vec3(tile[0], params.s, params.v.x),
                         float(y[i].x + OFFSET + pc.k) + params.m[1][0]);
    atomicAdd(data.count, 1u);
  }
}
