#version 450
// ggml's mul_mat_vec indexes its vec4 records by element / 4: the lanes'
// record indices are (4 i + offset) / 4, still one record apart.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 records[]; };
layout(set = 0, binding = 1) buffer Out { float sums[]; };
layout(push_constant) uniform Params { uint n; uint offset; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) {
    vec4 r = records[(4u * i + offset) / 4u];
    sums[i] = r.x + 2.0 * r.y + 3.0 * r.z + 4.0 * r.w;
  }
}
