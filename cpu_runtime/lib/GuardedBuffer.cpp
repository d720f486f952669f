//===- GuardedBuffer.cpp - Shader memory between guard regions ------------===//
#include "spvbridge/cpu_runtime/GuardedBuffer.h"

#include "llvm/Support/Alignment.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

using namespace spvb::runtime;

/// Address space only: reserving it costs no memory.
static constexpr uint64_t kGuardBefore = uint64_t(8) << 30;
static constexpr uint64_t kGuardAfter = uint64_t(16) << 30;

uint64_t GuardedBuffer::getAlignment(uint64_t size) {
  if (size == 0)
    return 16;
  return std::clamp<uint64_t>(size & -size, 4, 16);
}

GuardedBuffer::GuardedBuffer(uint64_t size) { allocate(size); }

GuardedBuffer::GuardedBuffer(llvm::ArrayRef<uint8_t> initial) {
  allocate(initial.size());
  if (!initial.empty())
    std::memcpy(bytes, initial.data(), initial.size());
}

GuardedBuffer::GuardedBuffer(const GuardedBuffer &other)
    : GuardedBuffer(llvm::ArrayRef<uint8_t>(other)) {
  if (!other.mapping)
    release();
}

GuardedBuffer::GuardedBuffer(GuardedBuffer &&other)
    : bytes(std::exchange(other.bytes, nullptr)),
      length(std::exchange(other.length, 0)),
      mapping(std::exchange(other.mapping, nullptr)),
      mappingSize(std::exchange(other.mappingSize, 0)) {}

GuardedBuffer &GuardedBuffer::operator=(const GuardedBuffer &other) {
  if (this != &other)
    *this = GuardedBuffer(other);
  return *this;
}

GuardedBuffer &GuardedBuffer::operator=(GuardedBuffer &&other) {
  if (this == &other)
    return *this;
  release();
  bytes = std::exchange(other.bytes, nullptr);
  length = std::exchange(other.length, 0);
  mapping = std::exchange(other.mapping, nullptr);
  mappingSize = std::exchange(other.mappingSize, 0);
  return *this;
}

GuardedBuffer::~GuardedBuffer() { release(); }

void GuardedBuffer::assign(llvm::ArrayRef<uint8_t> newBytes) {
  if (newBytes.size() == length && mapping) {
    if (length)
      std::memmove(bytes, newBytes.data(), length);
    return;
  }
  *this = GuardedBuffer(newBytes);
}

void GuardedBuffer::resize(uint64_t newSize) {
  if (newSize == length && mapping)
    return;
  GuardedBuffer resized(newSize);
  if (uint64_t kept = std::min(newSize, length))
    std::memcpy(resized.bytes, bytes, kept);
  *this = std::move(resized);
}

void GuardedBuffer::allocate(uint64_t size) {
  uint64_t page = sysconf(_SC_PAGESIZE);
  uint64_t dataSpan = llvm::alignTo(size, page);
  // Should the address space be limited (ulimit -v), a page on each side
  // still catches the commonest bug, the first bytes past the end.
  for (auto [before, after] :
       {std::pair(kGuardBefore, kGuardAfter), std::pair(page, page)}) {
    uint64_t total = before + dataSpan + after;
    void *reserved = mmap(nullptr, total, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
      continue;
    auto *dataPages = static_cast<uint8_t *>(reserved) + before;
    if (dataSpan &&
        mprotect(dataPages, dataSpan, PROT_READ | PROT_WRITE) != 0) {
      munmap(reserved, total);
      continue;
    }
    uintptr_t start = reinterpret_cast<uintptr_t>(dataPages + dataSpan - size);
    bytes =
        reinterpret_cast<uint8_t *>(llvm::alignDown(start, getAlignment(size)));
    length = size;
    mapping = reserved;
    mappingSize = total;
    return;
  }
  llvm::report_bad_alloc_error("spvbridge: cannot map memory for a buffer");
}

void GuardedBuffer::release() {
  if (mapping)
    munmap(mapping, mappingSize);
  bytes = nullptr;
  length = 0;
  mapping = nullptr;
  mappingSize = 0;
}
