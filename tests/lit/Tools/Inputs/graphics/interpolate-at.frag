#version 450
// A centroid input read through interpolateAtCentroid; the sample input
// makes a multisampled draw shade each sample.
layout(location = 0) centroid in vec2 uv;
layout(location = 1) sample in float s;
layout(location = 0) out vec4 color;
void main() { color = vec4(interpolateAtCentroid(uv), s, 1.0); }
