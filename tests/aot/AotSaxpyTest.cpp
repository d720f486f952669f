//===- AotSaxpyTest.cpp - An spv-to-ll object linked with the runtime -----===//
//
// shaders/saxpy.comp is compiled at build time with `spv-to-ll --emit=obj`
// and linked into this test with the runtime library only: the kernel ABI
// is all the two share.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/cpu_runtime/Launcher.h"

#include "gtest/gtest.h"

#include <cstring>

extern "C" {
void spvb_main_invocation(const spvb_dispatch *, spvb_invocation *);
void spvb_main_workgroup(const spvb_dispatch *, spvb_invocation *);
extern const spvb_kernel_info spvb_main_info;
}

TEST(AotObject, SaxpyRunsWithTheRuntime) {
  EXPECT_EQ(spvb_main_info.abi_version, uint32_t(SPVB_ABI_VERSION));
  EXPECT_EQ(spvb_main_info.workgroup_size[0], 64u);
  EXPECT_EQ(spvb_main_info.binding_count, 2u);
  EXPECT_EQ(spvb_main_info.uses_barriers, 0u);

  const uint32_t n = 1000;
  std::vector<float> x(n), y(n), expected(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = float(i) * 0.25f;
    y[i] = float(i % 9);
    expected[i] = 3.0f * x[i] + y[i];
  }
  spvb::runtime::KernelEntry kernel;
  kernel.invocation = spvb_main_invocation;
  kernel.workgroup = spvb_main_workgroup;
  kernel.info = spvb_main_info;
  spvb::runtime::DispatchResources resources;
  resources.bindings = {{reinterpret_cast<uint8_t *>(x.data()), n * 4},
                        {reinterpret_cast<uint8_t *>(y.data()), n * 4}};
  float a = 3.0f;
  resources.pushConstants.resize(8);
  std::memcpy(resources.pushConstants.data(), &a, 4);
  std::memcpy(resources.pushConstants.data() + 4, &n, 4);
  spvb::runtime::Launcher launcher(2);
  llvm::Error error = launcher.launch(kernel, resources, {(n + 63) / 64, 1, 1});
  ASSERT_FALSE(static_cast<bool>(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(y, expected);
}
