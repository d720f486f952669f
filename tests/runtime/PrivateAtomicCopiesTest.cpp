//===- PrivateAtomicCopiesTest.cpp - Threads' copies of atomic buffers ----===//
#include "launch/PrivateAtomicCopies.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace spvb::runtime;

namespace {

KernelEntry makeKernel(std::vector<spvb_private_atomics> buffers) {
  KernelEntry kernel;
  kernel.privateAtomics = std::move(buffers);
  return kernel;
}

spvb_dispatch makeDispatch(std::vector<spvb_binding> &bindings) {
  spvb_dispatch dispatch{};
  dispatch.binding_count = bindings.size();
  dispatch.bindings = bindings.data();
  return dispatch;
}

template <typename T>
T *copyOf(const PrivateAtomicCopies &copies, unsigned thread, uint32_t slot) {
  return reinterpret_cast<T *>(copies.getDispatch(thread).bindings[slot].base);
}

} // namespace

TEST(PrivateAtomicCopies, EachThreadFoldsItsCopyWithTheOperation) {
  uint32_t sums[4] = {10, 20, 30, 40};
  uint32_t bits[2] = {0x100, 0x1};
  uint32_t flips[2] = {0xff, 0};
  uint64_t maxima[2] = {5, uint64_t(1) << 40};
  std::vector<spvb_binding> bindings = {
      {reinterpret_cast<uint8_t *>(sums), sizeof(sums)},
      {reinterpret_cast<uint8_t *>(bits), sizeof(bits)},
      {reinterpret_cast<uint8_t *>(flips), sizeof(flips)},
      {reinterpret_cast<uint8_t *>(maxima), sizeof(maxima)}};
  spvb_dispatch dispatch = makeDispatch(bindings);
  KernelEntry kernel = makeKernel({{0, SPVB_PRIVATE_ATOMIC_ADD, 4},
                                   {1, SPVB_PRIVATE_ATOMIC_OR, 4},
                                   {2, SPVB_PRIVATE_ATOMIC_XOR, 4},
                                   {3, SPVB_PRIVATE_ATOMIC_UMAX, 8}});
  PrivateAtomicCopies copies;
  // Two dispatches: the first fold must leave the copies zeroed.
  for (int round = 0; round < 2; ++round) {
    copies.prepare(kernel, dispatch, 2);
    for (unsigned t = 0; t < 2; ++t) {
      for (uint32_t slot = 0; slot < 4; ++slot) {
        ASSERT_NE(copies.getDispatch(t).bindings[slot].base,
                  bindings[slot].base);
        EXPECT_EQ(copies.getDispatch(t).bindings[slot].size,
                  bindings[slot].size);
      }
      uint32_t *sum = copyOf<uint32_t>(copies, t, 0);
      EXPECT_EQ(sum[0] | sum[1] | sum[2] | sum[3], 0u);
      sum[1] += 1 + t; // threads 0 and 1 add 1 and 2
      sum[3] -= 1;     // an OpAtomicISub of 1, twice: wraps to -2
      copyOf<uint32_t>(copies, t, 1)[t] |= 0x10 << t;
      copyOf<uint32_t>(copies, t, 2)[0] ^= 0x0f;
      copyOf<uint64_t>(copies, t, 3)[t] = t ? 7 : 9;
    }
    copies.fold(0);
    copies.fold(1);
  }
  EXPECT_EQ(sums[0], 10u);
  EXPECT_EQ(sums[1], 20u + 2 * 3);
  EXPECT_EQ(sums[2], 30u);
  EXPECT_EQ(sums[3], 40u - 4);
  EXPECT_EQ(bits[0], 0x110u);
  EXPECT_EQ(bits[1], 0x21u);
  // Four xors of 0x0f cancel out.
  EXPECT_EQ(flips[0], 0xffu);
  EXPECT_EQ(flips[1], 0u);
  EXPECT_EQ(maxima[0], 9u);
  EXPECT_EQ(maxima[1], uint64_t(1) << 40);
}

TEST(PrivateAtomicCopies, BuffersAnotherBindingOverlapsChangeInPlace) {
  uint32_t memory[8] = {};
  std::vector<spvb_binding> bindings = {
      {reinterpret_cast<uint8_t *>(memory), 16},
      {reinterpret_cast<uint8_t *>(memory + 2), 16}};
  spvb_dispatch dispatch = makeDispatch(bindings);
  KernelEntry kernel = makeKernel({{0, SPVB_PRIVATE_ATOMIC_ADD, 4}});
  PrivateAtomicCopies copies;
  EXPECT_EQ(copies.prepare(kernel, dispatch, 2), 1u);
  EXPECT_EQ(&copies.getDispatch(0), &dispatch);
  // Side by side, they do not overlap.
  bindings[1].base = reinterpret_cast<uint8_t *>(memory + 4);
  EXPECT_EQ(copies.prepare(kernel, dispatch, 2), 2u);
  EXPECT_NE(copies.getDispatch(1).bindings[0].base, bindings[0].base);
  EXPECT_EQ(copies.getDispatch(1).bindings[1].base, bindings[1].base);
  copies.fold(0);
  copies.fold(1);
  // One thread needs no copy.
  EXPECT_EQ(copies.prepare(kernel, dispatch, 1), 1u);
  EXPECT_EQ(&copies.getDispatch(0), &dispatch);
}

TEST(PrivateAtomicCopies, CopiesThatDoNotFitTakeThreadsAway) {
  // Addresses only: nothing reads the buffer without a fold.
  uint64_t size = PrivateAtomicCopies::kMaxCopyBytes / 3 + 4;
  std::vector<spvb_binding> bindings = {
      {reinterpret_cast<uint8_t *>(uintptr_t(1) << 40), size}};
  spvb_dispatch dispatch = makeDispatch(bindings);
  KernelEntry kernel = makeKernel({{0, SPVB_PRIVATE_ATOMIC_ADD, 4}});
  PrivateAtomicCopies copies;
  EXPECT_EQ(copies.prepare(kernel, dispatch, 8), 2u);
  EXPECT_NE(copies.getDispatch(1).bindings[0].base, bindings[0].base);
  bindings[0].size = PrivateAtomicCopies::kMaxCopyBytes / 2 + 4;
  EXPECT_EQ(copies.prepare(kernel, dispatch, 8), 1u);
  EXPECT_EQ(&copies.getDispatch(0), &dispatch);
}

TEST(PrivateAtomicCopies, FaultsInACopyNameTheBuffer) {
  uint32_t bins[16] = {};
  std::vector<spvb_binding> bindings = {
      {reinterpret_cast<uint8_t *>(bins), sizeof(bins)}};
  spvb_dispatch dispatch = makeDispatch(bindings);
  PrivateAtomicCopies copies;
  copies.prepare(makeKernel({{0, SPVB_PRIVATE_ATOMIC_ADD, 4}}), dispatch, 2);
  auto copy =
      reinterpret_cast<uintptr_t>(copies.getDispatch(1).bindings[0].base);
  auto buffer = reinterpret_cast<uintptr_t>(bins);
  EXPECT_EQ(copies.toBufferAddress(1, copy + 12), buffer + 12);
  // Past the end, in the copy's guard region.
  EXPECT_EQ(copies.toBufferAddress(1, copy + 64 + 8), buffer + 64 + 8);
  EXPECT_EQ(copies.toBufferAddress(1, 0x1000), uintptr_t(0x1000));
  copies.fold(0);
  copies.fold(1);
}
