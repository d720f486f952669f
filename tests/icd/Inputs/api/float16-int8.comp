#version 450
// 8-bit and 16-bit storage with int8 and float16 arithmetic.
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Bytes { uint8_t b[]; };
layout(set = 0, binding = 1) readonly buffer Halves { float16_t h[]; };
layout(set = 0, binding = 2) writeonly buffer ByteOut { uint8_t bOut[]; };
layout(set = 0, binding = 3) writeonly buffer HalfOut { float16_t hOut[]; };
layout(set = 0, binding = 4) writeonly buffer FloatOut { float fOut[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  bOut[i] = b[i] * uint8_t(3) + uint8_t(7); // wraps modulo 256
  hOut[i] = h[i] * float16_t(2.0) + float16_t(0.5);
  fOut[i] = float(h[i]) * float(b[i]);
}
