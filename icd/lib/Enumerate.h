//===- Enumerate.h - Vulkan's two-call enumeration idiom --------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_ENUMERATE_H
#define SPVBRIDGE_ICD_LIB_ENUMERATE_H

#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdint>

namespace spvb::icd {

/// With a null \p out, *count becomes \p available; otherwise up to *count
/// items are filled by fill(item, index), *count becomes the number
/// written, and the result is VK_INCOMPLETE if that is not all of them.
template <typename T, typename Fill>
VkResult enumerate(uint32_t *count, T *out, uint32_t available, Fill fill) {
  if (!out) {
    *count = available;
    return VK_SUCCESS;
  }
  uint32_t written = std::min(*count, available);
  for (uint32_t i = 0; i < written; ++i)
    fill(out[i], i);
  *count = written;
  return written < available ? VK_INCOMPLETE : VK_SUCCESS;
}

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_ENUMERATE_H
