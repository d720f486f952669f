//===- RenderPasses.cpp - Render passes and framebuffers ------------------===//
//
// A render pass keeps what executing it needs: each attachment's format and
// load operations, and each subpass's colour attachments by Location, its
// depth/stencil attachment and where they resolve. Attachments are stored when
// a render pass ends and layouts do not change texels, so store operations,
// layouts and dependencies need nothing.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"

#include <new>
#include <type_traits>

using namespace spvb::icd;

/// A render pass from either version's create info.
template <typename Info>
static VkResult createRenderPass(const Info &info, VkRenderPass *made) {
  auto *pass = new (std::nothrow) RenderPass();
  if (!pass)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  for (uint32_t i = 0; i < info.attachmentCount; ++i) {
    const auto &attachment = info.pAttachments[i];
    pass->attachments.push_back(
        {attachment.format, attachment.loadOp, attachment.stencilLoadOp});
  }
  for (uint32_t i = 0; i < info.subpassCount; ++i) {
    const auto &subpass = info.pSubpasses[i];
    RenderPass::Subpass &described = pass->subpasses.emplace_back();
    for (uint32_t c = 0; c < subpass.colorAttachmentCount; ++c) {
      described.colors.push_back(subpass.pColorAttachments[c].attachment);
      if (subpass.pResolveAttachments)
        described.resolves.push_back(subpass.pResolveAttachments[c].attachment);
    }
    if (subpass.pDepthStencilAttachment)
      described.depthStencil = subpass.pDepthStencilAttachment->attachment;
    if constexpr (std::is_same_v<Info, VkRenderPassCreateInfo2>) {
      auto *resolve = findInChain<VkSubpassDescriptionDepthStencilResolve>(
          subpass.pNext,
          VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE);
      if (resolve && resolve->pDepthStencilResolveAttachment) {
        described.depthStencilResolve =
            resolve->pDepthStencilResolveAttachment->attachment;
        described.depthResolveMode = resolve->depthResolveMode;
        described.stencilResolveMode = resolve->stencilResolveMode;
      }
    }
  }
  *made = toHandle<VkRenderPass>(pass);
  return VK_SUCCESS;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateRenderPass(
    VkDevice, const VkRenderPassCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkRenderPass *pRenderPass) {
  return createRenderPass(*pCreateInfo, pRenderPass);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateRenderPass2(
    VkDevice, const VkRenderPassCreateInfo2 *pCreateInfo,
    const VkAllocationCallbacks *, VkRenderPass *pRenderPass) {
  return createRenderPass(*pCreateInfo, pRenderPass);
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
