#version 450
// Outputs stored whole up front (color), in part (partial), in a branch
// (branch) and after an early return (late): only the first is written by
// every invocation that is not terminated.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 partial;
layout(location = 2) out vec4 branch;
layout(location = 3) out vec4 late;
void main() {
  color = vec4(uv, 0.0, 1.0);
  partial.x = uv.x;
  if (uv.y > 0.5)
    branch = vec4(1.0);
  if (uv.x < 0.25)
    return;
  late = vec4(uv, 1.0, 1.0);
}
