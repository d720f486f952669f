//===- Formats.h - The formats images and texel buffers take ----*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_FORMATS_H
#define SPVBRIDGE_ICD_LIB_FORMATS_H

#include "spvbridge/cpu_runtime/ImageFormats.h"
#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include <vulkan/vulkan.h>

namespace spvb::icd {

/// The runtime's description of \p format's texels, or null for a format
/// images and texel buffers cannot have: those with a SPIR-V image format
/// (Vulkan's compatibility table), which the runtime reads and writes.
const runtime::ImageFormat *getImageFormat(VkFormat format);

/// The texel size of an image of \p format, or 0 for one images cannot
/// have: the formats with a SPIR-V image format, and those only drawn
/// into, copied and cleared (BGRA, sRGB, packed, depth/stencil; the
/// runtime's VulkanFormats.h describes them).
unsigned getImageTexelBytes(VkFormat format);

/// A clear colour as encodeColor takes it for \p format: floats, and the
/// integers read as signed for SINT formats, unsigned otherwise.
runtime::Color getClearColor(const runtime::VulkanFormat &format,
                             const VkClearColorValue &value);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_FORMATS_H
