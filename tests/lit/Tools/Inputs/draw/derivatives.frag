#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() {
  float f = uv.x * uv.y * 16.0;
  o = vec4(dFdx(f), dFdy(f), dFdxCoarse(f), dFdyCoarse(f));
}
