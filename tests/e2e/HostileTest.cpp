//===- HostileTest.cpp - Faulting kernels through the C++ API -------------===//
//
// A kernel that writes past its buffer, or overflows its stack, makes
// Dispatch::run return an error naming the buffer; one that never ends is
// stopped by Launcher::cancel; the process goes on, and the next dispatch
// on the same launcher runs correctly. Device limits are checked before a
// run.
//
//===----------------------------------------------------------------------===//
#include "KernelFixture.h"

#include "spvbridge/cpu_runtime/GuardedBuffer.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <unistd.h>

using namespace spvb;
using namespace spvb::test;
using runtime::GuardedBuffer;

namespace {

class Hostile : public KernelFixture,
                public ::testing::WithParamInterface<BarrierMode> {
protected:
  std::shared_ptr<const Kernel> compile(llvm::StringRef source) {
    CompileOptions options;
    options.barriers = GetParam();
    return compileGlsl(source, options);
  }
};

/// y[i + offset] = i + 1 for 64 invocations per workgroup, with a barrier
/// so that both region loops and fibers are exercised.
constexpr llvm::StringLiteral kShifted = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
layout(push_constant) uniform P { uint offset; };
shared uint tile[64];
void main() {
  uint i = gl_GlobalInvocationID.x;
  tile[gl_LocalInvocationIndex] = i + 1u;
  barrier();
  y[i + offset] = tile[gl_LocalInvocationIndex];
}
)";

std::vector<uint8_t> pushWord(uint32_t value) {
  std::vector<uint8_t> bytes(4);
  std::memcpy(bytes.data(), &value, 4);
  return bytes;
}

TEST_P(Hostile, FaultIsAnErrorAndTheProcessGoesOn) {
  auto kernel = compile(kShifted);
  ASSERT_TRUE(kernel);
  runtime::Launcher launcher(2);
  constexpr uint32_t kGroups = 16, kElements = kGroups * 64;
  GuardedBuffer y(kElements * 4);

  // Offset 1: the last invocation writes the word just past the end.
  Dispatch bad(kernel);
  bad.bindBuffer(0, 0, y.data(), y.size());
  bad.setPushConstants(pushWord(1));
  std::string message = errorText(bad.run(launcher, {kGroups, 1, 1}));
  EXPECT_NE(message.find("the shader accessed memory outside its buffers: a "
                         "write at byte 4096 of buffer 'Y' (set 0, binding 0; "
                         "4096 bytes), 1 byte past its end, in workgroup (15, "
                         "0, 0)"),
            std::string::npos)
      << message;

  // The same launcher, threads and fibers run the next dispatch in full.
  for (int round = 0; round < 3; ++round) {
    std::memset(y.data(), 0, y.size());
    Dispatch good(kernel);
    good.bindBuffer(0, 0, y.data(), y.size());
    good.setPushConstants(pushWord(0));
    ASSERT_FALSE(good.run(launcher, {kGroups, 1, 1}));
    for (uint32_t i = 0; i < kElements; ++i) {
      uint32_t value;
      std::memcpy(&value, y.data() + i * 4, 4);
      ASSERT_EQ(value, i + 1) << "element " << i;
    }
  }
}

TEST_P(Hostile, FaultStopsTheOtherWorkers) {
  auto kernel = compile(kShifted);
  ASSERT_TRUE(kernel);
  runtime::Launcher launcher(2);
  // Every workgroup writes 1 MiB past the end: the first fault stops the
  // dispatch, so far fewer than the 4096 workgroups finish.
  GuardedBuffer y(64 * 4);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, y.data(), y.size());
  dispatch.setPushConstants(pushWord(1 << 18));
  llvm::Error error = dispatch.run(launcher, {4096, 1, 1});
  EXPECT_NE(errorText(std::move(error)).find("past its end"),
            std::string::npos);
  EXPECT_LT(launcher.getFinishedWorkgroups(), 4096u);
}

/// Every invocation loops forever; a barrier before the loop, so that both
/// region loops and fibers run it.
constexpr llvm::StringLiteral kEndless = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
shared uint tile[64];
void main() {
  tile[gl_LocalInvocationIndex] = 2u;
  barrier();
  uint i = gl_GlobalInvocationID.x;
  while (y[i] != 1u)
    y[i] = y[i] * tile[gl_LocalInvocationIndex] + 2u;
}
)";

TEST_P(Hostile, CancelStopsAnEndlessKernel) {
  auto kernel = compile(kEndless);
  ASSERT_TRUE(kernel);
  runtime::Launcher launcher(2);
  GuardedBuffer y(8 * 64 * 4);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, y.data(), y.size());
  // The canceller repeats, as Launcher::cancel asks, until the run ends.
  std::atomic<bool> running{true};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    while (running) {
      launcher.cancel("error: stopped by the test");
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  llvm::Error error = dispatch.run(launcher, {8, 1, 1});
  running = false;
  canceller.join();
  bool cancelled = false;
  llvm::handleAllErrors(
      std::move(error), [&](const runtime::ShaderFault &fault) {
        cancelled = fault.getKind() == runtime::ShaderFault::Kind::Cancelled;
        EXPECT_EQ(fault.getMessage(), "error: stopped by the test");
      });
  EXPECT_TRUE(cancelled);
  EXPECT_EQ(launcher.getFinishedWorkgroups(), 0u);

  // The launcher runs the next dispatch in full; a cancel without a run
  // does nothing.
  launcher.cancel("error: no run to stop");
  auto shifted = compile(kShifted);
  std::memset(y.data(), 0, y.size());
  Dispatch good(shifted);
  good.bindBuffer(0, 0, y.data(), y.size());
  good.setPushConstants(pushWord(0));
  ASSERT_FALSE(good.run(launcher, {8, 1, 1}));
  for (uint32_t i = 0; i < 8 * 64; ++i) {
    uint32_t value;
    std::memcpy(&value, y.data() + 4 * i, 4);
    ASSERT_EQ(value, i + 1) << i;
  }
}

/// 16 MB of Function variables per invocation: region loops keep them in
/// the workgroup's scratch memory, fibers on a 256 KiB stack that overflows.
TEST_P(Hostile, HugePrivateArrays) {
  auto kernel = compile(R"(#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { float d[]; };
void main() {
  float big[4000000];
  for (int i = 0; i < 4000000; ++i)
    big[i] = float(i) * d[0];
  float picked = big[int(d[1])];
  barrier();
  d[gl_LocalInvocationIndex] = picked;
}
)");
  ASSERT_TRUE(kernel);
  runtime::Launcher launcher(1);
  GuardedBuffer d(std::vector<uint8_t>(16));
  float initial[4] = {2, 3, 0, 0};
  std::memcpy(d.data(), initial, 16);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, d.data(), d.size());
  llvm::Error error = dispatch.run(launcher, {1, 1, 1});
  if (GetParam() == BarrierMode::Fibers) {
    std::string message = errorText(std::move(error));
    EXPECT_NE(message.find("overflowed its stack"), std::string::npos)
        << message;
    return;
  }
  ASSERT_FALSE(error);
  // big[3] = 3 * d[0] = 6 in every invocation.
  float result[4];
  std::memcpy(result, d.data(), 16);
  for (float value : result)
    EXPECT_EQ(value, 6.0f);
}

// A thread runs consecutive workgroups of a row as one run: a fault in the
// middle of one names its workgroup, and every workgroup before it ran.
TEST_P(Hostile, FaultInTheMiddleOfARunNamesItsWorkgroup) {
  auto kernel = compile(R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Y { uint y[]; };
void main() {
  uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint i = g * 64u + gl_LocalInvocationIndex;
  y[i + (g == 13u ? 1000000u : 0u)] = g + 1u;
}
)");
  ASSERT_TRUE(kernel);
  // One thread: chunks of 24 / 8 = 3 workgroups, so workgroup 13, (5, 1,
  // 0), is the second of the run 12-14.
  runtime::Launcher launcher(1);
  GuardedBuffer y(24 * 64 * 4);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, y.data(), y.size());
  std::string message = errorText(dispatch.run(launcher, {8, 3, 1}));
  EXPECT_NE(message.find("past its end, in workgroup (5, 1, 0)"),
            std::string::npos)
      << message;
  const auto *words = reinterpret_cast<const uint32_t *>(y.data());
  for (uint32_t g = 0; g < 13; ++g)
    EXPECT_EQ(words[g * 64 + 63], g + 1) << "workgroup " << g;
}

INSTANTIATE_TEST_SUITE_P(Modes, Hostile,
                         ::testing::Values(BarrierMode::Loops,
                                           BarrierMode::Fibers));

TEST(GuardedBuffers, EndAgainstTheGuardPage) {
  uint64_t page = sysconf(_SC_PAGESIZE);
  for (uint64_t size : {0, 4, 32, 48, 4096, 10000, 65536}) {
    GuardedBuffer buffer(size);
    auto end = reinterpret_cast<uintptr_t>(buffer.data() + size);
    EXPECT_EQ(end % page, 0u) << size;
    EXPECT_TRUE(buffer.covers(end));
    EXPECT_TRUE(buffer.covers(end + (uint64_t(1) << 33)));
    EXPECT_TRUE(buffer.covers(reinterpret_cast<uintptr_t>(buffer.data()) - 1));
    for (uint64_t i = 0; i < size; ++i)
      ASSERT_EQ(buffer[i], 0) << size;
  }
  // Sizes that are not multiples of 16 keep the start aligned to their
  // largest power-of-two divisor, at least 4: the end is up to 3 bytes off.
  EXPECT_EQ(GuardedBuffer::getAlignment(36), 4u);
  EXPECT_EQ(GuardedBuffer::getAlignment(40), 8u);
  EXPECT_EQ(GuardedBuffer::getAlignment(48), 16u);
  EXPECT_EQ(GuardedBuffer::getAlignment(6), 4u);
  GuardedBuffer odd(6);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(odd.data()) % 4, 0u);
  EXPECT_EQ((reinterpret_cast<uintptr_t>(odd.data()) + 8) % page, 0u);
}

TEST(GuardedBuffers, CopyResizeAssign) {
  GuardedBuffer a(std::vector<uint8_t>{1, 2, 3, 4});
  GuardedBuffer b = a;
  b[0] = 9;
  EXPECT_EQ(a[0], 1);
  b.resize(8);
  EXPECT_EQ(b.toVector(), (std::vector<uint8_t>{9, 2, 3, 4, 0, 0, 0, 0}));
  b.resize(2);
  EXPECT_EQ(b.toVector(), (std::vector<uint8_t>{9, 2}));
  b.assign(std::vector<uint8_t>{5, 6, 7});
  EXPECT_EQ(b.toVector(), (std::vector<uint8_t>{5, 6, 7}));
  GuardedBuffer moved = std::move(b);
  EXPECT_EQ(moved.size(), 3u);
  EXPECT_EQ(b.size(), 0u);
}

TEST(DeviceLimitsCheck, RefusesWhatAVulkanDeviceWould) {
  std::unique_ptr<JitCompiler> jit = cantFail(JitCompiler::create());
  TempDir dir;
  // 256 invocations and 20000 bytes of shared memory: within lavapipe's
  // limits, beyond Vulkan's minimums (128 invocations, 16384 bytes).
  std::string path = dir.write("wide.comp", R"(#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) buffer B { uint d[]; };
shared uint tile[5000];
void main() {
  tile[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;
  barrier();
  d[gl_LocalInvocationIndex] = tile[255u - gl_LocalInvocationIndex];
}
)");
  auto kernel = cantFail(jit->compileFile(path, CompileOptions()));
  runtime::Launcher launcher(1);
  GuardedBuffer d(256 * 4);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, d.data(), d.size());
  ASSERT_FALSE(dispatch.run(launcher, {1, 1, 1}));
  uint32_t first;
  std::memcpy(&first, d.data(), 4);
  EXPECT_EQ(first, 255u);

  dispatch.setLimits(DeviceLimits::minimum());
  std::string message = errorText(dispatch.run(launcher, {1, 1, 1}));
  EXPECT_NE(message.find("the shader's Workgroup memory in bytes (20000) "
                         "exceeds maxComputeSharedMemorySize = 16384 of the "
                         "'min' device limits"),
            std::string::npos)
      << message;
  dispatch.setLimits(DeviceLimits::none());
  EXPECT_FALSE(dispatch.run(launcher, {1, 1, 1}));
}

} // namespace
