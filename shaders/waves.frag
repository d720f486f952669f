#version 450
// A full-screen fragment shader with a loop: 96 terms of a Fourier series
// per pixel (tools/benchmark.py draws it at 256x256).
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() {
  vec3 sum = vec3(0.0);
  for (int k = 1; k <= 96; ++k) {
    float f = float(k);
    sum += vec3(sin(f * 6.2831853 * uv.x), cos(f * 6.2831853 * uv.y),
                sin(f * 6.2831853 * (uv.x + uv.y))) / f;
  }
  color = vec4(0.5 + 0.25 * sum, 1.0);
}
