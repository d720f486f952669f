#version 450
#extension GL_EXT_demote_to_helper_invocation : require
layout(set = 0, binding = 0) buffer Count { uint writes; } count;
layout(location = 0) out vec4 color;
void main() {
  if (gl_FragCoord.x < 2.0)
    demote;
  atomicAdd(count.writes, 1u);
  color = vec4(helperInvocationEXT() ? 1.0 : 0.5, dFdx(gl_FragCoord.x), 0.0, 1.0);
}
