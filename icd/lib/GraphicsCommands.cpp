//===- GraphicsCommands.cpp - Recording render passes and draws -----------===//
//
// Render passes of both versions and dynamic rendering are recorded alike:
// vkCmdBeginRendering makes the one-subpass render pass its info describes
// and the list of its views, as a framebuffer would hold them.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "EntryPoints.h"

using namespace spvb;
using namespace spvb::icd;

/// vkCmdBeginRenderPass's command from either version's begin info.
static command::BeginRenderPass
getBeginRenderPass(const char *name, const VkRenderPassBeginInfo &info) {
  const Framebuffer *framebuffer = fromHandle<Framebuffer>(info.framebuffer);
  command::BeginRenderPass begin{name,
                                 nullptr,
                                 fromHandle<RenderPass>(info.renderPass),
                                 framebuffer->attachments,
                                 framebuffer->extent,
                                 info.renderArea,
                                 {}};
  if (auto *imageless = findInChain<VkRenderPassAttachmentBeginInfo>(
          info.pNext, VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO))
    for (uint32_t i = 0; i < imageless->attachmentCount; ++i)
      begin.attachments.push_back(
          fromHandle<ImageView>(imageless->pAttachments[i]));
  begin.clearValues.assign(info.pClearValues,
                           info.pClearValues + info.clearValueCount);
  return begin;
}

extern "C" {

VKAPI_ATTR void VKAPI_CALL spvb_CmdBeginRenderPass(
    VkCommandBuffer commandBuffer,
    const VkRenderPassBeginInfo *pRenderPassBegin, VkSubpassContents) {
  record(commandBuffer,
         getBeginRenderPass("vkCmdBeginRenderPass", *pRenderPassBegin));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBeginRenderPass2(
    VkCommandBuffer commandBuffer,
    const VkRenderPassBeginInfo *pRenderPassBegin, const VkSubpassBeginInfo *) {
  record(commandBuffer,
         getBeginRenderPass("vkCmdBeginRenderPass2", *pRenderPassBegin));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdNextSubpass(VkCommandBuffer commandBuffer,
                                               VkSubpassContents) {
  record(commandBuffer, command::NextSubpass{});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdNextSubpass2(VkCommandBuffer commandBuffer,
                                                const VkSubpassBeginInfo *,
                                                const VkSubpassEndInfo *) {
  record(commandBuffer, command::NextSubpass{});
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdEndRenderPass(VkCommandBuffer commandBuffer) {
  record(commandBuffer, command::EndRenderPass{});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdEndRenderPass2(VkCommandBuffer commandBuffer,
                                                  const VkSubpassEndInfo *) {
  record(commandBuffer, command::EndRenderPass{});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBeginRendering(
    VkCommandBuffer commandBuffer, const VkRenderingInfo *pRenderingInfo) {
  const VkRenderingInfo &info = *pRenderingInfo;
  auto pass = std::make_shared<RenderPass>();
  RenderPass::Subpass &subpass = pass->subpasses.emplace_back();
  command::BeginRenderPass begin{
      "vkCmdBeginRendering",
      pass,
      pass.get(),
      {},
      {info.renderArea.offset.x + info.renderArea.extent.width,
       info.renderArea.offset.y + info.renderArea.extent.height},
      info.renderArea,
      {}};
  // Each attachment with a view becomes one of the pass's, with its clear
  // value at its index.
  auto add = [&](const VkRenderingAttachmentInfo &attachment,
                 bool stencil) -> uint32_t {
    ImageView *view = fromHandle<ImageView>(attachment.imageView);
    if (!view)
      return VK_ATTACHMENT_UNUSED;
    RenderPass::Attachment made;
    made.format = view->format;
    made.loadOp = stencil ? VK_ATTACHMENT_LOAD_OP_LOAD : attachment.loadOp;
    made.stencilLoadOp =
        stencil ? attachment.loadOp : VK_ATTACHMENT_LOAD_OP_LOAD;
    pass->attachments.push_back(made);
    begin.attachments.push_back(view);
    begin.clearValues.push_back(attachment.clearValue);
    return uint32_t(pass->attachments.size() - 1);
  };
  // A resolve target is one more attachment, which nothing loads.
  auto addResolve = [&](const VkRenderingAttachmentInfo &attachment) {
    ImageView *view = fromHandle<ImageView>(attachment.resolveImageView);
    if (!view || attachment.resolveMode == VK_RESOLVE_MODE_NONE)
      return VK_ATTACHMENT_UNUSED;
    pass->attachments.push_back(
        {view->format, VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_LOAD_OP_LOAD});
    begin.attachments.push_back(view);
    begin.clearValues.push_back({});
    return uint32_t(pass->attachments.size() - 1);
  };
  for (uint32_t i = 0; i < info.colorAttachmentCount; ++i) {
    subpass.colors.push_back(add(info.pColorAttachments[i], false));
    subpass.resolves.push_back(addResolve(info.pColorAttachments[i]));
  }
  for (auto [attachment, mode] :
       {std::pair(info.pDepthAttachment, &subpass.depthResolveMode),
        std::pair(info.pStencilAttachment, &subpass.stencilResolveMode)})
    if (attachment && attachment->imageView &&
        attachment->resolveMode != VK_RESOLVE_MODE_NONE &&
        attachment->resolveImageView) {
      if (subpass.depthStencilResolve == VK_ATTACHMENT_UNUSED)
        subpass.depthStencilResolve = addResolve(*attachment);
      *mode = attachment->resolveMode;
    }
  // One depth/stencil attachment: the depth's view and the stencil's are
  // the same image's when both are given.
  if (info.pDepthAttachment && info.pDepthAttachment->imageView)
    subpass.depthStencil = add(*info.pDepthAttachment, false);
  if (info.pStencilAttachment && info.pStencilAttachment->imageView) {
    if (subpass.depthStencil == VK_ATTACHMENT_UNUSED) {
      subpass.depthStencil = add(*info.pStencilAttachment, true);
    } else {
      RenderPass::Attachment &depth = pass->attachments[subpass.depthStencil];
      depth.stencilLoadOp = info.pStencilAttachment->loadOp;
      begin.clearValues[subpass.depthStencil].depthStencil.stencil =
          info.pStencilAttachment->clearValue.depthStencil.stencil;
    }
  }
  record(commandBuffer, std::move(begin));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdEndRendering(VkCommandBuffer commandBuffer) {
  record(commandBuffer, command::EndRenderPass{});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBindVertexBuffers2(
    VkCommandBuffer commandBuffer, uint32_t firstBinding, uint32_t bindingCount,
    const VkBuffer *pBuffers, const VkDeviceSize *pOffsets,
    const VkDeviceSize *pSizes, const VkDeviceSize *pStrides) {
  command::BindVertexBuffers bind{firstBinding, {}, {}, {}, {}};
  for (uint32_t i = 0; i < bindingCount; ++i) {
    bind.buffers.push_back(fromHandle<Buffer>(pBuffers[i]));
    bind.offsets.push_back(pOffsets[i]);
  }
  if (pSizes)
    bind.sizes.assign(pSizes, pSizes + bindingCount);
  if (pStrides)
    bind.strides.assign(pStrides, pStrides + bindingCount);
  record(commandBuffer, std::move(bind));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBindVertexBuffers(
    VkCommandBuffer commandBuffer, uint32_t firstBinding, uint32_t bindingCount,
    const VkBuffer *pBuffers, const VkDeviceSize *pOffsets) {
  spvb_CmdBindVertexBuffers2(commandBuffer, firstBinding, bindingCount,
                             pBuffers, pOffsets, nullptr, nullptr);
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer,
                        VkDeviceSize offset, VkIndexType indexType) {
  record(commandBuffer, command::BindIndexBuffer{fromHandle<Buffer>(buffer),
                                                 offset, indexType});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDraw(VkCommandBuffer commandBuffer,
                                        uint32_t vertexCount,
                                        uint32_t instanceCount,
                                        uint32_t firstVertex,
                                        uint32_t firstInstance) {
  record(commandBuffer, command::Draw{false, vertexCount, instanceCount,
                                      firstVertex, 0, firstInstance});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDrawIndexed(
    VkCommandBuffer commandBuffer, uint32_t indexCount, uint32_t instanceCount,
    uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance) {
  record(commandBuffer, command::Draw{true, indexCount, instanceCount,
                                      firstIndex, vertexOffset, firstInstance});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDrawIndirect(VkCommandBuffer commandBuffer,
                                                VkBuffer buffer,
                                                VkDeviceSize offset,
                                                uint32_t drawCount,
                                                uint32_t stride) {
  record(commandBuffer,
         command::DrawIndirect{false, fromHandle<Buffer>(buffer), offset,
                               drawCount, stride, nullptr, 0});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDrawIndexedIndirect(
    VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
    uint32_t drawCount, uint32_t stride) {
  record(commandBuffer,
         command::DrawIndirect{true, fromHandle<Buffer>(buffer), offset,
                               drawCount, stride, nullptr, 0});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDrawIndirectCount(
    VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
    VkBuffer countBuffer, VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
    uint32_t stride) {
  record(commandBuffer, command::DrawIndirect{false, fromHandle<Buffer>(buffer),
                                              offset, maxDrawCount, stride,
                                              fromHandle<Buffer>(countBuffer),
                                              countBufferOffset});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDrawIndexedIndirectCount(
    VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
    VkBuffer countBuffer, VkDeviceSize countBufferOffset, uint32_t maxDrawCount,
    uint32_t stride) {
  record(commandBuffer, command::DrawIndirect{true, fromHandle<Buffer>(buffer),
                                              offset, maxDrawCount, stride,
                                              fromHandle<Buffer>(countBuffer),
                                              countBufferOffset});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdClearAttachments(
    VkCommandBuffer commandBuffer, uint32_t attachmentCount,
    const VkClearAttachment *pAttachments, uint32_t rectCount,
    const VkClearRect *pRects) {
  record(commandBuffer, command::ClearAttachments{
                            {pAttachments, pAttachments + attachmentCount},
                            {pRects, pRects + rectCount}});
}

} // extern "C"
