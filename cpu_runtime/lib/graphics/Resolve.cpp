//===- Resolve.cpp - Multisampled attachments into single-sample ones -----===//
//
// A render pass's resolve (VK_RESOLVE_MODE_AVERAGE_BIT for float and
// normalized formats, SAMPLE_ZERO for integer ones), and the rule that a
// subpass's attachments share one sample count.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "llvm/Support/FormatVariadic.h"

using namespace spvb::runtime;

llvm::Expected<uint32_t> RenderTarget::getSamples() const {
  std::optional<uint32_t> samples;
  std::string first;
  auto check = [&](const Attachment &attachment,
                   const std::string &name) -> llvm::Error {
    if (!attachment.data)
      return llvm::Error::success();
    if (attachment.samples != 1 && attachment.samples != 4)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("{0} has {1} samples; draws take 1 or 4", name,
                        attachment.samples));
    if (!samples) {
      samples = attachment.samples;
      first = name;
    } else if (*samples != attachment.samples) {
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("{0} has {1} samples but {2} has {3}: a draw's "
                        "attachments share one sample count",
                        name, attachment.samples, first, *samples));
    }
    return llvm::Error::success();
  };
  for (size_t location = 0; location < colors.size(); ++location)
    if (llvm::Error error =
            check(colors[location], llvm::formatv("the colour attachment at "
                                                  "Location {0}",
                                                  location)))
      return error;
  if (depthStencil)
    if (llvm::Error error =
            check(*depthStencil, "the depth/stencil attachment"))
      return error;
  for (size_t location = 0; location < resolves.size(); ++location) {
    const Attachment &resolve = resolves[location];
    if (!resolve.data)
      continue;
    if (resolve.samples != 1 || location >= colors.size() ||
        !colors[location].data || colors[location].samples == 1 ||
        resolve.format != colors[location].format)
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          llvm::formatv("the resolve attachment at Location {0} must be a "
                        "single-sample image of the format of a "
                        "multisampled colour attachment there",
                        location));
  }
  return samples.value_or(attachmentlessSamples);
}

void spvb::runtime::resolveAttachment(const Attachment &from,
                                      const Attachment &to, uint32_t width,
                                      uint32_t height) {
  const VulkanFormat &format = *from.format;
  bool integer = isIntegerFormat(format);
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      Color sum = decodeColor(format, from.at(x, y, 0));
      if (!integer) {
        for (uint32_t sample = 1; sample < from.samples; ++sample) {
          Color color = decodeColor(format, from.at(x, y, sample));
          for (int c = 0; c < 4; ++c)
            sum.f[c] += color.f[c];
        }
        for (int c = 0; c < 4; ++c)
          sum.f[c] /= from.samples;
      }
      encodeColor(format, sum, to.at(x, y));
    }
}

void spvb::runtime::resolveAttachments(const RenderTarget &target) {
  for (size_t location = 0;
       location < target.resolves.size() && location < target.colors.size();
       ++location) {
    const Attachment &from = target.colors[location];
    const Attachment &to = target.resolves[location];
    if (from.data && to.data && from.samples > 1)
      resolveAttachment(from, to, target.width, target.height);
  }
}
