//===- Descriptors.h - Writing descriptors ----------------------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_DESCRIPTORS_H
#define SPVBRIDGE_ICD_LIB_DESCRIPTORS_H

#include "Objects.h"

namespace spvb::icd {

/// Applies \p write to \p set (its dstSet is not read): vkUpdateDescriptorSets
/// and push descriptors.
void writeDescriptors(DescriptorSet &set, const VkWriteDescriptorSet &write);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_DESCRIPTORS_H
