// HLSL Texture2D + SamplerState: one texture through separate samplers
// (OpTypeSampler + OpSampledImage), single and in an array.
Texture2D<float4> tex : register(t0);
SamplerState nearestSmp : register(s1);
SamplerState linearSmp : register(s2);
SamplerState modes[2] : register(s3);
RWStructuredBuffer<float4> result : register(u4);

[numthreads(1, 1, 1)]
void main() {
  result[0] = tex.SampleLevel(nearestSmp, float2(0.75, 0.25), 0);
  result[1] = tex.SampleLevel(linearSmp, float2(0.5, 0.5), 0);
  result[2] = tex.SampleLevel(modes[0], float2(1.25, 0.25), 0);
  result[3] = tex.SampleLevel(modes[1], float2(1.25, 0.25), 0);
}
