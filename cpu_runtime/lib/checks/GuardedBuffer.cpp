//===- GuardedBuffer.cpp - Shader memory between guard regions ------------===//
#include "spvbridge/cpu_runtime/GuardedBuffer.h"

#include "llvm/Support/Alignment.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

using namespace spvb::runtime;

/// Address space only: reserving it costs no memory.
static constexpr uint64_t kGuardBefore = uint64_t(8) << 30;
static constexpr uint64_t kGuardAfter = uint64_t(16) << 30;

namespace {

/// Mappings released for reuse. Every draw and dispatch gives each thread a
/// runner with buffers of its own; mapping and unmapping their reservations
/// each time took a tenth of a small draw, the threads waiting on each
/// other for the address space's lock.
class MappingCache {
public:
  struct Mapping {
    void *mapping;
    uint64_t mappingSize, before, dataSpan;
  };

  /// A released mapping with `dataSpan` bytes of data, zeroed.
  bool take(uint64_t dataSpan, Mapping &found) {
    std::lock_guard<std::mutex> lock(mutex);
    for (size_t i = kept.size(); i-- > 0;) {
      if (kept[i].dataSpan != dataSpan)
        continue;
      found = kept[i];
      kept.erase(kept.begin() + i);
      keptBytes -= dataSpan;
      std::memset(static_cast<uint8_t *>(found.mapping) + found.before, 0,
                  dataSpan);
      return true;
    }
    return false;
  }

  /// Keeps `released` if there is room, else unmaps it.
  void give(const Mapping &released) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (released.dataSpan <= kMaxBytes / 8 &&
          keptBytes + released.dataSpan <= kMaxBytes &&
          kept.size() < kMaxMappings) {
        kept.push_back(released);
        keptBytes += released.dataSpan;
        return;
      }
    }
    munmap(released.mapping, released.mappingSize);
  }

  /// Never destroyed: buffers may be released while statics are.
  static MappingCache &get() {
    static MappingCache *cache = new MappingCache;
    return *cache;
  }

private:
  static constexpr uint64_t kMaxBytes = uint64_t(16) << 20;
  static constexpr size_t kMaxMappings = 32;
  std::mutex mutex;
  std::vector<Mapping> kept;
  uint64_t keptBytes = 0;
};

} // namespace

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
      mappingSize(std::exchange(other.mappingSize, 0)),
      guardBefore(std::exchange(other.guardBefore, 0)),
      dataSpan(std::exchange(other.dataSpan, 0)) {}

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
  guardBefore = std::exchange(other.guardBefore, 0);
  dataSpan = std::exchange(other.dataSpan, 0);
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
  static const uint64_t page = sysconf(_SC_PAGESIZE);
  uint64_t dataSpan = llvm::alignTo(size, page);
  auto place = [&](void *reserved, uint64_t total, uint64_t before) {
    auto *dataPages = static_cast<uint8_t *>(reserved) + before;
    uintptr_t start = reinterpret_cast<uintptr_t>(dataPages + dataSpan - size);
    bytes =
        reinterpret_cast<uint8_t *>(llvm::alignDown(start, getAlignment(size)));
    length = size;
    mapping = reserved;
    mappingSize = total;
    guardBefore = before;
    this->dataSpan = dataSpan;
  };
  MappingCache::Mapping cached;
  if (MappingCache::get().take(dataSpan, cached)) {
    place(cached.mapping, cached.mappingSize, cached.before);
    return;
  }
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
    place(reserved, total, before);
    return;
  }
  llvm::report_bad_alloc_error("spvbridge: cannot map memory for a buffer");
}

void GuardedBuffer::release() {
  if (mapping)
    MappingCache::get().give({mapping, mappingSize, guardBefore, dataSpan});
  bytes = nullptr;
  length = 0;
  mapping = nullptr;
  mappingSize = guardBefore = dataSpan = 0;
}
