#version 450
layout(quads, fractional_odd_spacing, cw) in;
layout(location = 0) out vec2 where;
void main() {
  vec4 low = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
  vec4 high = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
  gl_Position = mix(low, high, gl_TessCoord.y);
  where = gl_TessCoord.xy;
}
