//===- Commands.cpp - Command pools, buffers and recording ----------------===//
//
// Commands are recorded as small structs (Objects.h), as SwiftShader's are,
// and replayed in order by the queue (Queue.cpp).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "Descriptors.h"
#include "EntryPoints.h"

#include "llvm/ADT/STLExtras.h"

#include <new>

using namespace spvb;
using namespace spvb::icd;

void spvb::icd::record(VkCommandBuffer commandBuffer, Command command) {
  fromHandle<CommandBuffer>(commandBuffer)
      ->commands.push_back(std::move(command));
}

void spvb::icd::recordPushDescriptors(VkCommandBuffer commandBuffer,
                                      VkPipelineBindPoint bindPoint,
                                      uint32_t set,
                                      std::shared_ptr<DescriptorSet> pushed) {
  command::BindDescriptorSets bind{bindPoint, set, {pushed.get()}, {}, pushed};
  record(commandBuffer, std::move(bind));
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateCommandPool(
    VkDevice, const VkCommandPoolCreateInfo *, const VkAllocationCallbacks *,
    VkCommandPool *pCommandPool) {
  auto *pool = new (std::nothrow) CommandPool();
  if (!pool)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pCommandPool = toHandle<VkCommandPool>(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyCommandPool(
    VkDevice, VkCommandPool commandPool, const VkAllocationCallbacks *) {
  delete fromHandle<CommandPool>(commandPool);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetCommandPool(VkDevice,
                                                     VkCommandPool commandPool,
                                                     VkCommandPoolResetFlags) {
  for (auto &buffer : fromHandle<CommandPool>(commandPool)->buffers)
    buffer->commands.clear();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_AllocateCommandBuffers(
    VkDevice device, const VkCommandBufferAllocateInfo *pAllocateInfo,
    VkCommandBuffer *pCommandBuffers) {
  CommandPool *pool = fromHandle<CommandPool>(pAllocateInfo->commandPool);
  for (uint32_t i = 0; i < pAllocateInfo->commandBufferCount; ++i) {
    auto buffer = std::make_unique<CommandBuffer>();
    buffer->device = fromHandle<Device>(device);
    buffer->level = pAllocateInfo->level;
    pCommandBuffers[i] = toHandle<VkCommandBuffer>(buffer.get());
    pool->buffers.push_back(std::move(buffer));
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_FreeCommandBuffers(
    VkDevice, VkCommandPool commandPool, uint32_t commandBufferCount,
    const VkCommandBuffer *pCommandBuffers) {
  auto &buffers = fromHandle<CommandPool>(commandPool)->buffers;
  for (uint32_t i = 0; i < commandBufferCount; ++i)
    llvm::erase_if(buffers, [&](const std::unique_ptr<CommandBuffer> &buffer) {
      return toHandle<VkCommandBuffer>(buffer.get()) == pCommandBuffers[i];
    });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_BeginCommandBuffer(
    VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo *) {
  fromHandle<CommandBuffer>(commandBuffer)->commands.clear();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_EndCommandBuffer(VkCommandBuffer) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_ResetCommandBuffer(
    VkCommandBuffer commandBuffer, VkCommandBufferResetFlags) {
  fromHandle<CommandBuffer>(commandBuffer)->commands.clear();
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBindPipeline(VkCommandBuffer commandBuffer,
                                                VkPipelineBindPoint bindPoint,
                                                VkPipeline pipeline) {
  record(commandBuffer,
         command::BindPipeline{bindPoint, fromHandle<Pipeline>(pipeline)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBindDescriptorSets(
    VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
    VkPipelineLayout, uint32_t firstSet, uint32_t descriptorSetCount,
    const VkDescriptorSet *pDescriptorSets, uint32_t dynamicOffsetCount,
    const uint32_t *pDynamicOffsets) {
  command::BindDescriptorSets bind{bindPoint, firstSet, {}, {}, nullptr};
  for (uint32_t i = 0; i < descriptorSetCount; ++i)
    bind.sets.push_back(fromHandle<DescriptorSet>(pDescriptorSets[i]));
  bind.dynamicOffsets.assign(pDynamicOffsets,
                             pDynamicOffsets + dynamicOffsetCount);
  record(commandBuffer, std::move(bind));
}

/// VK_KHR_push_descriptor: the writes make a set the command owns.
VKAPI_ATTR void VKAPI_CALL spvb_CmdPushDescriptorSetKHR(
    VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
    VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
    const VkWriteDescriptorSet *pDescriptorWrites) {
  auto pushed = std::make_shared<DescriptorSet>();
  pushed->layout = fromHandle<PipelineLayout>(layout)->setLayouts[set];
  for (uint32_t i = 0; i < descriptorWriteCount; ++i)
    writeDescriptors(*pushed, pDescriptorWrites[i]);
  recordPushDescriptors(commandBuffer, bindPoint, set, std::move(pushed));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdPushConstants(VkCommandBuffer commandBuffer,
                                                 VkPipelineLayout,
                                                 VkShaderStageFlags,
                                                 uint32_t offset, uint32_t size,
                                                 const void *pValues) {
  const auto *bytes = static_cast<const uint8_t *>(pValues);
  record(commandBuffer, command::PushConstants{
                            offset, std::vector<uint8_t>(bytes, bytes + size)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDispatch(VkCommandBuffer commandBuffer,
                                            uint32_t groupCountX,
                                            uint32_t groupCountY,
                                            uint32_t groupCountZ) {
  record(commandBuffer,
         command::Dispatch{{0, 0, 0}, {groupCountX, groupCountY, groupCountZ}});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDispatchBase(
    VkCommandBuffer commandBuffer, uint32_t baseGroupX, uint32_t baseGroupY,
    uint32_t baseGroupZ, uint32_t groupCountX, uint32_t groupCountY,
    uint32_t groupCountZ) {
  record(commandBuffer,
         command::Dispatch{{baseGroupX, baseGroupY, baseGroupZ},
                           {groupCountX, groupCountY, groupCountZ}});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdDispatchIndirect(
    VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
  record(commandBuffer,
         command::DispatchIndirect{fromHandle<Buffer>(buffer), offset});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyBuffer(VkCommandBuffer commandBuffer,
                                              VkBuffer srcBuffer,
                                              VkBuffer dstBuffer,
                                              uint32_t regionCount,
                                              const VkBufferCopy *pRegions) {
  record(commandBuffer,
         command::CopyBuffer{
             fromHandle<Buffer>(srcBuffer), fromHandle<Buffer>(dstBuffer),
             std::vector<VkBufferCopy>(pRegions, pRegions + regionCount)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdFillBuffer(VkCommandBuffer commandBuffer,
                                              VkBuffer dstBuffer,
                                              VkDeviceSize dstOffset,
                                              VkDeviceSize size,
                                              uint32_t data) {
  record(commandBuffer, command::FillBuffer{fromHandle<Buffer>(dstBuffer),
                                            dstOffset, size, data});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdUpdateBuffer(VkCommandBuffer commandBuffer,
                                                VkBuffer dstBuffer,
                                                VkDeviceSize dstOffset,
                                                VkDeviceSize dataSize,
                                                const void *pData) {
  const auto *bytes = static_cast<const uint8_t *>(pData);
  record(commandBuffer,
         command::UpdateBuffer{fromHandle<Buffer>(dstBuffer), dstOffset,
                               std::vector<uint8_t>(bytes, bytes + dataSize)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyBuffer2(
    VkCommandBuffer commandBuffer, const VkCopyBufferInfo2 *pCopyBufferInfo) {
  command::CopyBuffer copy{fromHandle<Buffer>(pCopyBufferInfo->srcBuffer),
                           fromHandle<Buffer>(pCopyBufferInfo->dstBuffer),
                           {}};
  for (const VkBufferCopy2 &region :
       llvm::ArrayRef(pCopyBufferInfo->pRegions, pCopyBufferInfo->regionCount))
    copy.regions.push_back({region.srcOffset, region.dstOffset, region.size});
  record(commandBuffer, std::move(copy));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyBufferToImage(
    VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkImage dstImage,
    VkImageLayout, uint32_t regionCount, const VkBufferImageCopy *pRegions) {
  record(commandBuffer,
         command::CopyBufferImage{
             fromHandle<Buffer>(srcBuffer), fromHandle<Image>(dstImage), true,
             std::vector<VkBufferImageCopy>(pRegions, pRegions + regionCount)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyImageToBuffer(
    VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
    VkBuffer dstBuffer, uint32_t regionCount,
    const VkBufferImageCopy *pRegions) {
  record(commandBuffer,
         command::CopyBufferImage{
             fromHandle<Buffer>(dstBuffer), fromHandle<Image>(srcImage), false,
             std::vector<VkBufferImageCopy>(pRegions, pRegions + regionCount)});
}

static std::vector<VkBufferImageCopy>
getRegions(llvm::ArrayRef<VkBufferImageCopy2> regions) {
  std::vector<VkBufferImageCopy> result;
  for (const VkBufferImageCopy2 &region : regions)
    result.push_back({region.bufferOffset, region.bufferRowLength,
                      region.bufferImageHeight, region.imageSubresource,
                      region.imageOffset, region.imageExtent});
  return result;
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyBufferToImage2(
    VkCommandBuffer commandBuffer, const VkCopyBufferToImageInfo2 *pInfo) {
  record(commandBuffer,
         command::CopyBufferImage{
             fromHandle<Buffer>(pInfo->srcBuffer),
             fromHandle<Image>(pInfo->dstImage), true,
             getRegions(llvm::ArrayRef(pInfo->pRegions, pInfo->regionCount))});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyImageToBuffer2(
    VkCommandBuffer commandBuffer, const VkCopyImageToBufferInfo2 *pInfo) {
  record(commandBuffer,
         command::CopyBufferImage{
             fromHandle<Buffer>(pInfo->dstBuffer),
             fromHandle<Image>(pInfo->srcImage), false,
             getRegions(llvm::ArrayRef(pInfo->pRegions, pInfo->regionCount))});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyImage(VkCommandBuffer commandBuffer,
                                             VkImage srcImage, VkImageLayout,
                                             VkImage dstImage, VkImageLayout,
                                             uint32_t regionCount,
                                             const VkImageCopy *pRegions) {
  record(commandBuffer,
         command::CopyImage{
             fromHandle<Image>(srcImage), fromHandle<Image>(dstImage),
             std::vector<VkImageCopy>(pRegions, pRegions + regionCount)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyImage2(VkCommandBuffer commandBuffer,
                                              const VkCopyImageInfo2 *pInfo) {
  command::CopyImage copy{fromHandle<Image>(pInfo->srcImage),
                          fromHandle<Image>(pInfo->dstImage),
                          {}};
  for (const VkImageCopy2 &region :
       llvm::ArrayRef(pInfo->pRegions, pInfo->regionCount))
    copy.regions.push_back({region.srcSubresource, region.srcOffset,
                            region.dstSubresource, region.dstOffset,
                            region.extent});
  record(commandBuffer, std::move(copy));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBlitImage(VkCommandBuffer commandBuffer,
                                             VkImage srcImage, VkImageLayout,
                                             VkImage dstImage, VkImageLayout,
                                             uint32_t regionCount,
                                             const VkImageBlit *pRegions,
                                             VkFilter filter) {
  record(commandBuffer,
         command::BlitImage{
             fromHandle<Image>(srcImage), fromHandle<Image>(dstImage),
             std::vector<VkImageBlit>(pRegions, pRegions + regionCount),
             filter});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBlitImage2(VkCommandBuffer commandBuffer,
                                              const VkBlitImageInfo2 *pInfo) {
  command::BlitImage blit{fromHandle<Image>(pInfo->srcImage),
                          fromHandle<Image>(pInfo->dstImage),
                          {},
                          pInfo->filter};
  for (const VkImageBlit2 &region :
       llvm::ArrayRef(pInfo->pRegions, pInfo->regionCount))
    blit.regions.push_back({region.srcSubresource,
                            {region.srcOffsets[0], region.srcOffsets[1]},
                            region.dstSubresource,
                            {region.dstOffsets[0], region.dstOffsets[1]}});
  record(commandBuffer, std::move(blit));
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdResolveImage(VkCommandBuffer commandBuffer, VkImage srcImage,
                     VkImageLayout, VkImage dstImage, VkImageLayout,
                     uint32_t regionCount, const VkImageResolve *pRegions) {
  record(commandBuffer,
         command::ResolveImage{
             fromHandle<Image>(srcImage), fromHandle<Image>(dstImage),
             std::vector<VkImageResolve>(pRegions, pRegions + regionCount)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdResolveImage2(
    VkCommandBuffer commandBuffer, const VkResolveImageInfo2 *pInfo) {
  command::ResolveImage resolve{fromHandle<Image>(pInfo->srcImage),
                                fromHandle<Image>(pInfo->dstImage),
                                {}};
  for (const VkImageResolve2 &region :
       llvm::ArrayRef(pInfo->pRegions, pInfo->regionCount))
    resolve.regions.push_back({region.srcSubresource, region.srcOffset,
                               region.dstSubresource, region.dstOffset,
                               region.extent});
  record(commandBuffer, std::move(resolve));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdClearColorImage(
    VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
    const VkClearColorValue *pColor, uint32_t rangeCount,
    const VkImageSubresourceRange *pRanges) {
  VkClearValue value;
  value.color = *pColor;
  record(commandBuffer,
         command::ClearImage{fromHandle<Image>(image), value, false,
                             std::vector<VkImageSubresourceRange>(
                                 pRanges, pRanges + rangeCount)});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdClearDepthStencilImage(
    VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
    const VkClearDepthStencilValue *pDepthStencil, uint32_t rangeCount,
    const VkImageSubresourceRange *pRanges) {
  VkClearValue value;
  value.depthStencil = *pDepthStencil;
  record(commandBuffer,
         command::ClearImage{fromHandle<Image>(image), value, true,
                             std::vector<VkImageSubresourceRange>(
                                 pRanges, pRanges + rangeCount)});
}

/// Commands run in submission order, each to completion: every barrier is
/// already met.
VKAPI_ATTR void VKAPI_CALL spvb_CmdPipelineBarrier(
    VkCommandBuffer, VkPipelineStageFlags, VkPipelineStageFlags,
    VkDependencyFlags, uint32_t, const VkMemoryBarrier *, uint32_t,
    const VkBufferMemoryBarrier *, uint32_t, const VkImageMemoryBarrier *) {}

VKAPI_ATTR void VKAPI_CALL spvb_CmdPipelineBarrier2(VkCommandBuffer,
                                                    const VkDependencyInfo *) {}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetEvent(VkCommandBuffer commandBuffer,
                                            VkEvent event,
                                            VkPipelineStageFlags) {
  record(commandBuffer, command::SetEvent{fromHandle<Event>(event), true});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdSetEvent2(VkCommandBuffer commandBuffer,
                                             VkEvent event,
                                             const VkDependencyInfo *) {
  record(commandBuffer, command::SetEvent{fromHandle<Event>(event), true});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdResetEvent(VkCommandBuffer commandBuffer,
                                              VkEvent event,
                                              VkPipelineStageFlags) {
  record(commandBuffer, command::SetEvent{fromHandle<Event>(event), false});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdResetEvent2(VkCommandBuffer commandBuffer,
                                               VkEvent event,
                                               VkPipelineStageFlags2) {
  record(commandBuffer, command::SetEvent{fromHandle<Event>(event), false});
}

static void recordWaitEvents(VkCommandBuffer commandBuffer, uint32_t count,
                             const VkEvent *events) {
  command::WaitEvents wait;
  for (uint32_t i = 0; i < count; ++i)
    wait.events.push_back(fromHandle<Event>(events[i]));
  record(commandBuffer, std::move(wait));
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdWaitEvents(
    VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
    VkPipelineStageFlags, VkPipelineStageFlags, uint32_t,
    const VkMemoryBarrier *, uint32_t, const VkBufferMemoryBarrier *, uint32_t,
    const VkImageMemoryBarrier *) {
  recordWaitEvents(commandBuffer, eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdWaitEvents2(VkCommandBuffer commandBuffer,
                                               uint32_t eventCount,
                                               const VkEvent *pEvents,
                                               const VkDependencyInfo *) {
  recordWaitEvents(commandBuffer, eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdWriteTimestamp(VkCommandBuffer commandBuffer,
                                                  VkPipelineStageFlagBits,
                                                  VkQueryPool queryPool,
                                                  uint32_t query) {
  record(commandBuffer,
         command::WriteTimestamp{fromHandle<QueryPool>(queryPool), query});
}

VKAPI_ATTR void VKAPI_CALL
spvb_CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2,
                        VkQueryPool queryPool, uint32_t query) {
  record(commandBuffer,
         command::WriteTimestamp{fromHandle<QueryPool>(queryPool), query});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdResetQueryPool(VkCommandBuffer commandBuffer,
                                                  VkQueryPool queryPool,
                                                  uint32_t firstQuery,
                                                  uint32_t queryCount) {
  record(commandBuffer,
         command::ResetQueryPool{fromHandle<QueryPool>(queryPool), firstQuery,
                                 queryCount});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdBeginQuery(VkCommandBuffer commandBuffer,
                                              VkQueryPool queryPool,
                                              uint32_t query,
                                              VkQueryControlFlags) {
  record(commandBuffer,
         command::Query{fromHandle<QueryPool>(queryPool), query, true});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdEndQuery(VkCommandBuffer commandBuffer,
                                            VkQueryPool queryPool,
                                            uint32_t query) {
  record(commandBuffer,
         command::Query{fromHandle<QueryPool>(queryPool), query, false});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdCopyQueryPoolResults(
    VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t firstQuery,
    uint32_t queryCount, VkBuffer dstBuffer, VkDeviceSize dstOffset,
    VkDeviceSize stride, VkQueryResultFlags flags) {
  record(commandBuffer,
         command::CopyQueryPoolResults{
             fromHandle<QueryPool>(queryPool), firstQuery, queryCount,
             fromHandle<Buffer>(dstBuffer), dstOffset, stride, flags});
}

VKAPI_ATTR void VKAPI_CALL spvb_CmdExecuteCommands(
    VkCommandBuffer commandBuffer, uint32_t commandBufferCount,
    const VkCommandBuffer *pCommandBuffers) {
  command::ExecuteCommands execute;
  for (uint32_t i = 0; i < commandBufferCount; ++i)
    execute.commandBuffers.push_back(
        fromHandle<CommandBuffer>(pCommandBuffers[i]));
  record(commandBuffer, std::move(execute));
}

} // extern "C"
