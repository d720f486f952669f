//===- Descriptors.h - Writing descriptors ----------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_DESCRIPTORS_H
#define SPVBRIDGE_ICD_LIB_DESCRIPTORS_H

#include "Objects.h"

namespace spvb::icd {

/// Descriptors are host memory read when a dispatch runs: the update-after-
/// bind limits, and the most a variable-count binding may hold.
constexpr uint32_t kMaxUpdateAfterBindDescriptors = 1u << 20;

/// Descriptor types a layout may hold: every compute one.
bool isSupportedDescriptorType(VkDescriptorType type);

/// Applies \p write to \p set (its dstSet is not read): vkUpdateDescriptorSets
/// and push descriptors.
void writeDescriptors(DescriptorSet &set, const VkWriteDescriptorSet &write);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_DESCRIPTORS_H
