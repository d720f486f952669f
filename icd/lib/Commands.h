//===- Commands.h - Recording commands from other files ---------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_COMMANDS_H
#define SPVBRIDGE_ICD_LIB_COMMANDS_H

#include "Objects.h"

namespace spvb::icd {

/// Appends \p command to \p commandBuffer's.
void record(VkCommandBuffer commandBuffer, Command command);

/// Records binding \p pushed, a push descriptor set the command owns, as
/// set \p set of \p bindPoint.
void recordPushDescriptors(VkCommandBuffer commandBuffer,
                           VkPipelineBindPoint bindPoint, uint32_t set,
                           std::shared_ptr<DescriptorSet> pushed);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_COMMANDS_H
