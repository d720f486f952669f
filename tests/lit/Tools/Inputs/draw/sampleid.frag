#version 450
// Reads gl_SampleID, so it runs once per sample, with its inputs
// interpolated at the sample's location.
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
void main() { color = vec4(uv, float(gl_SampleID), gl_SamplePosition.y); }
