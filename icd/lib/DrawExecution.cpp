//===- DrawExecution.cpp - Render passes and draws in a submission --------===//
#include "DrawExecution.h"

#include "Formats.h"
#include "HandleChecks.h"
#include "ImageResolves.h"
#include "LaunchTimeout.h"

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace spvb;
using namespace spvb::icd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message.str());
}

/// \p view as the runtime draws into it: its first level and layer.
static llvm::Expected<runtime::Attachment>
getAttachment(const ImageView *view, const char *name, uint32_t index) {
  std::string what = "attachment " + std::to_string(index);
  if (llvm::Error error = checkHandle(view, name, what.c_str()))
    return error;
  if (llvm::Error error = checkHandle(view->image, name, what.c_str()))
    return error;
  const runtime::VulkanFormat *format = runtime::getVulkanFormat(view->format);
  if (!format)
    return makeError(llvm::formatv("error: {0}: {1} has format {2}, which "
                                   "cannot be drawn into",
                                   name, what, int(view->format)));
  runtime::Attachment attachment;
  attachment.data = static_cast<uint8_t *>(view->descriptor.data);
  attachment.format = format;
  attachment.width = view->descriptor.extent[0];
  attachment.height = view->descriptor.extent[1];
  attachment.samples = view->image->samples;
  return attachment;
}

/// Clears \p area of \p attachment to \p value: its colour (with
/// \p colorOrDepth), or the depth and stencil aspects asked for (each
/// writes only its own bytes).
static void clearArea(const runtime::Attachment &attachment, VkRect2D area,
                      const VkClearValue &value, bool colorOrDepth,
                      bool stencil) {
  const runtime::VulkanFormat &format = *attachment.format;
  uint32_t x0 = area.offset.x, y0 = area.offset.y;
  uint32_t x1 =
      std::min<uint32_t>(area.offset.x + area.extent.width, attachment.width);
  uint32_t y1 =
      std::min<uint32_t>(area.offset.y + area.extent.height, attachment.height);
  if (x0 >= x1 || y0 >= y1)
    return;
  std::vector<uint8_t> texel(format.texelBytes);
  if (format.components) {
    if (!colorOrDepth)
      return;
    runtime::encodeColor(format, getClearColor(format, value.color),
                         texel.data());
  } else if ((colorOrDepth || !format.depthBits) &&
             (stencil || !format.stencilBits)) {
    runtime::encodeDepth(format, value.depthStencil.depth, texel.data());
    runtime::encodeStencil(format, uint8_t(value.depthStencil.stencil),
                           texel.data());
  } else {
    // One aspect of a combined format: the other's bytes stay.
    for (uint32_t y = y0; y < y1; ++y)
      for (uint32_t x = x0; x < x1; ++x)
        for (uint32_t sample = 0; sample < attachment.samples; ++sample) {
          uint8_t *to = attachment.at(x, y, sample);
          if (colorOrDepth)
            runtime::encodeDepth(format, value.depthStencil.depth, to);
          if (stencil)
            runtime::encodeStencil(format, uint8_t(value.depthStencil.stencil),
                                   to);
        }
    return;
  }
  // Whole texels: one row encoded, then copied to the others.
  uint8_t *first = attachment.at(x0, y0);
  size_t rowBytes = size_t(x1 - x0) * attachment.samples * texel.size();
  for (uint32_t x = x0; x < x1; ++x)
    for (uint32_t sample = 0; sample < attachment.samples; ++sample)
      std::memcpy(attachment.at(x, y0, sample), texel.data(), texel.size());
  for (uint32_t y = y0 + 1; y < y1; ++y)
    std::memcpy(attachment.at(x0, y), first, rowBytes);
}

/// The load operations that clear: each attachment's at the start of the
/// render pass (they all begin in the first subpass that uses them, and
/// clearing earlier is not observable).
static llvm::Error runLoadOps(const command::BeginRenderPass &pass) {
  for (auto [index, info] : llvm::enumerate(pass.renderPass->attachments)) {
    bool clearColor = info.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR;
    bool clearStencil = info.stencilLoadOp == VK_ATTACHMENT_LOAD_OP_CLEAR;
    if (!clearColor && !clearStencil)
      continue;
    if (index >= pass.attachments.size())
      return makeError(llvm::formatv("error: {0}: the render pass has {1} "
                                     "attachments, the framebuffer {2}",
                                     pass.name,
                                     pass.renderPass->attachments.size(),
                                     pass.attachments.size()));
    if (index >= pass.clearValues.size())
      return makeError(llvm::formatv("error: {0}: attachment {1} is cleared "
                                     "but pClearValues has {2} values",
                                     pass.name, index,
                                     pass.clearValues.size()));
    llvm::Expected<runtime::Attachment> attachment =
        getAttachment(pass.attachments[index], pass.name, index);
    if (!attachment)
      return attachment.takeError();
    clearArea(*attachment, pass.renderArea, pass.clearValues[index], clearColor,
              clearStencil);
  }
  return llvm::Error::success();
}

llvm::Error
DrawExecutor::beginRenderPass(const command::BeginRenderPass &command) {
  if (pass)
    return makeError(llvm::formatv("error: {0}: a render pass is already "
                                   "begun",
                                   command.name));
  if (!command.renderPass || command.renderPass->subpasses.empty())
    return makeError(llvm::formatv("error: {0}: no render pass", command.name));
  if (llvm::Error error = runLoadOps(command))
    return error;
  pass = &command;
  subpass = 0;
  return llvm::Error::success();
}

/// Sample 0 of each aspect the modes name (VK_RESOLVE_MODE_SAMPLE_ZERO_BIT,
/// the only mode offered) copied from \p from into \p to over \p area.
static void resolveDepthStencil(const runtime::Attachment &from,
                                const runtime::Attachment &to, VkRect2D area,
                                bool depth, bool stencil) {
  const runtime::VulkanFormat &format = *from.format;
  uint32_t x1 = std::min<uint64_t>(uint64_t(area.offset.x) + area.extent.width,
                                   std::min(from.width, to.width));
  uint32_t y1 = std::min<uint64_t>(uint64_t(area.offset.y) + area.extent.height,
                                   std::min(from.height, to.height));
  for (uint32_t y = area.offset.y; y < y1; ++y)
    for (uint32_t x = area.offset.x; x < x1; ++x) {
      const uint8_t *source = from.at(x, y);
      uint8_t *destination = to.at(x, y);
      if (depth && format.depthBits)
        runtime::encodeDepth(*to.format, runtime::decodeDepth(format, source),
                             destination);
      if (stencil && format.stencilBits)
        runtime::encodeStencil(
            *to.format, runtime::decodeStencil(format, source), destination);
    }
}

llvm::Expected<runtime::Attachment>
DrawExecutor::getPassAttachment(uint32_t index, const char *name,
                                const char *use) const {
  if (index >= pass->attachments.size())
    return makeError(llvm::formatv("error: {0}: the subpass {1} attachment "
                                   "{2} of {3}",
                                   name, use, index, pass->attachments.size()));
  return getAttachment(pass->attachments[index], name, index);
}

llvm::Error DrawExecutor::resolveSubpass(const char *name) {
  const RenderPass::Subpass &current = pass->renderPass->subpasses[subpass];
  auto get = [&](uint32_t index) {
    return getPassAttachment(index, name, "resolves");
  };
  auto resolve = [&](uint32_t from, uint32_t to, bool color, bool depth,
                     bool stencil) -> llvm::Error {
    if (from == VK_ATTACHMENT_UNUSED || to == VK_ATTACHMENT_UNUSED)
      return llvm::Error::success();
    llvm::Expected<runtime::Attachment> source = get(from);
    if (!source)
      return source.takeError();
    llvm::Expected<runtime::Attachment> destination = get(to);
    if (!destination)
      return destination.takeError();
    if (source->samples == 1 || destination->samples != 1)
      return makeError(llvm::formatv("error: {0}: attachment {1} resolves "
                                     "into attachment {2}, but only a "
                                     "multisampled attachment resolves, into "
                                     "a single-sampled one",
                                     name, from, to));
    if (color)
      resolveArea(*source, *destination, pass->renderArea);
    else
      resolveDepthStencil(*source, *destination, pass->renderArea, depth,
                          stencil);
    return llvm::Error::success();
  };
  for (size_t location = 0; location < current.resolves.size(); ++location)
    if (llvm::Error error =
            resolve(current.colors[location], current.resolves[location], true,
                    false, false))
      return error;
  return resolve(current.depthStencil, current.depthStencilResolve, false,
                 current.depthResolveMode != VK_RESOLVE_MODE_NONE,
                 current.stencilResolveMode != VK_RESOLVE_MODE_NONE);
}

llvm::Error DrawExecutor::nextSubpass() {
  if (!pass || subpass + 1 >= pass->renderPass->subpasses.size())
    return makeError("error: vkCmdNextSubpass: no render pass has a next "
                     "subpass");
  if (llvm::Error error = resolveSubpass("vkCmdNextSubpass"))
    return error;
  ++subpass;
  return llvm::Error::success();
}

llvm::Error
DrawExecutor::clearAttachments(const command::ClearAttachments &command) {
  if (!pass)
    return makeError("error: vkCmdClearAttachments: no render pass is begun");
  llvm::Expected<runtime::RenderTarget> target =
      getRenderTarget("vkCmdClearAttachments");
  if (!target)
    return target.takeError();
  for (const VkClearAttachment &clear : command.attachments) {
    const runtime::Attachment *attachment = nullptr;
    if (clear.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) {
      if (clear.colorAttachment < target->colors.size() &&
          target->colors[clear.colorAttachment].data)
        attachment = &target->colors[clear.colorAttachment];
    } else if (target->depthStencil) {
      attachment = &*target->depthStencil;
    }
    // An unused attachment is not cleared.
    if (!attachment)
      continue;
    for (const VkClearRect &rect : command.rects)
      clearArea(*attachment, rect.rect, clear.clearValue,
                clear.aspectMask &
                    (VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT),
                clear.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT);
  }
  return llvm::Error::success();
}

llvm::Error DrawExecutor::endRenderPass() {
  if (!pass)
    return makeError("error: vkCmdEndRenderPass: no render pass is begun");
  llvm::Error resolved = resolveSubpass("vkCmdEndRenderPass");
  pass = nullptr;
  if (resolved)
    return resolved;
  return llvm::Error::success();
}

void DrawExecutor::bindVertexBuffers(
    const command::BindVertexBuffers &command) {
  for (size_t i = 0; i < command.buffers.size(); ++i) {
    VertexBuffer &bound = vertexBuffers[command.firstBinding + i];
    bound.buffer = command.buffers[i];
    bound.offset = command.offsets[i];
    bound.size = i < command.sizes.size() ? command.sizes[i] : VK_WHOLE_SIZE;
    bound.stride = i < command.strides.size()
                       ? std::optional<VkDeviceSize>(command.strides[i])
                       : std::nullopt;
  }
}

llvm::Expected<runtime::RenderTarget>
DrawExecutor::getRenderTarget(const char *name) {
  const RenderPass::Subpass &current = pass->renderPass->subpasses[subpass];
  runtime::RenderTarget target;
  target.width = pass->extent.width;
  target.height = pass->extent.height;
  auto get = [&](uint32_t index) {
    return getPassAttachment(index, name, "uses");
  };
  for (uint32_t index : current.colors) {
    if (index == VK_ATTACHMENT_UNUSED) {
      target.colors.emplace_back();
      continue;
    }
    llvm::Expected<runtime::Attachment> attachment = get(index);
    if (!attachment)
      return attachment.takeError();
    target.colors.push_back(*attachment);
  }
  if (current.depthStencil != VK_ATTACHMENT_UNUSED) {
    llvm::Expected<runtime::Attachment> attachment = get(current.depthStencil);
    if (!attachment)
      return attachment.takeError();
    target.depthStencil = *attachment;
  }
  return target;
}

runtime::GraphicsState
DrawExecutor::getState(const GraphicsPipelineState &pipeline) const {
  // The pipeline's state, then the dynamic state it takes from commands;
  // drawing stays within the render area.
  runtime::GraphicsState state = pipeline.state;
  for (const auto &[which, setters] : dynamicStates)
    if (pipeline.dynamicStates.count(which))
      for (const auto *apply : setters)
        (*apply)(state);
  VkRect2D area = pass->renderArea;
  if (state.scissor) {
    int32_t x0 = std::max(area.offset.x, state.scissor->offset.x);
    int32_t y0 = std::max(area.offset.y, state.scissor->offset.y);
    int64_t x1 = std::min<int64_t>(int64_t(area.offset.x) + area.extent.width,
                                   int64_t(state.scissor->offset.x) +
                                       state.scissor->extent.width);
    int64_t y1 = std::min<int64_t>(int64_t(area.offset.y) + area.extent.height,
                                   int64_t(state.scissor->offset.y) +
                                       state.scissor->extent.height);
    area = {{x0, y0},
            {uint32_t(std::max<int64_t>(0, x1 - x0)),
             uint32_t(std::max<int64_t>(0, y1 - y0))}};
  }
  state.scissor = area;
  return state;
}

llvm::Expected<std::vector<runtime::VertexAttribute>>
DrawExecutor::getAttributes(const GraphicsPipelineState &pipeline,
                            const char *name) const {
  std::vector<runtime::VertexAttribute> attributes;
  bool dynamicStride = pipeline.dynamicStates.count(
      VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE);
  for (const VkVertexInputAttributeDescription &description :
       pipeline.attributes) {
    auto binding = pipeline.bindings.find(description.binding);
    if (binding == pipeline.bindings.end())
      return makeError(llvm::formatv("error: {0}: vertex attribute {1} reads "
                                     "binding {2}, which the pipeline does "
                                     "not describe",
                                     name, description.location,
                                     description.binding));
    auto buffer = vertexBuffers.find(description.binding);
    if (buffer == vertexBuffers.end())
      return makeError(llvm::formatv("error: {0}: no vertex buffer is bound "
                                     "at binding {1} (vertex attribute {2})",
                                     name, description.binding,
                                     description.location));
    std::string what =
        "the vertex buffer at binding " + std::to_string(description.binding);
    if (llvm::Error error =
            checkBuffer(buffer->second.buffer, name, what.c_str()))
      return error;
    const Buffer &memory = *buffer->second.buffer;
    runtime::VertexAttribute attribute;
    attribute.location = description.location;
    attribute.format = runtime::getVulkanFormat(description.format);
    if (!attribute.format)
      return makeError(llvm::formatv("error: {0}: vertex attribute {1} has "
                                     "format {2}, which cannot be fetched",
                                     name, description.location,
                                     int(description.format)));
    VkDeviceSize offset = std::min(buffer->second.offset, memory.size);
    attribute.data = memory.getData() + offset;
    attribute.size = std::min(buffer->second.size, memory.size - offset);
    attribute.offset = description.offset;
    attribute.stride = uint32_t(dynamicStride && buffer->second.stride
                                    ? *buffer->second.stride
                                    : binding->second.stride);
    attribute.perInstance =
        binding->second.inputRate == VK_VERTEX_INPUT_RATE_INSTANCE;
    attributes.push_back(attribute);
  }
  return attributes;
}

llvm::Expected<runtime::DrawCall>
DrawExecutor::getDrawCall(const command::Draw &command,
                          const char *name) const {
  runtime::DrawCall call;
  call.vertexCount = command.count;
  call.instanceCount = command.instanceCount;
  call.firstVertex = command.first;
  call.firstInstance = command.firstInstance;
  call.vertexOffset = command.vertexOffset;
  if (!command.indexed)
    return call;
  if (!indexBuffer)
    return makeError(
        llvm::formatv("error: {0}: no index buffer is bound", name));
  if (llvm::Error error =
          checkBuffer(indexBuffer->buffer, name, "the index buffer"))
    return error;
  const Buffer &memory = *indexBuffer->buffer;
  VkDeviceSize offset = std::min(indexBuffer->offset, memory.size);
  call.indices = memory.getData() + offset;
  call.indexBytes = memory.size - offset;
  call.indexSize = indexBuffer->type == VK_INDEX_TYPE_UINT16      ? 2
                   : indexBuffer->type == VK_INDEX_TYPE_UINT8_EXT ? 1
                                                                  : 4;
  return call;
}

llvm::Error DrawExecutor::draw(const Bound &bound, const command::Draw &command,
                               const char *name) {
  if (!pass)
    return makeError(
        llvm::formatv("error: {0}: no render pass is begun", name));
  if (!bound.pipeline)
    return makeError(llvm::formatv("error: {0}: no graphics pipeline is "
                                   "bound",
                                   name));
  if (llvm::Error error =
          checkHandle(bound.pipeline, name, "the bound graphics pipeline"))
    return error;
  const GraphicsPipelineState &pipeline = *bound.pipeline->graphics;
  runtime::GraphicsState state = getState(pipeline);
  llvm::Expected<std::vector<runtime::VertexAttribute>> attributes =
      getAttributes(pipeline, name);
  if (!attributes)
    return attributes.takeError();
  llvm::Expected<runtime::DrawCall> call = getDrawCall(command, name);
  if (!call)
    return call.takeError();
  llvm::Expected<runtime::RenderTarget> target = getRenderTarget(name);
  if (!target)
    return target.takeError();
  target->attachmentlessSamples = pipeline.samples;

  llvm::Expected<Draw> drawing = Draw::create(pipeline.shaders);
  if (!drawing)
    return drawing.takeError();
  const Environment &environment = device.physicalDevice->environment;
  drawing->setLimits(environment.limits);
  // SPVB_DEBUG_PIXEL: that pixel's invocations through the debug builds.
  if (environment.debugPixel && pipeline.debugShaders.fragment)
    drawing->setDebugPixel((*environment.debugPixel)[0],
                           (*environment.debugPixel)[1], pipeline.debugShaders);
  llvm::SmallVector<Dispatch *, 5> stages = drawing->getStages();
  bool pushConstants = !bound.pushConstants.empty();
  for (Dispatch *stage : stages) {
    stage->setBoundsCheckHint("SPVB_CHECKS=bounds");
    pushConstants |= stage->getKernel().reflection.pushConstants.has_value();
  }
  DescriptorBinder binder(device, name, stages);
  if (llvm::Error error = binder.bindSets(bound.sets))
    return error;
  binder.nameAddressableBuffers();
  if (pushConstants)
    drawing->setPushConstants(bound.pushConstants);
  std::optional<runtime::DrawStatistics> statistics;
  if (llvm::Error error =
          runWithTimeout(device, name, "draw", "a shader may loop forever",
                         [&]() -> llvm::Error {
                           llvm::Expected<runtime::DrawStatistics> done =
                               drawing->run(*device.launcher, state,
                                            *attributes, *call, *target);
                           if (!done)
                             return done.takeError();
                           statistics = *done;
                           return llvm::Error::success();
                         }))
    return error;
  count(*statistics, state, command);
  return llvm::Error::success();
}

/// The primitives \p vertices make in \p topology (restarts aside).
static uint64_t getPrimitiveCount(const runtime::GraphicsState &state,
                                  uint64_t vertices) {
  switch (state.topology) {
  case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
    return vertices;
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    return vertices / 2;
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    return vertices > 1 ? vertices - 1 : 0;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    return vertices / 3;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
    return vertices > 2 ? vertices - 2 : 0;
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    return vertices / 4;
  case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
    return vertices > 3 ? vertices - 3 : 0;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    return vertices / 6;
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
    return vertices > 5 ? (vertices - 4) / 2 : 0;
  case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST:
    return state.patchControlPoints ? vertices / state.patchControlPoints : 0;
  default:
    return 0;
  }
}

void DrawExecutor::count(const runtime::DrawStatistics &shaded,
                         const runtime::GraphicsState &state,
                         const command::Draw &command) {
  runtime::DrawStatistics &sum = counts.shaded;
  sum.vertexInvocations += shaded.vertexInvocations;
  sum.tessControlInvocations += shaded.tessControlInvocations;
  sum.tessEvaluationInvocations += shaded.tessEvaluationInvocations;
  sum.geometryInvocations += shaded.geometryInvocations;
  sum.primitives += shaded.primitives;
  sum.fragmentInvocations += shaded.fragmentInvocations;
  sum.samplesPassed += shaded.samplesPassed;
  uint64_t primitives = getPrimitiveCount(state, command.count);
  counts.vertices += uint64_t(command.count) * command.instanceCount;
  counts.primitives += primitives * command.instanceCount;
  if (state.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
    counts.patches += primitives * command.instanceCount;
}

llvm::Error DrawExecutor::drawIndirect(const Bound &bound,
                                       const command::DrawIndirect &command) {
  const char *name = command.countBuffer
                         ? (command.indexed ? "vkCmdDrawIndexedIndirectCount"
                                            : "vkCmdDrawIndirectCount")
                         : (command.indexed ? "vkCmdDrawIndexedIndirect"
                                            : "vkCmdDrawIndirect");
  auto read = [&](const Buffer *buffer, const char *what, VkDeviceSize offset,
                  void *to, size_t bytes) -> llvm::Error {
    if (llvm::Error error = checkBuffer(buffer, name, what))
      return error;
    if (offset + bytes > buffer->size)
      return makeError(llvm::formatv("error: {0}: {1} has no {2} bytes at "
                                     "offset {3}",
                                     name, what, bytes, offset));
    std::memcpy(to, buffer->getData() + offset, bytes);
    return llvm::Error::success();
  };
  uint32_t drawCount = command.drawCount;
  if (command.countBuffer) {
    uint32_t count;
    if (llvm::Error error = read(command.countBuffer, "countBuffer",
                                 command.countOffset, &count, sizeof(count)))
      return error;
    drawCount = std::min(drawCount, count);
  }
  for (uint32_t i = 0; i < drawCount; ++i) {
    VkDeviceSize offset = command.offset + VkDeviceSize(i) * command.stride;
    command::Draw draw{command.indexed, 0, 0, 0, 0, 0};
    if (command.indexed) {
      VkDrawIndexedIndirectCommand args;
      if (llvm::Error error =
              read(command.buffer, "buffer", offset, &args, sizeof(args)))
        return error;
      draw = {true,
              args.indexCount,
              args.instanceCount,
              args.firstIndex,
              args.vertexOffset,
              args.firstInstance};
    } else {
      VkDrawIndirectCommand args;
      if (llvm::Error error =
              read(command.buffer, "buffer", offset, &args, sizeof(args)))
        return error;
      draw = {false, args.vertexCount,  args.instanceCount, args.firstVertex,
              0,     args.firstInstance};
    }
    if (llvm::Error error = this->draw(bound, draw, name))
      return error;
  }
  return llvm::Error::success();
}
