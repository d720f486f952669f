#version 450
// GraphicsApiCheck's input-attachments case: one minus the colour the
// previous subpass left at this pixel, alpha 1.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 outColor;

void main() { outColor = vec4(vec3(1.0) - subpassLoad(previous).rgb, 1.0); }
