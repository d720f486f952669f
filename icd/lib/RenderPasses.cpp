//===- RenderPasses.cpp - Render passes and framebuffers ------------------===//
//
// A render pass keeps what executing it needs: each attachment's format and
// load operations, and each subpass's colour attachments by Location and
// its depth/stencil attachment. Attachments are stored when a render pass
// ends and layouts do not change texels, so store operations, layouts and
// dependencies need nothing.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"

#include <new>

using namespace spvb::icd;

/// Fills \p pass from either version's create info: Attachment is
/// VkAttachmentDescription(2), Subpass VkSubpassDescription(2).
template <typename Info> static RenderPass *makeRenderPass(const Info &info) {
  auto *pass = new (std::nothrow) RenderPass();
  if (!pass)
    return nullptr;
  for (uint32_t i = 0; i < info.attachmentCount; ++i) {
    const auto &attachment = info.pAttachments[i];
    pass->attachments.push_back(
        {attachment.format, attachment.loadOp, attachment.stencilLoadOp});
  }
  for (uint32_t i = 0; i < info.subpassCount; ++i) {
    const auto &subpass = info.pSubpasses[i];
    RenderPass::Subpass &made = pass->subpasses.emplace_back();
    for (uint32_t c = 0; c < subpass.colorAttachmentCount; ++c)
      made.colors.push_back(subpass.pColorAttachments[c].attachment);
    if (subpass.pDepthStencilAttachment)
      made.depthStencil = subpass.pDepthStencilAttachment->attachment;
  }
  return pass;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateRenderPass(
    VkDevice, const VkRenderPassCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkRenderPass *pRenderPass) {
  RenderPass *pass = makeRenderPass(*pCreateInfo);
  if (!pass)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pRenderPass = toHandle<VkRenderPass>(pass);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateRenderPass2(
    VkDevice, const VkRenderPassCreateInfo2 *pCreateInfo,
    const VkAllocationCallbacks *, VkRenderPass *pRenderPass) {
  RenderPass *pass = makeRenderPass(*pCreateInfo);
  if (!pass)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pRenderPass = toHandle<VkRenderPass>(pass);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyRenderPass(
    VkDevice, VkRenderPass renderPass, const VkAllocationCallbacks *) {
  delete fromHandle<RenderPass>(renderPass);
}

/// Any render area is as fast as any other.
VKAPI_ATTR void VKAPI_CALL spvb_GetRenderAreaGranularity(
    VkDevice, VkRenderPass, VkExtent2D *pGranularity) {
  *pGranularity = {1, 1};
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateFramebuffer(
    VkDevice, const VkFramebufferCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkFramebuffer *pFramebuffer) {
  auto *framebuffer = new (std::nothrow) Framebuffer();
  if (!framebuffer)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (!(pCreateInfo->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT))
    for (uint32_t i = 0; i < pCreateInfo->attachmentCount; ++i)
      framebuffer->attachments.push_back(
          fromHandle<ImageView>(pCreateInfo->pAttachments[i]));
  framebuffer->extent = {pCreateInfo->width, pCreateInfo->height};
  *pFramebuffer = toHandle<VkFramebuffer>(framebuffer);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyFramebuffer(
    VkDevice, VkFramebuffer framebuffer, const VkAllocationCallbacks *) {
  delete fromHandle<Framebuffer>(framebuffer);
}

} // extern "C"
