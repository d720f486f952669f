#version 450
// Each invocation writes its workgroup id, the workgroup count and its
// local index to the record of its global id (row-major in a grid of
// `width` invocations): a dispatch with a base workgroup fills only the
// records of the workgroups it covers.
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer Records { uvec4 r[]; };
layout(push_constant) uniform Push { uint width; };

void main() {
  uint i = 2 * (gl_GlobalInvocationID.y * width + gl_GlobalInvocationID.x);
  r[i] = uvec4(gl_WorkGroupID, gl_LocalInvocationIndex);
  r[i + 1] = uvec4(gl_NumWorkGroups, 1);
}
