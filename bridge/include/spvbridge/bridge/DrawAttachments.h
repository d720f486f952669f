//===- DrawAttachments.h - The colour attachments of a draw -----*- C++ -*-===//
//
// spv-run's and the Python module's draws give each fragment output
// Location a colour attachment: float outputs in the format asked for,
// integer ones in R32G32B32A32_SINT or _UINT, all cleared to zero.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_BRIDGE_DRAWATTACHMENTS_H
#define SPVBRIDGE_BRIDGE_DRAWATTACHMENTS_H

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace spvb {

/// A colour attachment: the fragment output Location it holds, its format
/// and how many components the shader writes (the others are undefined in
/// Vulkan, so never compared).
struct AttachmentPlan {
  uint32_t location = 0;
  const runtime::VulkanFormat *format = nullptr;
  uint32_t components = 0;
};

/// The attachments of a fragment shader with stage variables
/// \p variables, by Location; float outputs get \p floatFormat.
std::vector<AttachmentPlan>
planAttachments(llvm::ArrayRef<spvb_stage_variable> variables,
                const runtime::VulkanFormat *floatFormat);

/// The attachments' texels, cleared to zero, and the render target over
/// them. Multisampled, `texels` are the resolve attachments the draw ends
/// with, and `samples` the multisampled ones it draws into.
struct Attachments {
  std::vector<std::vector<uint8_t>> texels;
  std::vector<std::vector<uint8_t>> samples;
  runtime::RenderTarget target;

  Attachments(llvm::ArrayRef<AttachmentPlan> plans, uint32_t width,
              uint32_t height, uint32_t sampleCount) {
    target.width = width;
    target.height = height;
    uint32_t locations = plans.empty() ? 0 : plans.back().location + 1;
    target.colors.resize(locations);
    if (sampleCount > 1)
      target.resolves.resize(locations);
    // Reserved, so that the attachments' pointers stay valid.
    texels.reserve(plans.size());
    samples.reserve(plans.size());
    for (const AttachmentPlan &plan : plans) {
      uint64_t bytes = uint64_t(width) * height * plan.format->texelBytes;
      texels.emplace_back(bytes);
      runtime::Attachment single{texels.back().data(), plan.format, width,
                                 height};
      if (sampleCount == 1) {
        target.colors[plan.location] = single;
        continue;
      }
      samples.emplace_back(bytes * sampleCount);
      target.colors[plan.location] = {samples.back().data(), plan.format, width,
                                      height, sampleCount};
      target.resolves[plan.location] = single;
    }
  }
  void clear() {
    for (std::vector<uint8_t> &bytes : texels)
      std::fill(bytes.begin(), bytes.end(), 0);
    for (std::vector<uint8_t> &bytes : samples)
      std::fill(bytes.begin(), bytes.end(), 0);
  }
};

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_DRAWATTACHMENTS_H
