//===- LanesTest.cpp - Invocations in SIMD lanes, checked by reference ----===//
//
// Kernels whose invocations diverge (loops of different lengths, early
// returns, breaks, switches, private arrays, atomics) run in SIMD lanes and
// one invocation at a time (--vectorize=off); both must match a C++ loop
// computing the same thing, and the first must really have run in lanes.
//
//===----------------------------------------------------------------------===//
#include "KernelFixture.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace spvb;
using namespace spvb::test;

namespace {

class Lanes : public KernelFixture, public ::testing::WithParamInterface<bool> {
protected:
  bool vectorize() const { return GetParam(); }

  std::shared_ptr<const Kernel> compile(llvm::StringRef source) {
    CompileOptions options;
    options.vectorize = vectorize();
    auto kernel = compileGlsl(source, options);
    if (kernel) {
      // The vectorizer must not fall back silently.
      EXPECT_EQ(kernel->entry.info.workgroup_entry,
                vectorize() ? uint32_t(SPVB_WORKGROUP_ENTRY_LANES)
                            : uint32_t(SPVB_WORKGROUP_ENTRY_LOOP));
      if (vectorize()) {
        EXPECT_GE(kernel->entry.info.simd_lanes, 2u);
      }
    }
    return kernel;
  }

  /// Runs `kernel` over `groups` workgroups with buffer (0, i) = buffers[i].
  void run(const std::shared_ptr<const Kernel> &kernel, uint32_t groups,
           std::vector<std::vector<uint32_t> *> buffers) {
    run(kernel, {groups, 1, 1}, std::move(buffers));
  }
  void run(const std::shared_ptr<const Kernel> &kernel,
           std::array<uint32_t, 3> groups,
           std::vector<std::vector<uint32_t> *> buffers) {
    ASSERT_TRUE(kernel);
    Dispatch dispatch(kernel);
    for (size_t i = 0; i < buffers.size(); ++i)
      dispatch.bindBuffer(0, i, buffers[i]->data(), buffers[i]->size() * 4);
    runtime::Launcher launcher(2);
    EXPECT_EQ(errorText(dispatch.run(launcher, groups)), "<success>");
  }
};

INSTANTIATE_TEST_SUITE_P(Modes, Lanes, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "Lanes" : "OneByOne";
                         });

uint32_t collatzSteps(uint32_t n) {
  uint32_t steps = 0;
  while (n != 1 && steps < 1000) {
    n = n % 2 ? 3 * n + 1 : n / 2;
    ++steps;
  }
  return steps;
}

// A loop whose trip count differs per invocation; the value computed in the
// loop is used after it (each lane keeps its last iteration's value).
TEST_P(Lanes, DivergentLoopAndValuesLeavingIt) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint n = i + 1u;
  uint s = 0u;
  uint peak = n;
  while (n != 1u && s < 1000u) {
    n = (n % 2u == 1u) ? 3u * n + 1u : n / 2u;
    peak = max(peak, n);
    ++s;
  }
  r[2u * i] = s;
  r[2u * i + 1u] = peak;
}
)");
  const uint32_t n = 960;
  std::vector<uint32_t> out(2 * n, 7);
  run(kernel, n / 64, {&out});
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t value = i + 1, peak = value;
    for (uint32_t s = 0; value != 1 && s < 1000; ++s) {
      value = value % 2 ? 3 * value + 1 : value / 2;
      peak = std::max(peak, value);
    }
    ASSERT_EQ(out[2 * i], collatzSteps(i + 1)) << "invocation " << i;
    ASSERT_EQ(out[2 * i + 1], peak) << "invocation " << i;
  }
}

// Nested loops whose trip counts differ per invocation: lanes leave the
// inner loop at different iterations and enter it again on the next outer
// one, with values carried around both loops (lanes that left a loop go on
// computing on anything, even a divisor that reaches zero).
TEST_P(Lanes, NestedDivergentLoopsEnteredAgain) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint total = 0u;
  uint carried = i;
  for (uint outer = 0u; outer < i % 5u + 1u; ++outer) {
    uint inner = 0u;
    uint countdown = (i + outer) % 7u + 1u;
    while (countdown > 0u) {
      carried = carried * 3u + 1000u / countdown;
      --countdown;
      ++inner;
    }
    total += inner * (outer + 1u);
  }
  r[2u * i] = total;
  r[2u * i + 1u] = carried;
}
)");
  const uint32_t n = 192;
  std::vector<uint32_t> out(2 * n, 7);
  run(kernel, n / 64, {&out});
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t total = 0, carried = i;
    for (uint32_t outer = 0; outer < i % 5 + 1; ++outer) {
      uint32_t inner = 0;
      for (uint32_t countdown = (i + outer) % 7 + 1; countdown > 0;
           --countdown, ++inner)
        carried = carried * 3 + 1000 / countdown;
      total += inner * (outer + 1);
    }
    ASSERT_EQ(out[2 * i], total) << "invocation " << i;
    ASSERT_EQ(out[2 * i + 1], carried) << "invocation " << i;
  }
}

// Early return, break, continue and a switch, nested in a loop.
TEST_P(Lanes, EarlyReturnBreakContinueSwitch) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i % 11u == 3u)
    return;
  uint acc = 0u;
  for (uint k = 0u; k < 20u; ++k) {
    if (k == i % 13u)
      break;
    if ((k + i) % 3u == 0u)
      continue;
    switch ((k * 7u + i) % 4u) {
    case 0u: acc += k; break;
    case 1u: acc ^= k * 31u; break;
    case 2u: acc *= 3u; break;
    default: acc -= 1u; break;
    }
  }
  r[i] = acc;
}
)");
  const uint32_t n = 96;
  std::vector<uint32_t> out(n, 12345);
  run(kernel, n / 32, {&out});
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 11 == 3) {
      EXPECT_EQ(out[i], 12345u) << "invocation " << i << " returned early";
      continue;
    }
    uint32_t acc = 0;
    for (uint32_t k = 0; k < 20; ++k) {
      if (k == i % 13)
        break;
      if ((k + i) % 3 == 0)
        continue;
      switch ((k * 7 + i) % 4) {
      case 0:
        acc += k;
        break;
      case 1:
        acc ^= k * 31;
        break;
      case 2:
        acc *= 3;
        break;
      default:
        acc -= 1;
        break;
      }
    }
    EXPECT_EQ(out[i], acc) << "invocation " << i;
  }
}

// A private array indexed by values that differ per invocation, a global
// (Private) variable, and a workgroup that is not a multiple of the lanes.
TEST_P(Lanes, PrivateArraysAndOddWorkgroups) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 7, local_size_y = 3) in;
layout(set = 0, binding = 0) buffer Out { uint r[]; };
uint calls = 0u;
uint bump(uint v) { calls += 1u; return v + calls; }
void main() {
  uint i = gl_LocalInvocationIndex + 21u * gl_WorkGroupID.x;
  uint a[8];
  for (uint k = 0u; k < 8u; ++k)
    a[k] = (i * 2654435761u + k * 40503u) % 1000u;
  for (uint p = 0u; p < 8u; ++p)       // bubble sort: data-dependent swaps
    for (uint q = 0u; q + 1u < 8u - p; ++q)
      if (a[q] > a[q + 1u]) { uint t = a[q]; a[q] = a[q + 1u]; a[q + 1u] = t; }
  uint pick = a[i % 8u];
  r[4u * i] = pick;
  r[4u * i + 1u] = bump(gl_LocalInvocationID.x) + bump(gl_LocalInvocationID.y);
  r[4u * i + 2u] = gl_GlobalInvocationID.x * 100u + gl_GlobalInvocationID.y;
  r[4u * i + 3u] = a[0] + a[7];
}
)");
  const uint32_t groups = 3, n = 21 * groups;
  std::vector<uint32_t> out(4 * n, 0);
  run(kernel, groups, {&out});
  for (uint32_t g = 0; g < groups; ++g)
    for (uint32_t y = 0; y < 3; ++y)
      for (uint32_t x = 0; x < 7; ++x) {
        uint32_t i = x + 7 * y + 21 * g;
        uint32_t a[8];
        for (uint32_t k = 0; k < 8; ++k)
          a[k] = (i * 2654435761u + k * 40503u) % 1000u;
        std::sort(a, a + 8);
        EXPECT_EQ(out[4 * i], a[i % 8]) << "invocation " << i;
        // calls starts at 0 in every invocation: (x + 1) + (y + 2).
        EXPECT_EQ(out[4 * i + 1], x + 1 + y + 2) << "invocation " << i;
        EXPECT_EQ(out[4 * i + 2], (g * 7 + x) * 100 + y) << "invocation " << i;
        EXPECT_EQ(out[4 * i + 3], a[0] + a[7]) << "invocation " << i;
      }
}

// Atomics run lane by lane: every invocation gets its own slot, and a
// histogram adds up, also from inside a divergent branch.
TEST_P(Lanes, AtomicsInDivergentCode) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint next; uint bins[8]; } c;
layout(set = 0, binding = 1) buffer Slots { uint owner[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i % 3u != 0u) {
    uint slot = atomicAdd(c.next, 1u);
    owner[slot] = i;
  }
  atomicAdd(c.bins[(i * i) % 8u], i);
}
)");
  const uint32_t n = 640;
  std::vector<uint32_t> counter(9, 0), owners(n, ~0u);
  run(kernel, n / 64, {&counter, &owners});
  std::vector<uint32_t> expectedOwners, bins(8, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 3 != 0)
      expectedOwners.push_back(i);
    bins[(i * i) % 8] += i;
  }
  ASSERT_EQ(counter[0], expectedOwners.size());
  std::vector<uint32_t> got(owners.begin(),
                            owners.begin() + expectedOwners.size());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expectedOwners);
  for (uint32_t b = 0; b < 8; ++b)
    EXPECT_EQ(counter[1 + b], bins[b]) << "bin " << b;
}

// Single-thread atomics (Workgroup memory, a buffer only unused atomics
// change) on one element per lane are vector accesses in lanes: with every
// lane active, under a mask, and with their old values used.
TEST_P(Lanes, AtomicsOnOneElementPerLane) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Sums { uint sums[64]; };
layout(set = 0, binding = 2) buffer Out { uint r[]; };
shared uint sh[64];
void main() {
  uint i = gl_LocalInvocationIndex;
  uint x = v[gl_GlobalInvocationID.x];
  uint a = atomicAdd(sh[i], x);
  uint b = atomicOr(sh[i], 1u << (i % 32u));
  uint c = 0u;
  if ((x & 1u) != 0u)
    c = atomicMax(sh[i], 7u);
  if (x % 3u != 0u)
    atomicAdd(sums[i], x);
  r[gl_GlobalInvocationID.x] = a + b * 3u + c * 5u + sh[i] * 7u;
}
)");
  ASSERT_TRUE(kernel);
  // Sums is the only buffer each thread changes in a copy.
  ASSERT_EQ(kernel->entry.privateAtomics.size(), 1u);
  EXPECT_EQ(kernel->entry.privateAtomics[0].slot, 1u);
  const uint32_t groups = 24, n = groups * 64;
  std::vector<uint32_t> input(n), sums(64, 1), out(n, 0);
  for (uint32_t k = 0; k < n; ++k)
    input[k] = (k * 2654435761u) >> 22;
  std::vector<uint32_t> expectSums = sums, expectOut(n);
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t i = k % 64, x = input[k];
    uint32_t shared = x | (1u << (i % 32));
    uint32_t c = 0;
    if (x & 1) {
      c = shared;
      shared = std::max(shared, 7u);
    }
    if (x % 3)
      expectSums[i] += x;
    expectOut[k] = 0 + x * 3 + c * 5 + shared * 7;
  }
  run(kernel, groups, {&input, &sums, &out});
  EXPECT_EQ(sums, expectSums);
  EXPECT_EQ(out, expectOut);
}

// Adds of the active lanes to one address are one atomic of their sum,
// each lane's old value the sum before it: sorted by old value, the lanes'
// adds chain from the start value to the total with no gap or overlap.
TEST_P(Lanes, AddsToOneAddressChain) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint total; uint count; } c;
layout(set = 0, binding = 1) buffer Olds { uint olds[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint v = (i * 7u) % 13u + 1u;
  olds[i] = 0xffffffffu;
  if (i % 5u != 2u)
    olds[i] = atomicAdd(c.total, v);
  atomicAdd(c.count, 1u);
}
)");
  const uint32_t groups = 10, n = groups * 64;
  std::vector<uint32_t> counter = {100, 0}, olds(n, 0);
  run(kernel, groups, {&counter, &olds});
  std::vector<std::pair<uint32_t, uint32_t>> adds; // (old value, added)
  uint32_t total = 100;
  for (uint32_t i = 0; i < n; ++i) {
    if (i % 5 == 2) {
      EXPECT_EQ(olds[i], 0xffffffffu) << i;
      continue;
    }
    adds.push_back({olds[i], (i * 7) % 13 + 1});
    total += (i * 7) % 13 + 1;
  }
  std::sort(adds.begin(), adds.end());
  uint32_t expected = 100;
  for (const auto &[old, added] : adds) {
    ASSERT_EQ(old, expected);
    expected += added;
  }
  EXPECT_EQ(counter[0], total);
  EXPECT_EQ(counter[1], n);
}

// A workgroup whose rows are narrower than the registers runs one row per
// chunk, so that y is the same across the lanes and a row of an image is
// one line: an 8x4x2 workgroup in min(host lanes, 8) lanes.
TEST_P(Lanes, NarrowRowsRunOneRowPerChunk) {
  auto wide = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint b[]; };
void main() { b[gl_GlobalInvocationID.x] += 1u; }
)");
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0) readonly buffer Image { uint pixels[]; };
layout(set = 0, binding = 1) buffer Out { uint r[]; };
void main() {
  uvec3 g = gl_GlobalInvocationID;
  uint width = 8u * gl_NumWorkGroups.x + 1u;
  uint row = (g.z * 4u * gl_NumWorkGroups.y + g.y) * width;
  r[row + g.x] = pixels[row + g.x] * 3u + pixels[row + g.x + 1u] +
                 g.y * 1000u + g.z * 100000u;
}
)");
  ASSERT_TRUE(wide);
  ASSERT_TRUE(kernel);
  if (vectorize()) {
    EXPECT_EQ(kernel->entry.info.simd_lanes,
              std::min(wide->entry.info.simd_lanes, 8u));
  }
  const uint32_t groupsX = 3, groupsY = 2, width = 8 * groupsX + 1;
  const uint32_t rows = 4 * groupsY * 2, n = rows * width;
  std::vector<uint32_t> pixels(n), out(n, 0), expected(n, 0);
  for (uint32_t i = 0; i < n; ++i)
    pixels[i] = i * 7 + 3;
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 4 * groupsY; ++y)
      for (uint32_t x = 0; x < 8 * groupsX; ++x) {
        uint32_t row = (z * 4 * groupsY + y) * width;
        expected[row + x] =
            pixels[row + x] * 3 + pixels[row + x + 1] + y * 1000 + z * 100000;
      }
  run(kernel, {groupsX, groupsY, 1}, {&pixels, &out});
  EXPECT_EQ(out, expected);
}

// Math functions of whole vectors (libmvec) against the C library, within
// the 2^-11 absolute error Vulkan allows sin and cos and 3 + 2|x| ulp for
// exp; divisions in inactive lanes must not trap.
TEST_P(Lanes, VectorMathAndDivisionsInInactiveLanes) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { float r[]; };
layout(set = 0, binding = 1) buffer Div { uint d[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  float x = float(i) * 0.0625 - 8.0;
  r[2u * i] = sin(x) + cos(2.0 * x);
  r[2u * i + 1u] = exp(x * 0.25);
  if (d[i] != 0u)
    d[i] = 1000000u / d[i] + 1000000u % d[i];
}
)");
  const uint32_t n = 256;
  std::vector<uint32_t> out(2 * n, 0), div(n);
  for (uint32_t i = 0; i < n; ++i)
    div[i] = i % 4 == 0 ? 0 : i * 7 + 1;
  run(kernel, n / 64, {&out, &div});
  for (uint32_t i = 0; i < n; ++i) {
    float x = float(i) * 0.0625f - 8.0f;
    float got[2];
    std::memcpy(got, &out[2 * i], 8);
    EXPECT_NEAR(got[0], std::sin(x) + std::cos(2.0f * x), 2 * 0x1p-11)
        << "invocation " << i;
    EXPECT_NEAR(got[1], std::exp(x * 0.25f), 1e-5f * std::exp(x * 0.25f))
        << "invocation " << i;
    uint32_t d = i % 4 == 0 ? 0 : i * 7 + 1;
    EXPECT_EQ(div[i], d ? 1000000u / d + 1000000u % d : 0u)
        << "invocation " << i;
  }
}

// Struct results (compare-exchange, frexp) come back one vector per field;
// dot products are reductions over the scalarized vectors.
TEST_P(Lanes, CompareExchangeFrexpAndDotProducts) {
  auto kernel = compile(R"(
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Flags { uint flag[]; };
layout(set = 0, binding = 1) buffer Out { int r[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  // Invocations 2k and 2k + 1 race for flag[k]: exactly one of each pair
  // swaps 0 for its id + 1 and sees 0.
  uint old = atomicCompSwap(flag[i / 2u], 0u, i + 1u);
  r[3u * i] = old == 0u ? 1 : 0;
  int e;
  float m = frexp(float(i) + 0.5, e);
  r[3u * i + 1] = e * 1000 + int(m * 512.0);
  vec3 a = vec3(float(i), 2.0, -1.0), b = vec3(3.0, float(i % 5u), 4.0);
  r[3u * i + 2] = int(dot(a, b));
}
)");
  const uint32_t n = 64;
  std::vector<uint32_t> flags(n / 2, 0), out(3 * n, 99);
  run(kernel, n / 16, {&flags, &out});
  for (uint32_t k = 0; k < n / 2; ++k) {
    EXPECT_EQ(out[3 * (2 * k)] + out[3 * (2 * k + 1)], 1u) << "pair " << k;
    uint32_t winner = out[3 * (2 * k)] ? 2 * k : 2 * k + 1;
    EXPECT_EQ(flags[k], winner + 1) << "pair " << k;
  }
  for (uint32_t i = 0; i < n; ++i) {
    int e;
    float m = std::frexp(float(i) + 0.5f, &e);
    EXPECT_EQ(int32_t(out[3 * i + 1]), e * 1000 + int(m * 512.0f))
        << "invocation " << i;
    EXPECT_EQ(int32_t(out[3 * i + 2]), int(3 * i + 2 * (i % 5) - 4))
        << "invocation " << i;
  }
}

} // namespace
