//===- VulkanTestSupport.h - What the Vulkan test programs share -*- C++
//-*-===//
//
// The structure, setup-failure and layout-transition helpers of the test
// programs that drive the ICD and lavapipe through the Vulkan API
// (ComputeApiCheck, GraphicsApiCheck, InvalidUse, PresentCheck). A failed
// setup step exits with 2, which the tests tell apart from a failed check.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TESTS_ICD_VULKANTESTSUPPORT_H
#define SPVBRIDGE_TESTS_ICD_VULKANTESTSUPPORT_H

#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>

namespace vktest {

/// A zeroed Vulkan structure with its sType set.
template <typename T> T makeStruct(VkStructureType type) {
  T value = {};
  value.sType = type;
  return value;
}

[[noreturn]] inline void setupFailure(const char *what, VkResult result) {
  std::fprintf(stderr, "setup: %s failed: %d\n", what, result);
  std::exit(2);
}

/// Exits with 2 unless \p result is VK_SUCCESS.
inline void check(VkResult result, const char *what) {
  if (result != VK_SUCCESS)
    setupFailure(what, result);
}

/// A layout transition of the colour aspect of \p image's first level and
/// layer.
inline void
transition(VkCommandBuffer commands, VkImage image, VkImageLayout from,
           VkImageLayout to, VkAccessFlags fromAccess, VkAccessFlags toAccess,
           VkPipelineStageFlags fromStage = VK_PIPELINE_STAGE_TRANSFER_BIT,
           VkPipelineStageFlags toStage = VK_PIPELINE_STAGE_TRANSFER_BIT) {
  auto barrier =
      makeStruct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  barrier.srcAccessMask = fromAccess;
  barrier.dstAccessMask = toAccess;
  barrier.oldLayout = from;
  barrier.newLayout = to;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = image;
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(commands, fromStage, toStage, 0, 0, nullptr, 0, nullptr,
                       1, &barrier);
}

} // namespace vktest

#endif // SPVBRIDGE_TESTS_ICD_VULKANTESTSUPPORT_H
