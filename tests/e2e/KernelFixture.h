//===- KernelFixture.h - GLSL compiled by the JIT for a test ----*- C++ -*-===//
//
// One JitCompiler per test suite, and compileGlsl(), which writes a shader
// to the test's temporary folder and compiles it.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TESTS_E2E_KERNELFIXTURE_H
#define SPVBRIDGE_TESTS_E2E_KERNELFIXTURE_H

#include "TestUtil.h"

#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

namespace spvb::test {

/// A single-sampled 2D image of one layer over the `bytes` bytes at
/// `data`: `width` x `height` texels of the SPIR-V ImageFormat `format` at
/// level 0, `levels` levels in all.
inline spvb_image makeImage2D(const void *data, uint64_t bytes, uint32_t format,
                              uint32_t width, uint32_t height,
                              uint32_t levels = 1,
                              const spvb_sampler *sampler = nullptr) {
  spvb_image image{};
  image.data = static_cast<uint8_t *>(const_cast<void *>(data));
  image.size = bytes;
  image.format = format;
  image.dim = spv::Dim2D;
  image.extent[0] = width;
  image.extent[1] = height;
  image.extent[2] = 1;
  image.layers = image.samples = 1;
  image.levels = levels;
  image.sampler = sampler;
  return image;
}

class KernelFixture : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    jit = llvm::cantFail(JitCompiler::create()).release();
  }
  static void TearDownTestSuite() {
    delete jit;
    jit = nullptr;
  }

  /// `extension` names the stage: ".comp", ".vert" or ".frag".
  std::shared_ptr<const Kernel>
  compileGlsl(llvm::StringRef source, const CompileOptions &options,
              llvm::StringRef extension = ".comp") {
    std::string path =
        dir.write("shader" + std::to_string(count++) + extension.str(), source);
    auto kernel = jit->compileFile(path, options);
    EXPECT_TRUE(static_cast<bool>(kernel)) << errorText(kernel.takeError());
    return kernel ? *kernel : nullptr;
  }

  static inline JitCompiler *jit = nullptr;
  TempDir dir;
  int count = 0;
};

} // namespace spvb::test

#endif // SPVBRIDGE_TESTS_E2E_KERNELFIXTURE_H
