// Compiles a saxpy shader from GLSL source text, runs it on 1000 elements and
// checks the result against a plain loop.
#include "spvbridge/bridge/Kernel.h"

#include <cstdio>
#include <cstring>

int main() {
  const char *source = R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = p.a * x[i] + y[i];
}
)";
  llvm::Expected<spvb::SpirvBinary> binary = spvb::compileGlsl(
      source, "embedded.comp", spvb::ShaderStage::Compute, {});
  if (!binary) {
    std::fprintf(stderr, "%s\n", llvm::toString(binary.takeError()).c_str());
    return 1;
  }
  auto jit = llvm::cantFail(spvb::JitCompiler::create());
  auto kernel = jit->compile(*binary, {});
  if (!kernel) {
    std::fprintf(stderr, "%s\n", llvm::toString(kernel.takeError()).c_str());
    return 1;
  }
  const uint32_t n = 1000;
  std::vector<float> x(n), y(n), expected(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
    expected[i] = 0.5f * x[i] + 1.0f;
  }
  spvb::Dispatch dispatch(*kernel);
  dispatch.bindBuffer(0, 0, x.data(), n * 4);
  dispatch.bindBuffer(0, 1, y.data(), n * 4);
  uint8_t push[8];
  float a = 0.5f;
  std::memcpy(push, &a, 4);
  std::memcpy(push + 4, &n, 4);
  dispatch.setPushConstants(push);
  spvb::runtime::Launcher launcher;
  if (llvm::Error error = dispatch.run(launcher, {(n + 63) / 64, 1, 1})) {
    std::fprintf(stderr, "%s\n", llvm::toString(std::move(error)).c_str());
    return 1;
  }
  if (y != expected) {
    std::fprintf(stderr, "wrong result\n");
    return 1;
  }
  std::printf("embed_saxpy: 1000 values match the reference loop\n");
  return 0;
}
