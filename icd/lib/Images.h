//===- Images.h - Describing images -----------------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_IMAGES_H
#define SPVBRIDGE_ICD_LIB_IMAGES_H

#include "Objects.h"

namespace spvb::icd {

/// Fills \p image from \p info, or says why it cannot be made in a message
/// that names \p command (vkCreateImage, vkCreateSwapchainKHR).
VkResult describeImage(const char *command, const VkImageCreateInfo &info,
                       Image &image);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_IMAGES_H
