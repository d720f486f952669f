// HLSL compute shader: [numthreads] becomes LocalSize, the RWStructuredBuffer
// a storage buffer at (space0, u0).
RWStructuredBuffer<uint> output : register(u0);

[numthreads(4, 2, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  output[id.x] = id.y * 7;
}

[numthreads(8, 8, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
  output[id.x + id.y * 8] = 1;
}
