//===- GuardedBuffer.h - Shader memory between guard regions ----*- C++ -*-===//
//
// Memory a shader works on, placed as Electric Fence places it: the last
// byte against an inaccessible guard region, with another before the first,
// so an access past either end faults at once, and the launcher turns the
// fault into an error, instead of corrupting the host's heap. The guard
// regions are address space only (PROT_NONE), large enough (8 GiB before,
// 16 GiB after) that any 32-bit element index times a 4-byte stride lands
// in them.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_GUARDEDBUFFER_H
#define SPVBRIDGE_CPU_RUNTIME_GUARDEDBUFFER_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace spvb::runtime {

class GuardedBuffer {
public:
  GuardedBuffer() = default;
  /// `size` zero bytes.
  explicit GuardedBuffer(uint64_t size);
  GuardedBuffer(llvm::ArrayRef<uint8_t> bytes);
  GuardedBuffer(const GuardedBuffer &other);
  GuardedBuffer(GuardedBuffer &&other);
  GuardedBuffer &operator=(const GuardedBuffer &other);
  GuardedBuffer &operator=(GuardedBuffer &&other);
  ~GuardedBuffer();

  uint8_t *data() { return bytes; }
  const uint8_t *data() const { return bytes; }
  uint64_t size() const { return length; }
  bool empty() const { return length == 0; }
  uint8_t *begin() { return bytes; }
  uint8_t *end() { return bytes + length; }
  const uint8_t *begin() const { return bytes; }
  const uint8_t *end() const { return bytes + length; }
  uint8_t &operator[](uint64_t index) { return bytes[index]; }
  uint8_t operator[](uint64_t index) const { return bytes[index]; }
  operator llvm::ArrayRef<uint8_t>() const { return {bytes, length}; }
  operator llvm::MutableArrayRef<uint8_t>() { return {bytes, length}; }
  std::vector<uint8_t> toVector() const { return {begin(), end()}; }

  /// Whether `address` is in the buffer or its guard regions.
  bool covers(uintptr_t address) const {
    auto begin = reinterpret_cast<uintptr_t>(mapping);
    return mapping && address >= begin && address - begin < mappingSize;
  }

  /// Replaces the contents (and the size).
  void assign(llvm::ArrayRef<uint8_t> newBytes);
  /// Keeps the first bytes; new bytes are zero.
  void resize(uint64_t newSize);

  /// Where a start is aligned: the largest power of two, at most 16, that
  /// divides the size, and at least 4. The generated code assumes no more
  /// than a component's alignment, so only a size that is not a multiple of
  /// 4 leaves bytes between the end and the guard.
  static uint64_t getAlignment(uint64_t size);

private:
  void allocate(uint64_t size);
  void release();

  uint8_t *bytes = nullptr;
  uint64_t length = 0;
  /// The whole mapping, guards included.
  void *mapping = nullptr;
  uint64_t mappingSize = 0;
  /// The guard before the data pages, and their length.
  uint64_t guardBefore = 0, dataSpan = 0;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_GUARDEDBUFFER_H
