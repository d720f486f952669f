// HLSL compute to step through (Debugging/hlsl.test): 2x + 1.
RWStructuredBuffer<float> values : register(u0);

float twice(float x) {
  float y = x * 2.0;
  return y;
}

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  float v = values[id.x];
  values[id.x] = twice(v) + 1.0;
}
