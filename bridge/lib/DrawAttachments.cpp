//===- DrawAttachments.cpp - The colour attachments of a draw -------------===//
#include "spvbridge/bridge/DrawAttachments.h"

#include <algorithm>
#include <map>

using namespace llvm;
using namespace spvb;

// Components split over Component decorations count up to the highest one
// written.
std::vector<AttachmentPlan>
spvb::planAttachments(ArrayRef<spvb_stage_variable> variables,
                      const runtime::VulkanFormat *floatFormat) {
  std::map<uint32_t, AttachmentPlan> plans;
  for (const spvb_stage_variable &variable : variables) {
    if (!(variable.flags & SPVB_STAGE_OUTPUT) || variable.location == ~0u)
      continue;
    AttachmentPlan &plan = plans[variable.location];
    plan.location = variable.location;
    VkFormat format = variable.kind == SPVB_KIND_FLOAT ? floatFormat->format
                      : variable.flags & SPVB_STAGE_SIGNED
                          ? VK_FORMAT_R32G32B32A32_SINT
                          : VK_FORMAT_R32G32B32A32_UINT;
    plan.format = runtime::getVulkanFormat(format);
    plan.components =
        std::min(std::max(plan.components, variable.component + variable.count),
                 plan.format->components);
  }
  std::vector<AttachmentPlan> result;
  for (auto &[location, plan] : plans)
    result.push_back(plan);
  return result;
}
