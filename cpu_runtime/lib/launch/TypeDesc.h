//===- TypeDesc.h - Decoding kernel_abi.h's type descriptors ----*- C++ -*-===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_TYPEDESC_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_TYPEDESC_H

#include <cstddef>
#include <cstdint>

namespace spvb::runtime {

/// SPVB_TYPE_DESC(kind, bytes, count), taken apart.
struct TypeDesc {
  uint32_t kind;
  uint32_t bytes;
  uint32_t count;
  explicit TypeDesc(uint32_t desc)
      : kind(desc >> 16), bytes((desc >> 8) & 0xff), count(desc & 0xff) {}
  size_t size() const { return size_t(bytes) * count; }
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_TYPEDESC_H
