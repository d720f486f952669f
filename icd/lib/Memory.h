//===- Memory.h - What buffers and images share about memory ----*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_MEMORY_H
#define SPVBRIDGE_ICD_LIB_MEMORY_H

#include "Objects.h"

namespace spvb::icd {

/// The one memory heap: three quarters of the host's memory, as lavapipe
/// reports.
VkDeviceSize getMemoryHeapSize();

/// \p requirements into \p out, with the extension structures it chains
/// (no allocation needs to be dedicated).
void setMemoryRequirements(VkMemoryRequirements2 &out,
                           const VkMemoryRequirements &requirements);

/// Whether \p size bytes at \p offset fit \p memory; if not, says so for
/// \p command binding \p what ("a buffer", "an image").
bool fitsMemory(const char *command, const char *what, VkDeviceSize size,
                VkDeviceSize offset, const DeviceMemory &memory);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_MEMORY_H
