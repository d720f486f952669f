//===- ExecutionTest.cpp - Shaders run on the CPU, checked by reference ---===//
//
// Each test compiles a GLSL compute shader, runs it through the bridge API
// and compares with a plain C++ loop computing the same thing (or values
// derived by hand), never with our own earlier output.
//
//===----------------------------------------------------------------------===//
#include "KernelFixture.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace spvb;
using namespace spvb::test;

namespace {

class Execution : public KernelFixture {
protected:
  std::shared_ptr<const Kernel> compile(llvm::StringRef source,
                                        std::vector<std::string> specs = {}) {
    CompileOptions options;
    options.barriers = barriers;
    options.optLevel = optLevel;
    options.subgroupSize = subgroupSize;
    for (const std::string &spec : specs)
      options.specializations.push_back(cantFail(parseSpecArgument(spec)));
    return compileGlsl(source, options);
  }

  BarrierMode barriers = BarrierMode::Loops;
  OptLevel optLevel = OptLevel::O2;
  /// Compile for this subgroup size (0: the dispatch's).
  uint32_t subgroupSize = 0;

  /// Compiled for a subgroup size, the lanes must not fall back to the
  /// runtime silently.
  void expectLanes(const Kernel &kernel) const {
    EXPECT_EQ(kernel.entry.info.subgroup_size, subgroupSize);
    if (subgroupSize) {
      EXPECT_EQ(kernel.entry.info.workgroup_entry,
                uint32_t(SPVB_WORKGROUP_ENTRY_REGIONS));
    }
  }
};

/// Kernels with barriers, run both ways: region loops (optimized and not,
/// which leaves function calls and allocas for the pass) and fibers.
struct BarrierSetup {
  BarrierMode mode;
  OptLevel level;
};

class Barriers : public Execution,
                 public ::testing::WithParamInterface<BarrierSetup> {
protected:
  void SetUp() override {
    barriers = GetParam().mode;
    optLevel = GetParam().level;
  }
  bool usesLoops() const { return barriers == BarrierMode::Loops; }
  /// Region loops must not fall back to fibers silently.
  void expectWorkgroupEntry(const Kernel &kernel) const {
    EXPECT_EQ(kernel.entry.info.workgroup_entry,
              usesLoops() ? uint32_t(SPVB_WORKGROUP_ENTRY_REGIONS)
                          : uint32_t(SPVB_WORKGROUP_ENTRY_NONE));
  }
};

INSTANTIATE_TEST_SUITE_P(
    Modes, Barriers,
    ::testing::Values(BarrierSetup{BarrierMode::Loops, OptLevel::O2},
                      BarrierSetup{BarrierMode::Loops, OptLevel::O0},
                      BarrierSetup{BarrierMode::Fibers, OptLevel::O2}),
    [](const ::testing::TestParamInfo<BarrierSetup> &info) {
      return std::string(info.param.mode == BarrierMode::Loops ? "Loops"
                                                               : "Fibers") +
             (info.param.level == OptLevel::O0 ? "O0" : "O2");
    });

template <typename T> std::vector<T> iota(size_t n, T start = T(0)) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = start + T(i);
  return v;
}

TEST_F(Execution, SaxpyOnManyThreads) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) y[i] = p.a * x[i] + y[i];
}
)");
  ASSERT_TRUE(kernel);
  const uint32_t n = 100000; // not a multiple of 64: the tail is guarded
  std::vector<float> x = iota<float>(n), y(n), expected(n);
  for (uint32_t i = 0; i < n; ++i) {
    y[i] = 0.5f * float(i % 17);
    expected[i] = 2.5f * x[i] + y[i];
  }
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, x.data(), x.size() * 4);
  dispatch.bindBuffer(0, 1, y.data(), y.size() * 4);
  struct {
    float a;
    uint32_t n;
  } push{2.5f, n};
  dispatch.setPushConstants(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(&push), 8));
  runtime::Launcher launcher(4);
  ASSERT_FALSE(errorText(dispatch.run(launcher, {(n + 63) / 64, 1, 1})) !=
               "<success>");
  EXPECT_EQ(y, expected);
}

/// A JIT's compiles share one MLIR context and replace it every 64: each
/// of 70 specializations (a workgroup array sized by the constant, so each
/// has types of its own) computes with its own constant, before and after
/// the replacement.
TEST_F(Execution, ManyCompilesShareAndReplaceTheirContext) {
  const char *source = R"(
#version 450
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint K = 1;
layout(set = 0, binding = 0) buffer Out { uint v[]; };
shared uint tile[32 + K];
void main() {
  uint i = gl_LocalInvocationID.x;
  tile[i + K] = i * K;
  barrier();
  v[gl_GlobalInvocationID.x] = tile[(i + 1) % 32 + K] + K;
}
)";
  for (uint32_t k = 1; k <= 70; ++k) {
    auto kernel = compile(source, {"0:u32:" + std::to_string(k)});
    ASSERT_TRUE(kernel) << "K = " << k;
    std::vector<uint32_t> out(64), expected(64);
    for (uint32_t g = 0; g < 64; ++g)
      expected[g] = ((g % 32 + 1) % 32) * k + k;
    Dispatch dispatch(kernel);
    dispatch.bindBuffer(0, 0, out.data(), out.size() * 4);
    runtime::Launcher launcher(2);
    ASSERT_EQ(errorText(dispatch.run(launcher, {2, 1, 1})), "<success>");
    ASSERT_EQ(out, expected) << "K = " << k;
  }
}

TEST_P(Barriers, SharedMemoryReductionWithBarriersInALoop) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 128, local_size_x_id = 0) in;
layout(constant_id = 0) const uint N = 128;
layout(set = 0, binding = 0) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1) buffer Out { uint partial[]; };
shared uint scratch[N];
void main() {
  uint local = gl_LocalInvocationID.x;
  scratch[local] = data[gl_GlobalInvocationID.x];
  barrier();
  for (uint stride = N / 2; stride > 0; stride /= 2) {
    if (local < stride)
      scratch[local] += scratch[local + stride];
    barrier();
  }
  if (local == 0)
    partial[gl_WorkGroupID.x] = scratch[0];
}
)",
                        {"0:u32:64"});
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->entry.info.workgroup_size[0], 64u);
  expectWorkgroupEntry(*kernel);
  const uint32_t groups = 50;
  std::vector<uint32_t> data(groups * 64), partial(groups, 0);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = uint32_t(i * 7 + 3);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, data.data(), data.size() * 4);
  dispatch.bindBuffer(0, 1, partial.data(), partial.size() * 4);
  runtime::Launcher launcher(2);
  ASSERT_EQ(errorText(dispatch.run(launcher, {groups, 1, 1})), "<success>");
  for (uint32_t g = 0; g < groups; ++g) {
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 64; ++i)
      sum += data[g * 64 + i];
    EXPECT_EQ(partial[g], sum) << "group " << g;
  }
}

TEST_P(Barriers, AtomicsOnStorageAndWorkgroupMemory) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counters { uint total; uint maxValue; uint perGroup[]; };
shared uint groupCount;
void main() {
  uint v = gl_GlobalInvocationID.x;
  atomicAdd(total, v);
  atomicMax(maxValue, v * 3u);
  atomicAdd(groupCount, 1u);
  barrier();
  if (gl_LocalInvocationIndex == 0)
    perGroup[gl_WorkGroupID.x] = groupCount;
}
)");
  ASSERT_TRUE(kernel);
  expectWorkgroupEntry(*kernel);
  const uint32_t groups = 40;
  std::vector<uint32_t> counters(2 + groups, 0);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, counters.data(), counters.size() * 4);
  runtime::Launcher launcher(4);
  ASSERT_EQ(errorText(dispatch.run(launcher, {groups, 1, 1})), "<success>");
  uint32_t n = groups * 32;
  EXPECT_EQ(counters[0], n * (n - 1) / 2);
  EXPECT_EQ(counters[1], (n - 1) * 3);
  for (uint32_t g = 0; g < groups; ++g)
    EXPECT_EQ(counters[2 + g], 32u) << g; // shared memory starts at zero
}

TEST_F(Execution, Std140UniformWithVec3ArraysAndMatrices) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(std140, set = 0, binding = 0) uniform U {
  vec3 v;        // offset 0
  float f;       // 12
  float arr[2];  // 16, stride 16
  mat2 m;        // 48, columns 16 apart
} u;
layout(std430, set = 0, binding = 1) buffer Out { float o[]; };
void main() {
  o[0] = u.v.x + u.v.y * 10.0 + u.v.z * 100.0;
  o[1] = u.f;
  o[2] = u.arr[1];
  vec2 r = u.m * vec2(1.0, 2.0);
  o[3] = r.x;
  o[4] = r.y;
}
)");
  ASSERT_TRUE(kernel);
  // Laid out by hand per std140.
  std::vector<float> ubo(20, -1.0f);
  ubo[0] = 1, ubo[1] = 2, ubo[2] = 3, ubo[3] = 4;      // v, f
  ubo[4] = 5, ubo[8] = 6;                              // arr[0], arr[1]
  ubo[12] = 7, ubo[13] = 8, ubo[16] = 9, ubo[17] = 10; // m columns
  std::vector<float> out(5, 0.0f);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, ubo.data(), ubo.size() * 4);
  dispatch.bindBuffer(0, 1, out.data(), out.size() * 4);
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_EQ(out[0], 321.0f);
  EXPECT_EQ(out[1], 4.0f);
  EXPECT_EQ(out[2], 6.0f);
  // m * (1, 2) = col0 * 1 + col1 * 2 = (7 + 18, 8 + 20).
  EXPECT_EQ(out[3], 25.0f);
  EXPECT_EQ(out[4], 28.0f);
}

TEST_F(Execution, ThreeDimensionalDispatchBuiltins) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
void main() {
  uvec3 g = gl_GlobalInvocationID;
  uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
  uint linear = g.x + size.x * (g.y + size.y * g.z);
  o[linear] = uvec4(g, gl_LocalInvocationIndex);
}
)");
  ASSERT_TRUE(kernel);
  std::array<uint32_t, 3> groups{3, 2, 2};
  uint32_t sx = 12, sy = 4, sz = 4;
  std::vector<uint32_t> out(sx * sy * sz * 4, ~0u);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, out.data(), out.size() * 4);
  runtime::Launcher launcher(3);
  ASSERT_EQ(errorText(dispatch.run(launcher, groups)), "<success>");
  for (uint32_t z = 0; z < sz; ++z)
    for (uint32_t y = 0; y < sy; ++y)
      for (uint32_t x = 0; x < sx; ++x) {
        uint32_t linear = x + sx * (y + sy * z);
        uint32_t localIndex = (x % 4) + 4 * ((y % 2) + 2 * (z % 2));
        EXPECT_EQ(out[linear * 4 + 0], x);
        EXPECT_EQ(out[linear * 4 + 1], y);
        EXPECT_EQ(out[linear * 4 + 2], z);
        EXPECT_EQ(out[linear * 4 + 3], localIndex);
      }
}

TEST_F(Execution, SmallAndWideIntegersAndFloats) {
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B {
  int64_t a; uint64_t b; double d; int16_t s; uint8_t u8; float16_t h;
} buf;
void main() {
  buf.a = buf.a * int64_t(3) - int64_t(1);
  buf.b = buf.b << 33;
  buf.d = buf.d / 3.0;
  buf.s = int16_t(buf.s * int16_t(2));
  buf.u8 = uint8_t(buf.u8 + uint8_t(200));
  buf.h = buf.h * float16_t(0.5);
}
)");
  ASSERT_TRUE(kernel);
  struct alignas(8) Data {
    int64_t a;
    uint64_t b;
    double d;
    int16_t s;
    uint8_t u8;
    uint8_t pad;
    uint16_t h;
  } data{-5000000000LL, 5, 1.0, -300, 100, 0, 0x3c00 /* 1.0 */};
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, &data, sizeof(data));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_EQ(data.a, -15000000001LL);
  EXPECT_EQ(data.b, 5ull << 33);
  EXPECT_EQ(data.d, 1.0 / 3.0);
  EXPECT_EQ(data.s, -600);
  EXPECT_EQ(data.u8, uint8_t(300 - 256));
  EXPECT_EQ(data.h, 0x3800); // 0.5 in binary16
}

TEST_F(Execution, ArraysOfStructs) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 8) in;
struct Particle { vec3 position; float mass; vec2 velocity; };  // std430: 32 bytes
layout(std430, set = 0, binding = 0) buffer P { Particle particles[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  particles[i].position += vec3(particles[i].velocity, particles[i].mass);
  particles[i].mass *= 2.0;
}
)");
  ASSERT_TRUE(kernel);
  std::vector<float> data(16 * 8);
  for (uint32_t i = 0; i < 16; ++i) {
    float *p = &data[i * 8];
    p[0] = float(i), p[1] = 1, p[2] = 2, p[3] = 0.5f * float(i); // pos, mass
    p[4] = 10, p[5] = 20, p[6] = -1, p[7] = -1;                  // vel, pad
  }
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, data.data(), data.size() * 4);
  runtime::Launcher launcher(2);
  ASSERT_EQ(errorText(dispatch.run(launcher, {2, 1, 1})), "<success>");
  for (uint32_t i = 0; i < 16; ++i) {
    const float *p = &data[i * 8];
    EXPECT_EQ(p[0], float(i) + 10);
    EXPECT_EQ(p[1], 21.0f);
    EXPECT_EQ(p[2], 2 + 0.5f * float(i));
    EXPECT_EQ(p[3], float(i));
    EXPECT_EQ(p[6], -1.0f); // padding untouched
  }
}

TEST_P(Barriers, DivergentBarrierIsReportedNotHung) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  if (gl_LocalInvocationIndex < 2u)
    return;
  barrier();
  v[gl_LocalInvocationIndex] = 1u;
}
)");
  ASSERT_TRUE(kernel);
  expectWorkgroupEntry(*kernel);
  std::vector<uint32_t> v(4, 0);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, v.data(), v.size() * 4);
  runtime::Launcher launcher(1);
  EXPECT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})),
            "error: workgroup (0, 0, 0): 2 of 4 invocations returned while the "
            "others waited at a barrier (every invocation of a workgroup must "
            "reach each OpControlBarrier)");
}

TEST_P(Barriers, PerInvocationStateSurvivesBarriers) {
  // Function arrays indexed dynamically, vectors, 64-bit values and Private
  // storage live across barriers; barriers sit in a uniform loop, under a
  // uniform branch and inside a called function; the workgroup is 3D.
  auto kernel = compile(R"(
#version 450
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 4, local_size_y = 3, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out { uvec4 result[]; };
layout(push_constant) uniform P { uint rounds; uint pick; } p;
shared uint exchange[24];
uint privateCounter;
uint helper(uint v) {
  barrier();
  return exchange[v % 24u] + v;
}
void main() {
  uint index = gl_LocalInvocationIndex;
  uint table[8];
  for (uint i = 0u; i < 8u; ++i)
    table[i] = index * 10u + i;
  uvec3 ids = gl_LocalInvocationID * uvec3(1u, 100u, 10000u);
  uint64_t wide = uint64_t(index) << 33;
  privateCounter = index + 7u;
  uint acc = 0u;
  for (uint r = 0u; r < p.rounds; ++r) {
    exchange[index] = table[(index + r) % 8u];
    barrier();
    acc += exchange[(index + 1u) % 24u];
    barrier();
  }
  if (p.pick != 0u) {
    exchange[index] = index * 3u;
    barrier();
    acc += helper(index + 5u);
  }
  result[gl_WorkGroupID.x * 24u + index] =
      uvec4(acc, ids.x + ids.y + ids.z, uint(wide >> 32),
            privateCounter + table[p.pick % 8u]);
}
)");
  ASSERT_TRUE(kernel);
  expectWorkgroupEntry(*kernel);
  const uint32_t groups = 3;
  for (uint32_t pick : {0u, 1u}) {
    const uint32_t rounds = 3;
    std::vector<uint32_t> result(groups * 24 * 4, 0xdeadu);
    Dispatch dispatch(kernel);
    dispatch.bindBuffer(0, 0, result.data(), result.size() * 4);
    uint32_t push[2] = {rounds, pick};
    dispatch.setPushConstants(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(push), 8));
    runtime::Launcher launcher(2);
    ASSERT_EQ(errorText(dispatch.run(launcher, {groups, 1, 1})), "<success>");
    for (uint32_t g = 0; g < groups; ++g)
      for (uint32_t index = 0; index < 24; ++index) {
        uint32_t acc = 0, neighbour = (index + 1) % 24;
        for (uint32_t r = 0; r < rounds; ++r)
          acc += neighbour * 10 + (neighbour + r) % 8;
        if (pick)
          acc += ((index + 5) % 24) * 3 + index + 5;
        uint32_t x = index % 4, y = (index / 4) % 3, z = index / 12;
        const uint32_t *got = &result[(g * 24 + index) * 4];
        EXPECT_EQ(got[0], acc) << "group " << g << " index " << index;
        EXPECT_EQ(got[1], x + 100 * y + 10000 * z) << index;
        EXPECT_EQ(got[2], index * 2) << index;
        EXPECT_EQ(got[3], index + 7 + index * 10 + pick % 8) << index;
      }
  }
}

TEST_P(Barriers, LoopCarriedValuesSurviveBarriersInTheLoop) {
  // ggml's solve_tri, in integers: an unrolled loop over row batches with
  // two barriers per batch. After optimization the loop's phis are used
  // after the second barrier, in the block that also stores their next
  // values; reading a phi there must give this iteration's value.
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[]; };
layout(set = 0, binding = 2) buffer X { uint x[]; };
const uint N = 8u, K = 4u, BATCH = 4u;
shared uint shA[BATCH * N];
shared uint shB[BATCH * K];
void main() {
  uint tid = gl_LocalInvocationID.x;
  uint solved[N];
  [[unroll]] for (uint base = 0u; base < N; base += BATCH) {
    [[unroll]] for (uint i = 0u; i < BATCH * N; i += 8u)
      shA[i + tid] = a[base * N + i + tid];
    [[unroll]] for (uint i = 0u; i < BATCH * K; i += 8u)
      shB[i + tid] = b[base * K + i + tid];
    barrier();
    if (tid < K) {
      [[unroll]] for (uint row = 0u; row < BATCH; ++row) {
        uint r = base + row;
        uint v = shB[row * K + tid];
        [[unroll]] for (uint c = 0u; c < r; ++c)
          v -= shA[row * N + c] * solved[c];
        solved[r] = v;
        x[r * K + tid] = v;
      }
    }
    barrier();
  }
}
)");
  ASSERT_TRUE(kernel);
  expectWorkgroupEntry(*kernel);
  const uint32_t n = 8, k = 4;
  std::vector<uint32_t> a(n * n), b(n * k), x(n * k, 0xdeadu);
  for (uint32_t i = 0; i < a.size(); ++i)
    a[i] = (i * 7 + 3) % 11;
  for (uint32_t i = 0; i < b.size(); ++i)
    b[i] = (i * 5 + 1) % 13;
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, a.data(), a.size() * 4);
  dispatch.bindBuffer(0, 1, b.data(), b.size() * 4);
  dispatch.bindBuffer(0, 2, x.data(), x.size() * 4);
  runtime::Launcher launcher(2);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  for (uint32_t col = 0; col < k; ++col) {
    std::vector<uint32_t> solved(n);
    for (uint32_t r = 0; r < n; ++r) {
      uint32_t v = b[r * k + col];
      for (uint32_t c = 0; c < r; ++c)
        v -= a[r * n + c] * solved[c];
      solved[r] = v;
      EXPECT_EQ(x[r * k + col], v) << "row " << r << " column " << col;
    }
  }
}

TEST_P(Barriers, WholeWorkgroupReturningEarlyIsFine) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
shared uint s[16];
void main() {
  if (gl_WorkGroupID.x % 2u == 1u)
    return;
  s[gl_LocalInvocationIndex] = gl_GlobalInvocationID.x;
  barrier();
  v[gl_GlobalInvocationID.x] = s[15u - gl_LocalInvocationIndex];
}
)");
  ASSERT_TRUE(kernel);
  expectWorkgroupEntry(*kernel);
  std::vector<uint32_t> v(64, 7);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, v.data(), v.size() * 4);
  runtime::Launcher launcher(2);
  ASSERT_EQ(errorText(dispatch.run(launcher, {4, 1, 1})), "<success>");
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(v[i], (i / 16) % 2 ? 7u : (i / 16) * 16 + 15 - i % 16) << i;
}

TEST_F(Execution, DifferentBarriersAreReported) {
  // Region loops tell barriers apart (fibers do not). Unoptimized, the two
  // barriers stay apart; LLVM may legally merge them below the branch.
  barriers = BarrierMode::Loops;
  optLevel = OptLevel::O0;
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() {
  if (gl_LocalInvocationIndex < 2u) {
    barrier();
    v[0] = 1u;
  } else {
    v[1] = 2u;
    barrier();
  }
}
)");
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->entry.info.workgroup_entry,
            uint32_t(SPVB_WORKGROUP_ENTRY_REGIONS));
  std::vector<uint32_t> v(4, 0);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, v.data(), v.size() * 4);
  runtime::Launcher launcher(1);
  EXPECT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})),
            "error: workgroup (0, 0, 0): invocations waited at different "
            "barriers (every invocation of a workgroup must reach each "
            "OpControlBarrier)");
}

/// Subgroup operations at every subgroup size spv-run offers that a quad
/// fits in, run by the runtime (the kernel compiled for any size) and in
/// SIMD lanes (compiled for the size, each chunk of lanes a subgroup).
struct SubgroupSetup {
  uint32_t size;
  bool inLanes;
};

class Subgroups : public Execution,
                  public ::testing::WithParamInterface<SubgroupSetup> {
protected:
  void SetUp() override {
    if (GetParam().inLanes)
      subgroupSize = GetParam().size;
  }
};

/// Tests of one subgroup size, run by the runtime and in SIMD lanes.
class SubgroupPaths : public Execution,
                      public ::testing::WithParamInterface<bool> {
protected:
  /// In lanes, compiles for `size`.
  void useSize(uint32_t size) {
    if (GetParam())
      subgroupSize = size;
  }
};

INSTANTIATE_TEST_SUITE_P(Paths, SubgroupPaths, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "InLanes" : "Runtime";
                         });

INSTANTIATE_TEST_SUITE_P(
    Sizes, Subgroups,
    ::testing::Values(SubgroupSetup{4, false}, SubgroupSetup{8, false},
                      SubgroupSetup{32, false}, SubgroupSetup{64, false},
                      SubgroupSetup{4, true}, SubgroupSetup{8, true},
                      SubgroupSetup{32, true}, SubgroupSetup{64, true}),
    [](const ::testing::TestParamInfo<SubgroupSetup> &info) {
      return std::to_string(info.param.size) +
             (info.param.inLanes ? "InLanes" : "");
    });

TEST_P(Subgroups, EveryClassOfOperation) {
  auto kernel = compile(R"(
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  uint base = (gl_WorkGroupID.x * 64u + l) * 24u;
  uint v = l * 3u + 1u;
  r[base + 0] = gl_SubgroupSize;
  r[base + 1] = gl_SubgroupInvocationID;
  r[base + 2] = gl_SubgroupID;
  r[base + 3] = gl_NumSubgroups;
  r[base + 4] = subgroupAdd(v);
  r[base + 5] = subgroupInclusiveAdd(v);
  r[base + 6] = subgroupExclusiveAdd(v);
  r[base + 7] = subgroupMax(v);
  r[base + 8] = subgroupClusteredAdd(v, 4u);
  r[base + 9] = uint(subgroupMin(float(v) * 0.5) * 2.0);
  uvec4 b = subgroupBallot((l & 1u) == 0u);
  r[base + 10] = b.x;
  r[base + 11] = subgroupBallotBitCount(b);
  r[base + 12] = subgroupBallotInclusiveBitCount(b);
  r[base + 13] = subgroupBallotFindMSB(b);
  r[base + 14] = subgroupElect() ? 1u : 0u;
  r[base + 15] = subgroupBroadcast(v, 1u);
  r[base + 16] = subgroupShuffleXor(v, 1u);
  r[base + 17] = subgroupShuffleDown(v, 1u);
  r[base + 18] = subgroupQuadSwapHorizontal(v);
  r[base + 19] = subgroupQuadBroadcast(v, 2u);
  r[base + 20] = subgroupAll(v > 0u) ? 1u : 0u;
  r[base + 21] = subgroupAny(v == 7u) ? 1u : 0u;
  r[base + 22] = subgroupAllEqual(v) ? 1u : 0u;
  r[base + 23] = (l % 3u == 0u) ? subgroupAdd(1u) : 1000u;
}
)");
  ASSERT_TRUE(kernel);
  if (!subgroupSize) {
    EXPECT_EQ(kernel->entry.info.workgroup_entry,
              uint32_t(SPVB_WORKGROUP_ENTRY_NONE));
  }
  expectLanes(*kernel);
  const uint32_t size = GetParam().size, groups = 2;
  std::vector<uint32_t> r(groups * 64 * 24, 0xdead);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, r.data(), r.size() * 4);
  runtime::Launcher launcher(2, size);
  ASSERT_EQ(errorText(dispatch.run(launcher, {groups, 1, 1})), "<success>");
  auto value = [](uint32_t l) { return l * 3 + 1; };
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t l = 0; l < 64; ++l) {
      const uint32_t *got = &r[(g * 64 + l) * 24];
      uint32_t lane = l % size, first = l - lane;
      uint32_t sum = 0, inclusive = 0, exclusive = 0, cluster = 0, max = 0;
      uint32_t min = ~0u, evens = 0, evensUpTo = 0, thirds = 0;
      for (uint32_t i = first; i < first + size; ++i) {
        sum += value(i);
        max = std::max(max, value(i));
        min = std::min(min, value(i));
        if (i <= l)
          inclusive += value(i);
        if (i < l)
          exclusive += value(i);
        if (i / 4 == l / 4)
          cluster += value(i);
        evens += i % 2 == 0;
        evensUpTo += i % 2 == 0 && i <= l;
        thirds += i % 3 == 0;
      }
      uint32_t ballotLow = 0;
      for (uint32_t i = 0; i < std::min(size, 32u); i += 2)
        ballotLow |= 1u << i;
      std::string where =
          "group " + std::to_string(g) + " index " + std::to_string(l);
      EXPECT_EQ(got[0], size) << where;
      EXPECT_EQ(got[1], lane) << where;
      EXPECT_EQ(got[2], l / size) << where;
      EXPECT_EQ(got[3], 64 / size) << where;
      EXPECT_EQ(got[4], sum) << where;
      EXPECT_EQ(got[5], inclusive) << where;
      EXPECT_EQ(got[6], exclusive) << where;
      EXPECT_EQ(got[7], max) << where;
      EXPECT_EQ(got[8], cluster) << where;
      EXPECT_EQ(got[9], min) << where;
      EXPECT_EQ(got[10], ballotLow) << where;
      EXPECT_EQ(got[11], evens) << where;
      EXPECT_EQ(got[12], evensUpTo) << where;
      EXPECT_EQ(got[13], size - 2) << where; // the highest even lane
      EXPECT_EQ(got[14], lane == 0 ? 1u : 0u) << where;
      EXPECT_EQ(got[15], value(first + 1)) << where;
      EXPECT_EQ(got[16], value(l ^ 1)) << where;
      if (lane + 1 < size) { // beyond the subgroup is undefined
        EXPECT_EQ(got[17], value(l + 1)) << where;
      }
      EXPECT_EQ(got[18], value(l ^ 1)) << where;
      EXPECT_EQ(got[19], value((l & ~3u) + 2)) << where;
      EXPECT_EQ(got[20], 1u) << where;
      EXPECT_EQ(got[21], first <= 2 && 2 < first + size ? 1u : 0u) << where;
      EXPECT_EQ(got[22], 0u) << where;
      // Only the invocations that take the branch are active in it.
      EXPECT_EQ(got[23], l % 3 == 0 ? thirds : 1000u) << where;
    }
}

TEST_P(SubgroupPaths, MeetAgainAfterADivergentLoop) {
  useSize(32);
  // Each invocation loops l % 4 times, with a subgroup operation inside;
  // the one after the loop sees the whole subgroup again.
  auto kernel = compile(R"(
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  uint acc = 0u;
  for (uint i = 0u; i < l % 4u; ++i)
    acc += subgroupAdd(1u);
  r[l * 2u] = acc;
  r[l * 2u + 1u] = subgroupAdd(acc);
}
)");
  ASSERT_TRUE(kernel);
  expectLanes(*kernel);
  std::vector<uint32_t> r(128, 0xdead);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, r.data(), r.size() * 4);
  runtime::Launcher launcher(1, 32);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  // In iteration i, the invocations with l % 4 > i take part: 24, 16, 8 of
  // 32. An invocation's acc sums its l % 4 first counts.
  const uint32_t counts[3] = {24, 16, 8};
  uint32_t subgroupTotal = 0;
  std::vector<uint32_t> acc(64);
  for (uint32_t l = 0; l < 64; ++l) {
    for (uint32_t i = 0; i < l % 4; ++i)
      acc[l] += counts[i];
    if (l < 32)
      subgroupTotal += acc[l];
  }
  EXPECT_EQ(subgroupTotal, 8u * (24 + 40 + 48));
  for (uint32_t l = 0; l < 64; ++l) {
    EXPECT_EQ(r[l * 2], acc[l]) << l;
    EXPECT_EQ(r[l * 2 + 1], subgroupTotal) << l;
  }
}

TEST_P(SubgroupPaths, FloatSumsCombinePairwise) {
  // The lanes' and the runtime's order: a pairwise tree, lower half first.
  // In a subgroup of 4 holding 1e8, 1, -1e8, 1 (floats step by 8 near 1e8):
  // (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0, where a running sum gives 1.
  useSize(4);
  auto kernel = compile(R"(
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer B { float v[]; };
void main() {
  uint l = gl_LocalInvocationIndex;
  float x = v[l];
  v[8u + l] = subgroupAdd(x);
  v[16u + l] = subgroupInclusiveAdd(x);
}
)");
  ASSERT_TRUE(kernel);
  expectLanes(*kernel);
  std::vector<float> v(24, -7.0f);
  const float in[8] = {1e8f, 1, -1e8f, 1, 2, 3, 4, 5};
  std::copy(std::begin(in), std::end(in), v.begin());
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, v.data(), v.size() * 4);
  runtime::Launcher launcher(1, 4);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  const float sums[8] = {0, 0, 0, 0, 14, 14, 14, 14};
  // The scan's step of 1 gives 1e8, 1e8 + 1 = 1e8, 1 - 1e8 = -1e8 and
  // -1e8 + 1 = -1e8; the step of 2 adds lanes 0 and 1 to lanes 2 and 3:
  // 0 and 0 (a running sum ends in 1).
  const float scans[8] = {1e8f, 1e8f, 0, 0, 2, 5, 9, 14};
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(v[8 + i], sums[i]) << i;
    EXPECT_EQ(v[16 + i], scans[i]) << i;
  }
}

TEST_F(Execution, KernelCompiledForASubgroupSizeRefusesAnother) {
  subgroupSize = 16;
  auto kernel = compile(R"(
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint v[]; };
void main() { v[gl_LocalInvocationIndex] = subgroupAdd(1u); }
)");
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->entry.info.subgroup_size, 16u);
  std::vector<uint32_t> v(64, 0);
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, v.data(), v.size() * 4);
  runtime::Launcher other(1, 8);
  EXPECT_EQ(errorText(dispatch.run(other, {1, 1, 1})),
            "error: the kernel was compiled for subgroups of 16 invocations, "
            "dispatched with 8");
  runtime::Launcher same(1, 16);
  ASSERT_EQ(errorText(dispatch.run(same, {1, 1, 1})), "<success>");
  EXPECT_EQ(v, std::vector<uint32_t>(64, 16));
}

TEST_F(Execution, StorageImagesAndTexelBuffers) {
  // rgba8 in, r32f out, r32ui atomics through texel pointers, an rgba16f
  // storage texel buffer, a uniform texel buffer (texelFetch) and the size
  // queries.
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 4, local_size_y = 2) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(set = 0, binding = 2, r32ui) uniform uimage2D counters;
layout(set = 0, binding = 3, rgba16f) uniform imageBuffer texels;
layout(set = 0, binding = 4) uniform usamplerBuffer table;
layout(set = 0, binding = 5) buffer Out { ivec4 sizes; };
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  vec4 c = imageLoad(src, p);
  imageStore(dst, p, vec4(c.r + c.g * 2.0 + c.b * 4.0 + c.a * 8.0));
  imageAtomicAdd(counters, ivec2(0, 0), 1u);
  imageAtomicMax(counters, ivec2(1, 0), uint(p.x * 10 + p.y));
  int i = p.y * 8 + p.x;
  vec4 t = imageLoad(texels, i);
  imageStore(texels, i, t * 2.0 + vec4(texelFetch(table, i).x));
  imageStore(dst, ivec2(100, 100), vec4(1.0)); // outside: dropped
  if (i == 0)
    sizes = ivec4(imageSize(src), imageSize(texels), textureSize(table));
}
)");
  ASSERT_TRUE(kernel);
  const uint32_t width = 8, height = 4; // 2 x 2 workgroups of 4 x 2
  std::vector<uint8_t> srcTexels(width * height * 4);
  for (size_t i = 0; i < srcTexels.size(); ++i)
    srcTexels[i] = uint8_t(i * 37 % 256);
  std::vector<float> dstTexels(width * height, -1.0f);
  std::vector<uint32_t> counterTexels(width * height, 0);
  std::vector<_Float16> bufferTexels(width * height * 4);
  for (size_t i = 0; i < bufferTexels.size(); ++i)
    bufferTexels[i] = _Float16(float(i) * 0.25f);
  std::vector<uint32_t> tableTexels(width * height);
  for (uint32_t i = 0; i < tableTexels.size(); ++i)
    tableTexels[i] = i * 3 + 1;
  auto image2D = [&](void *data, uint32_t format, size_t bytes) {
    spvb_image image{};
    image.data = static_cast<uint8_t *>(data);
    image.format = format;
    image.dim = 1; // Dim2D
    image.extent[0] = width;
    image.extent[1] = height;
    image.extent[2] = 1;
    image.layers = image.levels = image.samples = 1;
    image.size = bytes;
    return image;
  };
  auto buffer1D = [&](void *data, uint32_t format, size_t bytes) {
    spvb_image image = image2D(data, format, bytes);
    image.dim = 5; // DimBuffer
    image.extent[0] = width * height;
    image.extent[1] = 1;
    return image;
  };
  // SPIR-V ImageFormat: Rgba8 4, R32f 3, R32ui 33, Rgba16f 2; R32ui for the
  // table (its format comes from the descriptor).
  spvb_image src = image2D(srcTexels.data(), 4, srcTexels.size());
  spvb_image dst = image2D(dstTexels.data(), 3, dstTexels.size() * 4);
  spvb_image counters =
      image2D(counterTexels.data(), 33, counterTexels.size() * 4);
  spvb_image texels = buffer1D(bufferTexels.data(), 2, bufferTexels.size() * 2);
  spvb_image table = buffer1D(tableTexels.data(), 33, tableTexels.size() * 4);
  int32_t sizes[4] = {0, 0, 0, 0};
  Dispatch dispatch(kernel);
  dispatch.bindImage(0, 0, &src);
  dispatch.bindImage(0, 1, &dst);
  dispatch.bindImage(0, 2, &counters);
  dispatch.bindImage(0, 3, &texels);
  dispatch.bindImage(0, 4, &table);
  dispatch.bindBuffer(0, 5, sizes, sizeof(sizes));
  runtime::Launcher launcher(2);
  ASSERT_EQ(errorText(dispatch.run(launcher, {2, 2, 1})), "<success>");
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t *c = &srcTexels[(y * width + x) * 4];
      float expected = c[0] / 255.0f + c[1] / 255.0f * 2 + c[2] / 255.0f * 4 +
                       c[3] / 255.0f * 8;
      EXPECT_NEAR(dstTexels[y * width + x], expected, 1e-5) << x << "," << y;
    }
  EXPECT_EQ(counterTexels[0], width * height);
  EXPECT_EQ(counterTexels[1], (width - 1) * 10 + height - 1);
  for (uint32_t i = 0; i < width * height; ++i)
    for (int c = 0; c < 4; ++c)
      EXPECT_EQ(float(bufferTexels[i * 4 + c]),
                float(i * 4 + c) * 0.25f * 2 + float(i * 3 + 1))
          << i << "." << c;
  EXPECT_EQ(sizes[0], int(width));
  EXPECT_EQ(sizes[1], int(height));
  EXPECT_EQ(sizes[2], int(width * height));
  EXPECT_EQ(sizes[3], int(width * height));
}

TEST_F(Execution, ImageBoundAsBufferIsNamed) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32f) uniform writeonly image2D dst;
void main() { imageStore(dst, ivec2(0), vec4(1.0)); }
)");
  ASSERT_TRUE(kernel);
  float data[4];
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, data, sizeof(data));
  runtime::Launcher launcher(1);
  EXPECT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})),
            "error: " + kernel->sourceName +
                ": the shader uses storage image 'dst' (set 0, binding 0) but "
                "a buffer is bound to it");
}

TEST_F(Execution, SampledImagesFilterAsVulkanSpecifies) {
  // A 4x4 r32f texture, f(x, y) = x + 10y, with a 2x2 level 1,
  // g(x, y) = 100 + x + 10y; expected values derived by hand from Vulkan's
  // filtering rules (u' = u * size - 0.5 for linear).
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D linearRepeat;
layout(set = 0, binding = 1) uniform sampler2D nearestBorder;
layout(set = 0, binding = 2) buffer Out { float r[12]; };
void main() {
  r[0] = textureLod(linearRepeat, vec2(1.75 / 4.0, 2.5 / 4.0), 0.0).r;
  r[1] = textureLod(nearestBorder, vec2(1.75 / 4.0, 2.5 / 4.0), 0.0).r;
  r[2] = textureLod(linearRepeat, vec2(-0.5 / 4.0, 0.5 / 4.0), 0.0).r;
  r[3] = textureLod(nearestBorder, vec2(-0.5 / 4.0, 0.5 / 4.0), 0.0).r;
  r[4] = textureLod(nearestBorder, vec2(0.75, 0.25), 1.0).r;
  vec4 g = textureGather(linearRepeat, vec2(0.5, 0.5), 0);
  r[5] = g.x; r[6] = g.y; r[7] = g.z; r[8] = g.w;
  r[9] = textureLod(linearRepeat, vec2(0.5, 0.5), 1.0).r;
  r[10] = float(textureSize(linearRepeat, 1).x);
  r[11] = float(textureQueryLevels(linearRepeat));
}
)");
  ASSERT_TRUE(kernel);
  std::vector<float> texels;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      texels.push_back(float(x + 10 * y));
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x)
      texels.push_back(float(100 + x + 10 * y));
  // VkFilter 0 nearest / 1 linear; address modes 0 repeat, 3 clamp to
  // border; border 4 = float opaque white.
  spvb_sampler linear{1, 1, 0, {0, 0, 0}, 0.0f, 0.0f, 1000.0f, 0, 0, 0, 0};
  spvb_sampler border{0, 0, 0, {3, 3, 3}, 0.0f, 0.0f, 1000.0f, 4, 0, 0, 0};
  spvb_image image = makeImage2D(texels.data(), texels.size() * 4,
                                 spv::ImageFormatR32f, 4, 4, 2);
  spvb_image withLinear = image, withBorder = image;
  withLinear.sampler = &linear;
  withBorder.sampler = &border;
  float r[12];
  std::fill(std::begin(r), std::end(r), -1.0f);
  Dispatch dispatch(kernel);
  dispatch.bindImage(0, 0, &withLinear);
  dispatch.bindImage(0, 1, &withBorder);
  dispatch.bindBuffer(0, 2, r, sizeof(r));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_FLOAT_EQ(r[0], 0.75f * 21 + 0.25f * 22); // between (1,2) and (2,2)
  EXPECT_FLOAT_EQ(r[1], 21);                      // texel (1, 2)
  EXPECT_FLOAT_EQ(r[2], 3);   // u' = -1 wraps to x = 3, no weight on x = 0
  EXPECT_FLOAT_EQ(r[3], 1);   // x = -1 is the white border
  EXPECT_FLOAT_EQ(r[4], 101); // level 1, texel (1, 0)
  EXPECT_FLOAT_EQ(r[5], 21);  // gather: (i0, j1), (i1, j1), (i1, j0), (i0, j0)
  EXPECT_FLOAT_EQ(r[6], 22);
  EXPECT_FLOAT_EQ(r[7], 12);
  EXPECT_FLOAT_EQ(r[8], 11);
  EXPECT_FLOAT_EQ(r[9], 100 + (0 + 1 + 10 + 11) / 4.0f); // level 1 centre
  EXPECT_FLOAT_EQ(r[10], 2);
  EXPECT_FLOAT_EQ(r[11], 2);
}

TEST_F(Execution, Rgba8SamplingInLanesFiltersAsVulkanSpecifies) {
  // 64 invocations in SIMD lanes sample a mipmapped 4x4 RGBA8 texture at
  // scattered coordinates and levels of detail, through linear samplers
  // (the single-precision lane path), a nearest one (the general path) and
  // divergent branches (inactive lanes). The reference below is Vulkan's
  // filtering written out in double precision: lambda clamped, the level(s)
  // chosen, u' = u * size - 0.5 and bilinear weights for linear, floor(u *
  // size) for nearest, repeat and clamp-to-edge wrapping.
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) uniform sampler2D linearRepeat;
layout(set = 0, binding = 1) uniform sampler2D linearClamp;
layout(set = 0, binding = 2) uniform sampler2D nearestRepeat;
layout(set = 0, binding = 3) buffer In { vec4 at[]; };
layout(set = 0, binding = 4) buffer Out { vec4 r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  vec4 p = at[i];
  int mode = int(p.w);
  if (mode == 0)
    r[i] = textureLod(linearRepeat, p.xy, p.z);
  else if (mode == 1)
    r[i] = textureLod(linearClamp, p.xy, p.z);
  else if (mode == 2)
    r[i] = textureLod(nearestRepeat, p.xy, p.z);
  else // lambda = log2(max(4 * 0.25 * 2^z, 4 * 0.25)) = max(z, 0)
    r[i] = textureGrad(linearRepeat, p.xy, vec2(0.25 * exp2(p.z), 0),
                       vec2(0, 0.25));
}
)");
  ASSERT_TRUE(kernel);
  // Levels 4x4, 2x2, 1x1; components vary with x, y, level and channel.
  std::vector<uint8_t> texels;
  for (unsigned level = 0, size = 4; level < 3; ++level, size /= 2)
    for (unsigned y = 0; y < size; ++y)
      for (unsigned x = 0; x < size; ++x)
        for (unsigned c = 0; c < 4; ++c)
          texels.push_back(
              uint8_t((x * 61 + y * 17 + level * 97 + c * 43) % 256));
  auto texel = [&](unsigned level, int64_t x, int64_t y, unsigned c) {
    unsigned offsets[3] = {0, 16, 20}, size = 4u >> level;
    return texels[(offsets[level] + y * size + x) * 4 + c] / 255.0;
  };
  struct Mode {
    bool linear, mipLinear, repeat;
  };
  auto reference = [&](Mode mode, double u, double v, double lambda,
                       unsigned c) {
    lambda = std::clamp(lambda, 0.0, 1000.0);
    double level = std::clamp(lambda, 0.0, 2.0);
    unsigned levels[2];
    double weight = 0;
    if (mode.mipLinear) {
      levels[0] = unsigned(std::floor(level));
      levels[1] = std::min(levels[0] + 1, 2u);
      weight = level - std::floor(level);
    } else {
      levels[0] = levels[1] =
          level <= 0.5 ? 0 : unsigned(std::ceil(level + 0.5) - 1);
    }
    auto filter = [&](unsigned d) {
      int64_t size = 4 >> d;
      auto wrap = [&](int64_t i) {
        return mode.repeat ? ((i % size) + size) % size
                           : std::clamp<int64_t>(i, 0, size - 1);
      };
      if (!mode.linear)
        return texel(d, wrap(int64_t(std::floor(u * size))),
                     wrap(int64_t(std::floor(v * size))), c);
      double x = u * size - 0.5, y = v * size - 0.5;
      int64_t i = int64_t(std::floor(x)), j = int64_t(std::floor(y));
      double a = x - std::floor(x), b = y - std::floor(y);
      return (1 - a) * (1 - b) * texel(d, wrap(i), wrap(j), c) +
             a * (1 - b) * texel(d, wrap(i + 1), wrap(j), c) +
             (1 - a) * b * texel(d, wrap(i), wrap(j + 1), c) +
             a * b * texel(d, wrap(i + 1), wrap(j + 1), c);
    };
    return (1 - weight) * filter(levels[0]) + weight * filter(levels[1]);
  };
  // VkFilter 1 linear; VkSamplerMipmapMode 1 linear; address modes 0
  // repeat, 2 clamp to edge.
  spvb_sampler linearRepeat{1,       1, 1, {0, 0, 0}, 0.0f, 0.0f,
                            1000.0f, 0, 0, 0,         0};
  spvb_sampler linearClamp{1, 1, 0, {2, 2, 2}, 0.0f, 0.0f, 1000.0f, 0, 0, 0, 0};
  spvb_sampler nearestRepeat{0,       0, 0, {0, 0, 0}, 0.0f, 0.0f,
                             1000.0f, 0, 0, 0,         0};
  const Mode modes[4] = {{true, true, true},
                         {true, false, false},
                         {false, false, true},
                         {true, true, true}};
  spvb_image image =
      makeImage2D(texels.data(), texels.size(), spv::ImageFormatRgba8, 4, 4, 3);
  spvb_image images[3] = {image, image, image};
  images[0].sampler = &linearRepeat;
  images[1].sampler = &linearClamp;
  images[2].sampler = &nearestRepeat;
  constexpr unsigned kCount = 64;
  std::vector<float> at(kCount * 4), r(kCount * 4, -1.0f);
  uint32_t seed = 12345;
  auto next = [&](float low, float high) {
    seed = seed * 1664525u + 1013904223u;
    return low + (high - low) * float(seed >> 8) / float(1u << 24);
  };
  for (unsigned i = 0; i < kCount; ++i) {
    at[i * 4 + 0] = next(-1.5f, 2.5f);
    at[i * 4 + 1] = next(-1.5f, 2.5f);
    at[i * 4 + 2] = next(-1.0f, 3.0f);
    at[i * 4 + 3] = float((i * 7 + i / 8) % 4);
  }
  Dispatch dispatch(kernel);
  for (unsigned b = 0; b < 3; ++b)
    dispatch.bindImage(0, b, &images[b]);
  dispatch.bindBuffer(0, 3, at.data(), at.size() * 4);
  dispatch.bindBuffer(0, 4, r.data(), r.size() * 4);
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {kCount / 16, 1, 1})),
            "<success>");
  for (unsigned i = 0; i < kCount; ++i) {
    unsigned mode = unsigned(at[i * 4 + 3]);
    double lambda = mode == 3 ? std::max<double>(at[i * 4 + 2], 0.0)
                              : double(at[i * 4 + 2]);
    for (unsigned c = 0; c < 4; ++c)
      EXPECT_NEAR(r[i * 4 + c],
                  reference(modes[mode], at[i * 4], at[i * 4 + 1], lambda, c),
                  1e-5)
          << "invocation " << i << " mode " << mode << " component " << c;
  }
}

TEST_F(Execution, SeparateSampledImagesFetchAndQuery) {
  // texture2D and utexture2DArray without samplers (as HLSL's Texture2D
  // Load): fetches by level and layer, and the queries. The 4x4 r32f level
  // 0 holds f(x, y) = x + 10y, its 2x2 level 1 holds 100 + x + 10y; the
  // r32ui array has 2 layers of 2x1 texels, 1000 * layer + x.
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform utexture2DArray layers;
layout(set = 0, binding = 2) buffer Out { float r[10]; };
void main() {
  r[0] = texelFetch(tex, ivec2(3, 2), 0).r;
  r[1] = texelFetch(tex, ivec2(1, 1), 1).r;
  r[2] = texelFetch(tex, ivec2(1, 1), 0).a; // r32f: alpha reads 1
  r[3] = float(textureSize(tex, 0).x);
  r[4] = float(textureSize(tex, 1).y);
  r[5] = float(textureQueryLevels(tex));
  r[6] = float(texelFetch(layers, ivec3(1, 0, 1), 0).x);
  r[7] = float(texelFetch(layers, ivec3(0, 0, 0), 0).x);
  r[8] = float(textureSize(layers, 0).z);
  r[9] = texelFetch(tex, ivec2(4, 0), 0).r; // outside: zero
}
)");
  ASSERT_TRUE(kernel);
  std::vector<float> texels;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      texels.push_back(float(x + 10 * y));
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x)
      texels.push_back(float(100 + x + 10 * y));
  spvb_image image = makeImage2D(texels.data(), texels.size() * 4,
                                 spv::ImageFormatR32f, 4, 4, 2);
  uint32_t layerTexels[4] = {0, 1, 1000, 1001};
  spvb_image array{};
  array.data = reinterpret_cast<uint8_t *>(layerTexels);
  array.format = 33; // R32ui
  array.dim = 1;
  array.extent[0] = 2;
  array.extent[1] = array.extent[2] = 1;
  array.layers = 2;
  array.levels = array.samples = 1;
  array.size = sizeof(layerTexels);
  float r[10];
  std::fill(std::begin(r), std::end(r), -1.0f);
  Dispatch dispatch(kernel);
  dispatch.bindImage(0, 0, &image);
  dispatch.bindImage(0, 1, &array);
  dispatch.bindBuffer(0, 2, r, sizeof(r));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_EQ(r[0], 23);  // 3 + 10 * 2
  EXPECT_EQ(r[1], 111); // level 1: 100 + 1 + 10
  EXPECT_EQ(r[2], 1);
  EXPECT_EQ(r[3], 4);
  EXPECT_EQ(r[4], 2);
  EXPECT_EQ(r[5], 2);
  EXPECT_EQ(r[6], 1001);
  EXPECT_EQ(r[7], 0);
  EXPECT_EQ(r[8], 2);
  EXPECT_EQ(r[9], 0);
}

TEST_F(Execution, SeparateSamplersSampleWithTheirSettings) {
  // One texture2D through three separate samplers and an array of two
  // (GLSL sampler2D(tex, smp), HLSL SamplerState). The 2x2 r32f image holds
  // 1 2 / 3 4 (x fastest). Nearest at (0.25, 0.25) is texel (0, 0), at
  // (0.75, 0.75) texel (1, 1). Linear at (0.5, 0.5) weighs all four texels
  // by 1/4: 2.5; at (0.5, 0.25) u = 0.5 * 2 - 0.5 = 0.5, v = 0: (1 + 2) / 2.
  // At u = 1.25, clamp to edge takes column 1 (texel 2), repeat wraps to
  // 0.25, column 0 (texel 1).
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler nearestClamp;
layout(set = 0, binding = 2) uniform sampler linearClamp;
layout(set = 1, binding = 0) uniform sampler modes[2];
layout(set = 0, binding = 3) buffer Out { float r[6]; int index; };
void main() {
  r[0] = textureLod(sampler2D(tex, nearestClamp), vec2(0.25, 0.25), 0.0).r;
  r[1] = textureLod(sampler2D(tex, nearestClamp), vec2(0.75, 0.75), 0.0).r;
  r[2] = textureLod(sampler2D(tex, linearClamp), vec2(0.5, 0.5), 0.0).r;
  r[3] = textureLod(sampler2D(tex, linearClamp), vec2(0.5, 0.25), 0.0).r;
  r[4] = textureLod(sampler2D(tex, modes[index]), vec2(1.25, 0.25), 0.0).r;
  r[5] = textureLod(sampler2D(tex, modes[0]), vec2(1.25, 0.25), 0.0).r;
}
)");
  ASSERT_TRUE(kernel);
  float texels[4] = {1, 2, 3, 4};
  spvb_image image =
      makeImage2D(texels, sizeof(texels), spv::ImageFormatR32f, 2, 2);
  // VkFilter nearest 0, linear 1; VkSamplerAddressMode repeat 0, clamp to
  // edge 2.
  spvb_sampler nearestClamp{};
  for (uint32_t &mode : nearestClamp.address_mode)
    mode = 2;
  spvb_sampler linearClamp = nearestClamp;
  linearClamp.mag_filter = linearClamp.min_filter = 1;
  spvb_sampler nearestRepeat{};
  struct {
    float r[6];
    int32_t index;
  } out;
  std::fill(std::begin(out.r), std::end(out.r), -1.0f);
  out.index = 1;
  Dispatch dispatch(kernel);
  dispatch.bindImage(0, 0, &image);
  dispatch.bindSampler(0, 1, &nearestClamp);
  dispatch.bindSampler(0, 2, &linearClamp);
  dispatch.bindSampler(1, 0, &nearestClamp, 0);
  dispatch.bindSampler(1, 0, &nearestRepeat, 1);
  dispatch.bindBuffer(0, 3, &out, sizeof(out));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_EQ(out.r[0], 1);
  EXPECT_EQ(out.r[1], 4);
  EXPECT_EQ(out.r[2], 2.5f);
  EXPECT_EQ(out.r[3], 1.5f);
  EXPECT_EQ(out.r[4], 1); // repeat
  EXPECT_EQ(out.r[5], 2); // clamp to edge
}

TEST_F(Execution, SeparateSamplerBindingIsChecked) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 0, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2) buffer Out { vec4 r; };
void main() { r = textureLod(sampler2D(tex, smp), vec2(0.5), 0.0); }
)");
  ASSERT_TRUE(kernel);
  float texel = 1;
  spvb_image image =
      makeImage2D(&texel, sizeof(texel), spv::ImageFormatR32f, 1, 1);
  float r[4];
  Dispatch dispatch(kernel);
  dispatch.bindImage(0, 0, &image);
  dispatch.bindBuffer(0, 1, r, sizeof(r));
  dispatch.bindBuffer(0, 2, r, sizeof(r));
  runtime::Launcher launcher(1);
  std::string text = errorText(dispatch.run(launcher, {1, 1, 1}));
  EXPECT_NE(text.find("the shader uses sampler 'smp' (set 0, binding 1) but "
                      "a buffer is bound to it"),
            std::string::npos)
      << text;
  dispatch.bindSampler(0, 0, nullptr);
  text = errorText(dispatch.run(launcher, {1, 1, 1}));
  EXPECT_NE(text.find("the shader uses sampled image 'tex' (set 0, binding 0) "
                      "but a sampler is bound to it"),
            std::string::npos)
      << text;
}

TEST_F(Execution, UnsupportedImageInstructionIsNamed) {
  auto kernel = jit->compileFile(dir.write("sparse.comp", R"(
#version 450
#extension GL_ARB_sparse_texture2 : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) buffer Out { vec4 r; };
void main() {
  vec4 texel;
  sparseTextureLodARB(tex, vec2(0.5), 0.0, texel);
  r = texel;
}
)"),
                                 CompileOptions());
  ASSERT_FALSE(static_cast<bool>(kernel));
  std::string text = errorText(kernel.takeError());
  EXPECT_NE(text.find("OpImageSparseSampleExplicitLod is not supported by the "
                      "runtime yet"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.rfind("error: ", 0), 0u) << text;
}

TEST_F(Execution, DepthCompareSampling) {
  // Each texel is compared with the reference before filtering: texels
  // 0.25 and 0.75 at u = 0.25 and 0.75; linear filtering halfway between
  // them averages their results (0 and 1 for reference 0.5 with LESS).
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform sampler2DShadow shadow;
layout(set = 0, binding = 1) buffer Out { float r[4]; };
void main() {
  r[0] = textureLod(shadow, vec3(0.25, 0.5, 0.5), 0.0);
  r[1] = textureLod(shadow, vec3(0.75, 0.5, 0.5), 0.0);
  r[2] = textureLod(shadow, vec3(0.5, 0.5, 0.5), 0.0);
  r[3] = textureLod(shadow, vec3(0.75, 0.5, 0.8), 0.0);
}
)");
  ASSERT_TRUE(kernel);
  float texels[2] = {0.25f, 0.75f};
  spvb_sampler sampler{};
  sampler.mag_filter = sampler.min_filter = 1; // linear
  for (uint32_t &mode : sampler.address_mode)
    mode = 2; // clamp to edge
  sampler.max_lod = 1000;
  sampler.compare_enable = 1;
  sampler.compare_op = 1; // VK_COMPARE_OP_LESS
  spvb_image image = makeImage2D(texels, sizeof(texels), spv::ImageFormatR32f,
                                 2, 1, 1, &sampler);
  float r[4] = {-1, -1, -1, -1};
  Dispatch dispatch(kernel);
  dispatch.bindImage(0, 0, &image);
  dispatch.bindBuffer(0, 1, r, sizeof(r));
  runtime::Launcher launcher(1);
  ASSERT_FALSE(static_cast<bool>(dispatch.run(launcher, {1, 1, 1})));
  EXPECT_EQ(r[0], 0.0f); // 0.5 < 0.25 fails
  EXPECT_EQ(r[1], 1.0f); // 0.5 < 0.75 passes
  EXPECT_EQ(r[2], 0.5f); // halfway: (0 + 1) / 2
  EXPECT_EQ(r[3], 0.0f); // 0.8 < 0.75 fails
}

TEST_F(Execution, FloatAtomicMinMaxAndAdd) {
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { float lo; float hi; float sum; float vals[]; };
shared float groupMax;
void main() {
  float v = vals[gl_GlobalInvocationID.x];
  atomicMin(lo, v);
  atomicMax(hi, v);
  atomicAdd(sum, 1.0);
  if (gl_LocalInvocationIndex == 0u) groupMax = -1000.0;
  barrier();
  atomicMax(groupMax, v);
  barrier();
  if (gl_LocalInvocationIndex == 0u) vals[gl_WorkGroupID.x] = groupMax;
}
)");
  ASSERT_TRUE(kernel);
  const uint32_t groups = 8, n = groups * 64;
  std::vector<float> data(3 + n);
  data[0] = 1e30f;
  data[1] = -1e30f;
  data[2] = 0;
  for (uint32_t i = 0; i < n; ++i)
    data[3 + i] = float(int(i * 37 % 1001) - 500) * 0.5f;
  std::vector<float> input(data.begin() + 3, data.end());
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, data.data(), data.size() * 4);
  runtime::Launcher launcher(2);
  ASSERT_EQ(errorText(dispatch.run(launcher, {groups, 1, 1})), "<success>");
  EXPECT_EQ(data[0], *std::min_element(input.begin(), input.end()));
  EXPECT_EQ(data[1], *std::max_element(input.begin(), input.end()));
  EXPECT_EQ(data[2], float(n));
  for (uint32_t g = 0; g < groups; ++g)
    EXPECT_EQ(data[3 + g], *std::max_element(input.begin() + g * 64,
                                             input.begin() + (g + 1) * 64))
        << g;
}

TEST_F(Execution, BuffersOnlyUnusedRelaxedAtomicsChangeGetThreadCopies) {
  auto kernel = compile(R"(
#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Bins { uint bins[16]; };
layout(set = 0, binding = 2) buffer Bits { uint bits[4]; };
layout(set = 0, binding = 3) buffer Wide { uint64_t wide[2]; };
layout(set = 0, binding = 4) buffer Used { uint count; uint last; };
layout(set = 0, binding = 5) buffer Ordered { uint released; };
layout(set = 0, binding = 6) buffer Mixed { uint mixed[2]; };
void main() {
  uint x = v[gl_GlobalInvocationID.x];
  atomicAdd(bins[x % 16u], 1u);
  atomicAdd(bins[(x >> 4) % 16u], -(x & 3u));
  atomicOr(bits[x % 4u], 1u << (x % 32u));
  atomicMax(wide[x % 2u], uint64_t(x) << 20);
  atomicMax(last, atomicAdd(count, 1u));
  atomicAdd(released, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
            gl_SemanticsRelease);
  atomicAdd(mixed[0], x);
  atomicOr(mixed[1], x);
}
)");
  ASSERT_TRUE(kernel);
  // Bins, Bits and Wide only: Used's results are read, Ordered's atomic
  // releases, Mixed's operations do not commute with each other.
  const std::vector<spvb_private_atomics> &copied =
      kernel->entry.privateAtomics;
  ASSERT_EQ(copied.size(), 3u);
  EXPECT_EQ(copied[0].slot, 1u);
  EXPECT_EQ(copied[0].operation, uint32_t(SPVB_PRIVATE_ATOMIC_ADD));
  EXPECT_EQ(copied[0].bytes, 4u);
  EXPECT_EQ(copied[1].slot, 2u);
  EXPECT_EQ(copied[1].operation, uint32_t(SPVB_PRIVATE_ATOMIC_OR));
  EXPECT_EQ(copied[2].slot, 3u);
  EXPECT_EQ(copied[2].operation, uint32_t(SPVB_PRIVATE_ATOMIC_UMAX));
  EXPECT_EQ(copied[2].bytes, 8u);

  const uint32_t groups = 96, n = groups * 64;
  std::vector<uint32_t> input(n);
  uint32_t seed = 12345;
  for (uint32_t &x : input)
    x = (seed = seed * 1103515245u + 12345u) >> 8;
  std::vector<uint32_t> bins(16, 7), bits(4, 0x80000000u), used(2, 0),
      released(1, 0), mixed(2, 0);
  std::vector<uint64_t> wide = {0, uint64_t(1) << 50};
  std::vector<uint32_t> expectBins = bins, expectBits = bits,
                        expectMixed = mixed;
  std::vector<uint64_t> expectWide = wide;
  for (uint32_t x : input) {
    expectBins[x % 16] += 1;
    expectBins[(x >> 4) % 16] -= x & 3;
    expectBits[x % 4] |= 1u << (x % 32);
    expectWide[x % 2] = std::max(expectWide[x % 2], uint64_t(x) << 20);
    expectMixed[0] += x;
    expectMixed[1] |= x;
  }
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, input.data(), input.size() * 4);
  dispatch.bindBuffer(0, 1, bins.data(), bins.size() * 4);
  dispatch.bindBuffer(0, 2, bits.data(), bits.size() * 4);
  dispatch.bindBuffer(0, 3, wide.data(), wide.size() * 8);
  dispatch.bindBuffer(0, 4, used.data(), used.size() * 4);
  dispatch.bindBuffer(0, 5, released.data(), released.size() * 4);
  dispatch.bindBuffer(0, 6, mixed.data(), mixed.size() * 4);
  runtime::Launcher launcher(4);
  // Twice: the threads' copies must start from zero again.
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(errorText(dispatch.run(launcher, {groups, 1, 1})), "<success>");
    EXPECT_EQ(bins, expectBins) << round;
    EXPECT_EQ(bits, expectBits) << round;
    EXPECT_EQ(wide, expectWide) << round;
    EXPECT_EQ(used[0], n * (round + 1)) << round;
    EXPECT_EQ(used[1], n * (round + 1) - 1) << round;
    EXPECT_EQ(released[0], n * (round + 1)) << round;
    EXPECT_EQ(mixed, expectMixed) << round;
    for (uint32_t x : input) {
      expectBins[x % 16] += 1;
      expectBins[(x >> 4) % 16] -= x & 3;
      expectMixed[0] += x;
    }
  }
}

TEST_F(Execution, ExplicitLayoutWorkgroupBlocksAlias) {
  // SPV_KHR_workgroup_memory_explicit_layout: both shared blocks start at
  // the workgroup memory's first byte, so b.v.y is a.words[1].
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_shared_memory_block : require
layout(local_size_x = 4) in;
shared A { uint words[4]; } a;
shared B { uvec4 v; } b;
layout(set = 0, binding = 0) buffer Out { uint r[4]; };
void main() {
  uint i = gl_LocalInvocationIndex;
  a.words[i] = i * 11u + 5u;
  barrier();
  r[i] = b.v[(i + 1u) % 4u];
}
)");
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel->entry.info.shared_memory_size, 16u);
  uint32_t r[4] = {0, 0, 0, 0};
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, r, sizeof(r));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  for (uint32_t i = 0; i < 4; ++i)
    EXPECT_EQ(r[i], ((i + 1) % 4) * 11 + 5) << i;
}

TEST_F(Execution, IntegerDotProducts) {
  // SPV_KHR_integer_dot_product through GL_EXT_spirv_intrinsics: an i32 dot
  // of two ivec2 (which MLIR's own op rejects), wrap-around, mixed
  // signedness, packed 4x8, and AccSat, which saturates the exact sum plus
  // the accumulator once.
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_spirv_intrinsics : require
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B {
  ivec4 a; ivec4 b; uvec4 ub; int acc; uint pa; uint pb; int r[7];
};
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6016], id = 4450)
int sdot2(ivec2 x, ivec2 y);
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6016], id = 4450)
int sdot4(ivec4 x, ivec4 y);
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6016], id = 4451)
uint udot4(uvec4 x, uvec4 y);
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6016], id = 4452)
int sudot4(ivec4 x, uvec4 y);
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6016], id = 4453)
int sdotAccSat(ivec4 x, ivec4 y, int acc);
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4450)
int spdot(uint x, uint y, spirv_literal uint format);
spirv_instruction (extensions = ["SPV_KHR_integer_dot_product"], capabilities = [6019, 6018], id = 4453)
int spdotAccSat(uint x, uint y, int acc, spirv_literal uint format);
void main() {
  r[0] = sdot2(a.xy, b.xy);
  r[1] = sdot4(a, b);
  r[2] = int(udot4(ub, ub));
  r[3] = sudot4(a, ub);
  r[4] = sdotAccSat(a, b, acc);
  r[5] = spdot(pa, pb, 0u);
  r[6] = spdotAccSat(pa, pb, acc, 0u);
}
)");
  ASSERT_TRUE(kernel);
  struct {
    int32_t a[4] = {65536, -3, 7, 2};
    int32_t b[4] = {65536, 5, 1, 4};
    uint32_t ub[4] = {1, 2, 3, 4};
    int32_t acc = INT32_MIN;
    uint32_t pa = 0xFC03FE01; // bytes 1, -2, 3, -4
    uint32_t pb = 0x08F90605; // bytes 5, 6, -7, 8
    int32_t r[7] = {0, 0, 0, 0, 0, 0, 0};
  } data;
  static_assert(sizeof(data) == 88, "std430 layout of B");
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, &data, sizeof(data));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_EQ(data.r[0], -15);       // 2^32 - 15 wraps
  EXPECT_EQ(data.r[1], 0);         // 2^32 - 15 + 7 + 8 wraps
  EXPECT_EQ(data.r[2], 30);        // 1 + 4 + 9 + 16
  EXPECT_EQ(data.r[3], 65559);     // 65536 - 6 + 21 + 8
  EXPECT_EQ(data.r[4], INT32_MAX); // 2^32 - 2^31 saturates
  EXPECT_EQ(data.r[5], -60);       // 5 - 12 - 21 - 32
  EXPECT_EQ(data.r[6], INT32_MIN); // -60 - 2^31 saturates
}

TEST_F(Execution, WildArrayIndicesStayInsideTheArray) {
  // Undefined in SPIR-V, but it must not reach the host's stack or heap:
  // dynamic indices into Function, Private and Workgroup arrays clamp to the
  // last element (negative ones too, as unsigned).
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 2) in;
layout(set = 0, binding = 0) buffer B { int index[2]; float r[6]; };
shared float s[4];
float p[3];
void main() {
  float f[4] = float[4](1.0, 2.0, 3.0, 4.0);
  uint i = gl_LocalInvocationIndex;
  p = float[3](5.0, 6.0, 7.0);
  s[index[i]] = 9.0 + float(i);
  barrier();
  r[i * 3u] = f[index[i]];
  r[i * 3u + 1u] = p[index[i]];
  r[i * 3u + 2u] = s[3];
}
)");
  ASSERT_TRUE(kernel);
  struct {
    int32_t index[2] = {1000000, -5};
    float r[6] = {0, 0, 0, 0, 0, 0};
  } data;
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, &data, sizeof(data));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  EXPECT_EQ(data.r[0], 4.0f);
  EXPECT_EQ(data.r[1], 7.0f);
  EXPECT_EQ(data.r[3], 4.0f);
  EXPECT_EQ(data.r[4], 7.0f);
  // Both invocations wrote s[3]; which one last is a race.
  EXPECT_TRUE(data.r[2] == 9.0f || data.r[2] == 10.0f) << data.r[2];
}

TEST_F(Execution, DescriptorArraysFixedAndRuntimeSized) {
  // in[] is runtime-sized: its elements are whatever is bound (3 here).
  // Element indices past either array pick its last element (undefined in
  // SPIR-V, but never a read past the binding table).
  auto kernel = compile(R"(
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } in_[];
layout(set = 0, binding = 1) buffer Out { uint v[4]; } out_[2];
layout(set = 1, binding = 0) buffer After { uint v; } after;
void main() {
  uint i = gl_LocalInvocationIndex;
  out_[0].v[i] = in_[nonuniformEXT(i)].v[0] + 10u * in_[i % 3u].v[1];
  out_[nonuniformEXT(i + 1u)].v[i] += 1000u;
  if (i == 0u)
    after.v = uint(in_[1].v.length()) * 100u + uint(in_[7].v.length());
}
)");
  ASSERT_TRUE(kernel);
  uint32_t in0[2] = {1, 2}, in1[3] = {3, 4, 5}, in2[4] = {6, 7, 8, 9};
  uint32_t out0[4] = {}, out1[4] = {};
  uint32_t after = 0;
  Dispatch dispatch(kernel);
  dispatch.bindBuffer(0, 0, in0, sizeof(in0), 0);
  dispatch.bindBuffer(0, 0, in1, sizeof(in1), 1);
  dispatch.bindBuffer(0, 0, in2, sizeof(in2), 2);
  dispatch.bindBuffer(0, 1, out0, sizeof(out0), 0);
  dispatch.bindBuffer(0, 1, out1, sizeof(out1), 1);
  dispatch.bindBuffer(1, 0, &after, sizeof(after));
  runtime::Launcher launcher(1);
  ASSERT_EQ(errorText(dispatch.run(launcher, {1, 1, 1})), "<success>");
  // in_[i] for i = 0..3 is in0, in1, in2, in2 (index 3 clamps to 2); the
  // second term reads in_[i % 3].v[1]: 2, 4, 7, 2.
  EXPECT_EQ(out0[0], 1u + 20u);
  EXPECT_EQ(out0[1], 3u + 40u);
  EXPECT_EQ(out0[2], 6u + 70u);
  EXPECT_EQ(out0[3], 6u + 20u);
  // out_[i + 1]: invocation 0 adds to out1[0]; 1, 2 and 3 clamp to out1.
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(out1[k], 1000u) << k;
  // in1 holds 3 uints; in_[7] clamps to in2 (4 uints).
  EXPECT_EQ(after, 304u);
}

TEST_F(Execution, MissingDescriptorArrayElementIsNamed) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 3) buffer Data { uint v; } data[];
void main() { data[2].v = 1u; }
)");
  ASSERT_TRUE(kernel);
  uint32_t a = 0, c = 0;
  Dispatch dispatch(kernel);
  // Elements 0 and 2 bound: the runtime-sized array has 3, element 1 is
  // missing.
  dispatch.bindBuffer(0, 3, &a, sizeof(a), 0);
  dispatch.bindBuffer(0, 3, &c, sizeof(c), 2);
  runtime::Launcher launcher(1);
  std::string error = errorText(dispatch.run(launcher, {1, 1, 1}));
  EXPECT_NE(error.find("the shader uses storage buffer 'data' (set 0, binding "
                       "3, element 1) but nothing is bound to it"),
            std::string::npos)
      << error;
}

TEST_F(Execution, MissingBindingIsNamed) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 1) in;
layout(set = 2, binding = 5) buffer Data { uint v[]; } data;
void main() { data.v[0] = 1u; }
)");
  ASSERT_TRUE(kernel);
  Dispatch dispatch(kernel);
  runtime::Launcher launcher(1);
  std::string error = errorText(dispatch.run(launcher, {1, 1, 1}));
  EXPECT_NE(error.find("the shader uses storage buffer 'data' (set 2, binding "
                       "5) but nothing is bound to it"),
            std::string::npos)
      << error;
}

} // namespace
