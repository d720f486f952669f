//===- KernelFixture.h - GLSL compiled by the JIT for a test ----*- C++ -*-===//
//
// One JitCompiler per test suite, and compileGlsl(), which writes a shader
// to the test's temporary folder and compiles it.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TESTS_E2E_KERNELFIXTURE_H
#define SPVBRIDGE_TESTS_E2E_KERNELFIXTURE_H

#include "../unit/TestUtil.h"

#include "spvbridge/bridge/Kernel.h"

namespace spvb::test {

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
