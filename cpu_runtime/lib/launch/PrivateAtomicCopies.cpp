//===- PrivateAtomicCopies.cpp - Per-thread copies of atomic buffers ------===//
#include "PrivateAtomicCopies.h"

#include <algorithm>

using namespace spvb::runtime;

/// Whether slot `slot`'s range overlaps another binding's.
static bool overlapsOtherBinding(const spvb_dispatch &dispatch, uint32_t slot) {
  const spvb_binding &own = dispatch.bindings[slot];
  for (uint32_t other = 0; other < dispatch.binding_count; ++other) {
    const spvb_binding &binding = dispatch.bindings[other];
    if (other != slot && binding.base && binding.size &&
        binding.base < own.base + own.size &&
        own.base < binding.base + binding.size)
      return true;
  }
  return false;
}

unsigned PrivateAtomicCopies::prepare(const KernelEntry &kernel,
                                      const spvb_dispatch &dispatch,
                                      unsigned threadCount) {
  original = &dispatch;
  buffers.clear();
  uint64_t bytes = 0;
  for (const spvb_private_atomics &buffer : kernel.privateAtomics) {
    if (buffer.slot >= dispatch.binding_count)
      continue;
    const spvb_binding &binding = dispatch.bindings[buffer.slot];
    if (!binding.base || !binding.size)
      continue;
    // Another binding could see the copy: one thread changes it in place.
    if (overlapsOtherBinding(dispatch, buffer.slot))
      return 1;
    buffers.push_back(buffer);
    bytes += binding.size;
  }
  if (buffers.empty())
    return threadCount;
  threadCount = std::min<uint64_t>(threadCount, kMaxCopyBytes / bytes);
  if (threadCount <= 1) {
    buffers.clear();
    return 1;
  }
  if (threads.size() < threadCount)
    threads.resize(threadCount);
  for (unsigned t = 0; t < threadCount; ++t) {
    ThreadCopies &own = threads[t];
    own.bindings.assign(dispatch.bindings,
                        dispatch.bindings + dispatch.binding_count);
    own.copies.resize(buffers.size());
    for (size_t i = 0; i < buffers.size(); ++i) {
      spvb_binding &binding = own.bindings[buffers[i].slot];
      // The fold leaves a copy zeroed for the next dispatch.
      if (own.copies[i].size() != binding.size)
        own.copies[i] = GuardedBuffer(binding.size);
      binding.base = own.copies[i].data();
    }
    own.dispatch = dispatch;
    own.dispatch.bindings = own.bindings.data();
  }
  return threadCount;
}

const spvb_dispatch &PrivateAtomicCopies::getDispatch(unsigned thread) const {
  return buffers.empty() ? *original : threads[thread].dispatch;
}

/// Folds `count` elements of `copy` into `buffer` with `operation`
/// (atomically: other threads fold into the same buffer), zeroing `copy`.
template <typename T>
static void foldCopy(T *buffer, T *copy, uint64_t count, uint32_t operation) {
  for (uint64_t i = 0; i < count; ++i) {
    T value = copy[i];
    if (!value)
      continue;
    copy[i] = 0;
    switch (operation) {
    case SPVB_PRIVATE_ATOMIC_ADD:
      __atomic_fetch_add(&buffer[i], value, __ATOMIC_RELAXED);
      break;
    case SPVB_PRIVATE_ATOMIC_OR:
      __atomic_fetch_or(&buffer[i], value, __ATOMIC_RELAXED);
      break;
    case SPVB_PRIVATE_ATOMIC_XOR:
      __atomic_fetch_xor(&buffer[i], value, __ATOMIC_RELAXED);
      break;
    case SPVB_PRIVATE_ATOMIC_UMAX: {
      T old = __atomic_load_n(&buffer[i], __ATOMIC_RELAXED);
      while (old < value &&
             !__atomic_compare_exchange_n(&buffer[i], &old, value,
                                          /*weak=*/true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED)) {
      }
      break;
    }
    }
  }
}

void PrivateAtomicCopies::fold(unsigned thread) {
  if (buffers.empty())
    return;
  ThreadCopies &own = threads[thread];
  for (size_t i = 0; i < buffers.size(); ++i) {
    const spvb_private_atomics &buffer = buffers[i];
    uint8_t *target = original->bindings[buffer.slot].base;
    uint8_t *copy = own.copies[i].data();
    uint64_t count = own.copies[i].size() / buffer.bytes;
    if (buffer.bytes == 8)
      foldCopy(reinterpret_cast<uint64_t *>(target),
               reinterpret_cast<uint64_t *>(copy), count, buffer.operation);
    else
      foldCopy(reinterpret_cast<uint32_t *>(target),
               reinterpret_cast<uint32_t *>(copy), count, buffer.operation);
  }
}

uintptr_t PrivateAtomicCopies::toBufferAddress(unsigned thread,
                                               uintptr_t address) const {
  if (buffers.empty())
    return address;
  const ThreadCopies &own = threads[thread];
  for (size_t i = 0; i < buffers.size(); ++i)
    if (own.copies[i].covers(address))
      return reinterpret_cast<uintptr_t>(
                 original->bindings[buffers[i].slot].base) +
             (address - reinterpret_cast<uintptr_t>(own.copies[i].data()));
  return address;
}
