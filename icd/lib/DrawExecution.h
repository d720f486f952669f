//===- DrawExecution.h - Render passes and draws in a submission -*- C++
//-*-===//
//
// The graphics half of replaying a command buffer: the render pass being
// executed (its load operations when it begins), the vertex and index
// buffers and the dynamic state bound so far, and each draw run by the
// runtime's graphics pipeline into the subpass's attachments.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_DRAWEXECUTION_H
#define SPVBRIDGE_ICD_LIB_DRAWEXECUTION_H

#include "DescriptorBinding.h"
#include "Objects.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <utility>

namespace spvb::icd {

class DrawExecutor {
public:
  explicit DrawExecutor(Device &device) : device(device) {}

  llvm::Error beginRenderPass(const command::BeginRenderPass &command);
  llvm::Error nextSubpass();
  /// vkCmdClearAttachments: rectangles of the current subpass's
  /// attachments.
  llvm::Error clearAttachments(const command::ClearAttachments &command);
  llvm::Error endRenderPass();
  void bindVertexBuffers(const command::BindVertexBuffers &command);
  void bindIndexBuffer(const command::BindIndexBuffer &command) {
    indexBuffer = command;
  }
  void setDynamicState(const command::SetDynamicState &command) {
    dynamicStates[command.state].push_back(&command.apply);
  }
  /// A secondary command buffer inherits none of this but the render pass.
  void forgetBindings() {
    vertexBuffers.clear();
    indexBuffer.reset();
    dynamicStates.clear();
  }

  /// The pipeline and sets bound at the graphics bind point, and the push
  /// constants.
  struct Bound {
    const Pipeline *pipeline;
    const BoundSets &sets;
    llvm::ArrayRef<uint8_t> pushConstants;
  };
  llvm::Error draw(const Bound &bound, const command::Draw &command,
                   const char *name);
  llvm::Error drawIndirect(const Bound &bound,
                           const command::DrawIndirect &command);
  /// What draws did, for occlusion and pipeline-statistics queries.
  struct Counts {
    runtime::DrawStatistics shaded;
    /// What the input assembly read (primitive restarts not subtracted).
    uint64_t vertices = 0, primitives = 0, patches = 0;
  };
  /// The draws' counts since the last call.
  Counts takeCounts() { return std::exchange(counts, Counts()); }

private:
  struct VertexBuffer {
    Buffer *buffer;
    VkDeviceSize offset, size;
    /// vkCmdBindVertexBuffers2's stride, if it gave one.
    std::optional<VkDeviceSize> stride;
  };
  /// The current subpass's attachments.
  llvm::Expected<runtime::RenderTarget> getRenderTarget(const char *name);
  /// The render pass's attachment \p index, which the subpass \p use-s
  /// ("uses", "resolves"), or an error naming it.
  llvm::Expected<runtime::Attachment>
  getPassAttachment(uint32_t index, const char *name, const char *use) const;
  /// The current subpass's resolves, over the render area, at its end.
  llvm::Error resolveSubpass(const char *name);
  /// Adds a draw's statistics to `counts`.
  void count(const runtime::DrawStatistics &shaded,
             const runtime::GraphicsState &state, const command::Draw &command);
  /// What a draw with \p pipeline bound runs with: its state with the
  /// dynamic state set, the scissor within the render area.
  runtime::GraphicsState getState(const GraphicsPipelineState &pipeline) const;
  /// \p pipeline's vertex attributes over the bound vertex buffers.
  llvm::Expected<std::vector<runtime::VertexAttribute>>
  getAttributes(const GraphicsPipelineState &pipeline, const char *name) const;
  /// \p command's counts, and the bound index buffer if it is indexed.
  llvm::Expected<runtime::DrawCall> getDrawCall(const command::Draw &command,
                                                const char *name) const;

  Device &device;
  const command::BeginRenderPass *pass = nullptr;
  uint32_t subpass = 0;
  std::map<uint32_t, VertexBuffer> vertexBuffers;
  std::optional<command::BindIndexBuffer> indexBuffer;
  Counts counts;
  /// Each dynamic state's vkCmdSet* commands so far, in order (the stencil
  /// ones may set one face each).
  std::map<VkDynamicState,
           std::vector<const std::function<void(runtime::GraphicsState &)> *>>
      dynamicStates;
};

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_DRAWEXECUTION_H
