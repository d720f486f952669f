//===- CompileWarmupTest.cpp - A JIT's first compile, prepared early ------===//
//
// A new JitCompiler prepares its first compile on a second thread (an MLIR
// context, a target machine at the default level, then a small loop through
// LLVM's optimizer and code generator). Its first compile takes them, at
// that level or another, with the loop's compile still running or without
// it (SPVBRIDGE_COMPILE_WARMUP=off); a compiler destroyed before it
// compiles stops the thread. Results are checked against a reference loop.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "spvbridge/bridge/CompileWarmup.h"
#include "spvbridge/bridge/Kernel.h"
#include "spvbridge/cpu_runtime/Launcher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

using namespace spvb;
using namespace spvb::test;

namespace {

const char *const kSaxpy = R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  y[i] = 3.0 * x[i] + y[i];
}
)";

/// Runs kSaxpy compiled first by a new compiler at `level` and checks it
/// against a loop.
void expectFirstCompileRuns(OptLevel level, bool debuggable) {
  TempDir dir;
  std::string path = dir.write("saxpy.comp", kSaxpy);
  auto jit = JitCompiler::create(debuggable);
  ASSERT_TRUE(static_cast<bool>(jit)) << errorText(jit.takeError());
  CompileOptions options;
  options.optLevel = level;
  auto kernel = (*jit)->compileFile(path, options);
  ASSERT_TRUE(static_cast<bool>(kernel)) << errorText(kernel.takeError());
  const uint32_t n = 64 * 40;
  std::vector<float> x(n), y(n), expected(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = float(i % 100) * 0.25f;
    y[i] = float(i % 7);
    expected[i] = 3.0f * x[i] + y[i];
  }
  Dispatch dispatch(*kernel);
  dispatch.bindBuffer(0, 0, x.data(), n * 4);
  dispatch.bindBuffer(0, 1, y.data(), n * 4);
  runtime::Launcher launcher(2);
  EXPECT_EQ(errorText(dispatch.run(launcher, {n / 64, 1, 1})), "<success>");
  EXPECT_EQ(y, expected);
}

TEST(CompileWarmup, FirstCompileAtThePreparedLevel) {
  expectFirstCompileRuns(CompileOptions().optLevel, /*debuggable=*/false);
}

TEST(CompileWarmup, FirstCompileAtOtherLevels) {
  expectFirstCompileRuns(OptLevel::O0, /*debuggable=*/false);
  expectFirstCompileRuns(OptLevel::O3, /*debuggable=*/false);
}

TEST(CompileWarmup, FirstCompileOfADebuggableCompiler) {
  expectFirstCompileRuns(CompileOptions().optLevel, /*debuggable=*/true);
}

/// The loop the warm-up compiles parses, optimizes and emits at every
/// level a compile prepares (a failure would leave the warm-up doing
/// nothing, silently); cancelled, it stops without an error.
TEST(CompileWarmup, TheLoopCompilesAtEachLevel) {
  std::atomic<bool> running{false}, cancelled{true};
  for (OptLevel level : {OptLevel::O1, OptLevel::O2, OptLevel::O3}) {
    EXPECT_EQ(errorText(CompileWarmup::compileLoop(level, running)),
              "<success>");
    EXPECT_EQ(errorText(CompileWarmup::compileLoop(level, cancelled)),
              "<success>");
  }
}

/// Without the warm-up's loop: the context and target machine only.
TEST(CompileWarmup, FirstCompileWithoutWarmingUpCodeGeneration) {
  ::setenv("SPVBRIDGE_COMPILE_WARMUP", "off", /*overwrite=*/1);
  expectFirstCompileRuns(CompileOptions().optLevel, /*debuggable=*/false);
  ::unsetenv("SPVBRIDGE_COMPILE_WARMUP");
}

/// Compilers made one after another, each compiling while its warm-up's
/// loop may still be in the optimizer or the code generator.
TEST(CompileWarmup, FirstCompilesBesideTheWarmUp) {
  for (int i = 0; i < 4; ++i)
    expectFirstCompileRuns(CompileOptions().optLevel, /*debuggable=*/false);
}

/// Created and destroyed at once, while the thread is still preparing: the
/// destructor stops and joins it (a crash or a hang fails the test).
TEST(CompileWarmup, CompilerDestroyedBeforeCompiling) {
  for (int i = 0; i < 8; ++i) {
    auto jit = JitCompiler::create();
    ASSERT_TRUE(static_cast<bool>(jit)) << errorText(jit.takeError());
  }
}

} // namespace
